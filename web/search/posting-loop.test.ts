// Properties of the searcher's shortcuts on generated indexes (real store, real indexer): each shortcut
// must give what the plain computation gives, to the last bit.
// - The pruned scan (one OR group, MaxScore) returns the same top k, scores and total as asking for
//   every match, where nothing can be pruned.
// - An every-word query's set-against-set scan (every-word.ts) gives what the term-at-a-time scan gives,
//   with phrases among its words too.
// - Galloping through an update-only key's postings finds what reading all of them finds.
// - Every hit's explanation combines to its score through rank.ts finalScore.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anyOf, buildFixtureIndex, query, type PageSpec } from '../../test/support/index-fixture.js';
import { openSearchEngine, type GleanerSearchEngine, type SearcherOptions } from './index.js';
import { finalScore } from './rank.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'river', 'stone', 'cloud', 'ember', 'frost', 'grove', 'harbor'];
const HOST = 'http://gen.test';

const word = fc.constantFrom(...WORDS);
const page = fc.record({
  title: fc.array(word, { minLength: 0, maxLength: 4 }),
  headings: fc.array(word, { minLength: 0, maxLength: 3 }),
  text: fc.array(word, { minLength: 0, maxLength: 40 }),
  links: fc.array(fc.nat(60), { maxLength: 6 }),
});
const site = fc.array(page, { minLength: 3, maxLength: 40 }).map((pages): PageSpec[] =>
  pages.map((p, i) => ({
    url: `${HOST}/p${i}`,
    title: p.title.join(' '),
    headings: p.headings.length > 0 ? [p.headings.join(' ')] : [],
    text: p.text.join(' '),
    links: p.links.map((l) => [`${HOST}/p${l % pages.length}`, WORDS[l % WORDS.length]!]),
  })),
);
const queryWords = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
// Pages in three languages, with words whose Spanish and French stems differ from the English ones: a
// query word then has alternatives, its stem in each other language looked for in that language's pages.
const WORLD_WORDS = ['stores', 'lines', 'tables', 'values', 'stations', 'nations', 'data', 'cases', 'notes', 'rules'];
const worldWord = fc.constantFrom(...WORLD_WORDS);
const worldSite = fc
  .array(fc.record({ text: fc.array(worldWord, { minLength: 1, maxLength: 30 }), language: fc.constantFrom('en', 'es', 'fr') }), { minLength: 3, maxLength: 30 })
  .map((pages): PageSpec[] => pages.map((p, i) => ({ url: `${HOST}/w${i}`, title: `page ${i}`, text: p.text.join(' '), language: p.language })));

const RUNS = { numRuns: 25 };

/** Indexes `pages`, opens one engine per options object, runs `check` on them, then cleans up. */
async function withEngines(pages: PageSpec[], options: Partial<SearcherOptions>[], check: (engines: GleanerSearchEngine[]) => void): Promise<void> {
  const fixture = await buildFixtureIndex(pages);
  const engines: GleanerSearchEngine[] = [];
  try {
    for (const o of options) engines.push(await openSearchEngine(fixture.dataDir, o));
    check(engines);
  } finally {
    for (const e of engines) e.close();
    await fixture.cleanup();
  }
}

/** Each engine's top k of each text as one OR group, for each k, is the top of every page ranked (asking
 * for every page leaves nothing to prune), and its total that of every page. */
function expectPrunedExact(engines: GleanerSearchEngine[], pages: number, texts: string[], ks: number[]): void {
  for (const text of texts) {
    const q = anyOf(text);
    const all = engines[0]!.rankedUrls(q, pages);
    const fullTotal = engines[0]!.search(q, { offset: 0, limit: pages }).total;
    for (const engine of engines) {
      for (const k of ks) {
        expect(engine.rankedUrls(q, k)).toEqual(all.slice(0, k));
        expect(engine.search(q, { offset: 0, limit: k }).total).toBe(fullTotal);
      }
    }
  }
}

describe('the searcher shortcuts give what the plain computation gives (property)', () => {
  it('the pruned scan of an OR query returns the exhaustive scan\'s top k, scores and total', { timeout: 120_000 }, async () => {
    await fc.assert(
      // Blocks of 1, 2 and 3 postings, as well as the default (one block on pages this small), so
      // block-max pruning has blocks to skip.
      fc.asyncProperty(site, fc.array(queryWords, { minLength: 1, maxLength: 8 }), (pages, texts) =>
        withEngines(pages, [{}, { blockPostings: 1 }, { blockPostings: 2 }, { blockPostings: 3 }], (engines) => expectPrunedExact(engines, pages.length, texts, [1, 2, 3, 5])),
      ),
      RUNS,
    );
  });

  it('an every-word query scanned set against set (every-word.ts) ranks and counts as the term-at-a-time scan does', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(site, fc.array(queryWords, { minLength: 1, maxLength: 8 }), (pages, texts) =>
        // scoreWholeBelowPostings 0: galloped lists scored posting by posting (precompute.ts PostingScores).
        withEngines(pages, [{}, { gallopRatio: 0, scoreWholeBelowPostings: 0 }], (engines) => {
          for (const engine of engines) {
            for (const text of texts) {
              // Excluding a word no page has changes no answer but takes the term-at-a-time scan.
              const sets = query(text);
              const terms = query(`${text} -qqqqnowhere`);
              for (const k of [1, 3, pages.length]) expect(engine.rankedUrls(sets, k)).toEqual(engine.rankedUrls(terms, k));
              expect(engine.search(sets, { offset: 0, limit: 3 }).total).toBe(engine.search(terms, { offset: 0, limit: 3 }).total);
            }
          }
        }),
      ),
      RUNS,
    );
  });

  it.each([
    ['one language', site, word],
    ['three languages, words with other-language stems', worldSite, worldWord],
  ] as const)('phrases among required words, checked on the documents found set against set, rank, count and page as the term-at-a-time scan does (%s)', { timeout: 120_000 }, async (_, pagesOf, wordOf) => {
    await fc.assert(
      fc.asyncProperty(pagesOf, fc.array(fc.tuple(wordOf, wordOf, fc.option(wordOf)), { minLength: 1, maxLength: 8 }), (pages, triples) =>
        withEngines(pages, [{}, { gallopRatio: 0, scoreWholeBelowPostings: 0 }, { maxPhraseChecks: 2, phraseSampleSize: 2 }], (engines) => {
          for (const engine of engines) {
            for (const [[a, b, c], filter] of triples.flatMap((t) => [[t, ''], [t, ' lang:es']] as const)) {
              // lang: keeps some candidates and not others (every-word.ts everyWordMatches filters them first).
              const text = (c === null ? `"${a}_${b}"` : `${c} "${a}_${b}" ${a}`) + filter;
              // The exclusion of a word no page has takes the general scan (posting-loop.ts).
              const sets = query(text);
              const terms = query(`${text} -qqqqnowhere`);
              for (const k of [1, 3, pages.length]) expect(engine.rankedUrls(sets, k)).toEqual(engine.rankedUrls(terms, k));
              for (const offset of [0, 3]) {
                const [x, y] = [sets, terms].map((q) => engine.search(q, { offset, limit: 3, explain: false }));
                expect(x!.hits.map((h) => [h.url, h.score])).toEqual(y!.hits.map((h) => [h.url, h.score]));
                expect([x!.total, x!.totalIsEstimate]).toEqual([y!.total, y!.totalIsEstimate]);
              }
            }
          }
        }),
      ),
      RUNS,
    );
  });

  it('the pruned scan keeps the exhaustive top k when copies of pages tie at the top', { timeout: 120_000 }, async () => {
    // Each page three times under other URLs, as a mirrored or replicated site has them: the k-th best
    // ties with the best, which the block-max floor must not take for more than it is.
    const copies = site.map((pages) => pages.flatMap((p) => [0, 1, 2].map((c) => ({ ...p, url: `${p.url}/copy${c}` }))));
    await fc.assert(
      fc.asyncProperty(copies, fc.array(queryWords, { minLength: 1, maxLength: 6 }), (pages, texts) =>
        withEngines(pages, [{}, { blockPostings: 1 }, { blockPostings: 2 }], (engines) => expectPrunedExact(engines, pages.length, texts, [1, 2, 4, 7])),
      ),
      RUNS,
    );
  });

  it('galloping through update-only keys finds what scanning them finds', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(site, fc.array(queryWords, { minLength: 1, maxLength: 8 }), (pages, texts) =>
        withEngines(pages, [{ gallopRatio: 0, scoreWholeBelowPostings: 0 }, { gallopRatio: Number.MAX_SAFE_INTEGER }], ([galloping, scanning]) => {
          for (const text of texts) {
            for (const q of [query(text), query(`${text} -${WORDS[text.length % WORDS.length]}`)]) {
              expect(galloping!.rankedUrls(q, pages.length)).toEqual(scanning!.rankedUrls(q, pages.length));
              expect(galloping!.search(q, { offset: 0, limit: 3 }).total).toBe(scanning!.search(q, { offset: 0, limit: 3 }).total);
            }
          }
        }),
      ),
      RUNS,
    );
  });

  it('every hit\'s explanation combines to its score through rank.ts finalScore', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(site, fc.array(queryWords, { minLength: 1, maxLength: 6 }), (pages, texts) =>
        withEngines(pages, [{}], ([engine]) => {
          for (const text of texts) {
            for (const q of [anyOf(text), query(text), query(`"${text.split(' ').slice(0, 2).join('_')}"`), query(`site:gen.test`)]) {
              for (const hit of engine!.search(q, { offset: 0, limit: 10 }).hits) {
                const explain = hit.explain!;
                expect(explain.score).toBe(hit.score);
                // A query without words (site: alone) ranks by links alone: text score 1.
                const text = q.required.length === 0 ? 1 : explain.textScore;
                // The reorderings multiply in the order they run: names in titles, the opening, proximity.
                expect(finalScore(text, explain.linkBoost * explain.hubFactor) * explain.nameTitleFactor * explain.openingFactor * explain.proximityFactor).toBe(hit.score);
                // The hot loop's per-posting norms are 32-bit floats, the explanation's 64-bit: equal to 1e-6.
                const sum = explain.terms.reduce((s, t) => s + t.contribution, 0);
                if (q.required.length > 0) expect(Math.abs(sum - explain.textScore)).toBeLessThanOrEqual(1e-6 * explain.textScore);
              }
            }
          }
        }),
      ),
      RUNS,
    );
  });
});
