// A rare phrase of common words (shared/index-format phrase-pairs.ts): its candidates are the pages
// that have its pair terms, so the phrase checks, however few, find every page that says it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/index.js';
import { buildFixtureIndex, writePages, type FixtureDir } from '../../test/support/index-fixture.js';
import { parseQuery } from '../query/index.js';
import { openSearchEngine, type GleanerSearchEngine } from './index.js';

// 60 pages have "lantern", "amber" and "glass" apart; the phrase "lantern amber" stands on two of them,
// which say the words least often, so they rank last among the 60.
const pages = Array.from({ length: 60 }, (_, i) => ({
  url: `http://lamps.test/${i}`,
  title: `Lamp ${i}`,
  text:
    i === 7 || i === 41
      ? `a lantern amber glass, number ${i}`
      : `amber light, amber glass, amber glow; a lantern, a lantern, a lantern, a glass lantern by the door, number ${i}`,
}));

// Words in 50 pages or more are common; so are all three here.
const PAIRS = { phrasePairMinDocs: 50, phrasePairWords: 200 };
const few = { maxPhraseChecks: 3, phraseSampleSize: 5 };
const urls = (engine: GleanerSearchEngine, q: string) => engine.search(parseQuery(q), { offset: 0, limit: 10, explain: false }).hits.map((h) => h.url);

let withPairs: FixtureDir;
let without: FixtureDir;
let engine: GleanerSearchEngine;
let unpaired: GleanerSearchEngine;

beforeAll(async () => {
  withPairs = await buildFixtureIndex(pages, undefined, PAIRS);
  without = await buildFixtureIndex(pages, undefined, { phrasePairMinDocs: 1_000_000 });
  engine = await openSearchEngine(withPairs.dataDir, few);
  unpaired = await openSearchEngine(without.dataDir, few);
});
afterAll(async () => {
  engine.close();
  unpaired.close();
  await withPairs.cleanup();
  await without.cleanup();
});

describe('phrases of common words', () => {
  it('find every page that has the phrase, however few checks are allowed, with an exact total', () => {
    const r = engine.search(parseQuery('"lantern amber"'), { offset: 0, limit: 10, explain: false });
    expect(r.hits.map((h) => h.url).sort()).toEqual(['http://lamps.test/41', 'http://lamps.test/7']);
    expect(r.total).toBe(2);
    expect(r.totalIsEstimate).toBeUndefined();
    expect(r.phraseCheckStopped).toBeUndefined();
    // Without the pairs the same checks stop among the 60 pages with the words, before reaching them.
    const before = unpaired.search(parseQuery('"lantern amber"'), { offset: 0, limit: 10, explain: false });
    expect(before.phraseCheckStopped).toEqual({ checked: 3, candidates: 60 });
    expect(before.hits).toHaveLength(0);
  });

  it('answer a three-word phrase, a phrase no page has and an excluded phrase', () => {
    expect(urls(engine, '"lantern amber glass"').sort()).toEqual(['http://lamps.test/41', 'http://lamps.test/7']);
    // Every page has "glass lantern" but none "lantern glass": no pair term, nothing to check.
    const none = engine.search(parseQuery('"lantern glass"'), { offset: 0, limit: 10, explain: false });
    expect(none.total).toBe(0);
    expect(none.phraseCheckStopped).toBeUndefined();
    const rest = engine.search(parseQuery('lantern -"lantern amber"'), { offset: 0, limit: 100, explain: false });
    expect(rest.total).toBe(58);
    expect(rest.hits.map((h) => h.url)).not.toContain('http://lamps.test/7');
  });

  it('rank the same pages as the index without pairs when every candidate is checked', async () => {
    const thorough = await openSearchEngine(withPairs.dataDir, { maxPhraseChecks: 1000 });
    const plain = await openSearchEngine(without.dataDir, { maxPhraseChecks: 1000 });
    try {
      for (const q of ['"amber glass"', '"a lantern"', '"glass lantern" amber', '"lantern amber"', 'amber lantern']) {
        expect(urls(thorough, q), q).toEqual(urls(plain, q));
      }
    } finally {
      thorough.close();
      plain.close();
    }
  });

  it('match, count and rank as every candidate checked does, for every phrase of a small vocabulary', async () => {
    // Seeded pages of five words: three of them common (the top 3), two not; titles and bodies both;
    // one page in ten also says "navy", so queries with it have few full matches and partial ones follow.
    const vocabulary = ['red', 'blue', 'green', 'plum', 'teal'];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const weighted = () => vocabulary[Math.min(4, Math.floor(random() ** 2 * 5))]!;
    const words = (n: number) => Array.from({ length: n }, weighted).join(' ');
    const randomPages = Array.from({ length: 120 }, (_, i) => ({ url: `http://words.test/${i}`, title: words(3), text: `${words(4 + (i % 9))}${i % 10 === 0 ? ' navy' : ''}` }));
    const paired = await buildFixtureIndex(randomPages, undefined, { phrasePairMinDocs: 1, phrasePairWords: 3 });
    const plain = await buildFixtureIndex(randomPages, undefined, { phrasePairMinDocs: 1_000_000 });
    const a = await openSearchEngine(paired.dataDir, { maxPhraseChecks: 1000 });
    const b = await openSearchEngine(plain.dataDir, { maxPhraseChecks: 1000 });
    try {
      const queries: string[] = [];
      // Two groups: pages lacking one follow as partial matches, which say what they lack.
      for (const x of vocabulary) for (const y of vocabulary) queries.push(`"${x} ${y}"`, `"${x} ${y}" OR ${x}`, `${x} -"${y} ${x}"`, `"${x} ${y}" navy`);
      for (const x of vocabulary) for (const y of vocabulary) for (const z of vocabulary) queries.push(`"${x} ${y} ${z}"`);
      let matched = 0;
      let counted = 0;
      let partial = 0;
      for (const q of queries) {
        const ra = a.search(parseQuery(q), { offset: 0, limit: 10, explain: false });
        const rb = b.search(parseQuery(q), { offset: 0, limit: 10, explain: false });
        const shown = (r: typeof ra) => r.hits.map((h) => `${h.url} ${h.missing?.join(',') ?? ''}`);
        expect(shown(ra), q).toEqual(shown(rb));
        if (ra.hits.some((h) => h.missing)) partial++;
        // A total past the checks is an estimate (phrase-check.ts): compared only when both are counted.
        if (!ra.totalIsEstimate && !rb.totalIsEstimate) expect(ra.total, q).toBe(rb.total);
        const phrase = /^"([a-z ]+)"$/.exec(q)?.[1];
        if (phrase !== undefined && !ra.totalIsEstimate) {
          const says = (text: string) => ` ${text} `.includes(` ${phrase} `);
          expect(ra.total, q).toBe(randomPages.filter((p) => says(p.title) || says(p.text)).length);
          counted++;
        }
        if (ra.total > 0) matched++;
      }
      // Not a vacuous agreement: most queries have matches.
      expect(matched).toBeGreaterThan(queries.length / 2);
      expect(counted).toBeGreaterThan(75);
      expect(partial).toBeGreaterThan(5);
    } finally {
      a.close();
      b.close();
      await paired.cleanup();
      await plain.cleanup();
    }
  });

  it('are not suggested as words', () => {
    expect(engine.suggest('lantern', 10).every((w) => !w.includes('\u0001'))).toBe(true);
    expect(engine.suggest('amb', 10)).toContain('amber');
  });

  it('stay right after an incremental build, which makes the pairs anew', async () => {
    const dataDir = withPairs.dataDir;
    await writePages(dataDir, [{ url: 'http://lamps.test/new', title: 'New lamp', text: 'one lantern amber glass' }], { fetchedAt: new Date(Date.now() + 60_000).toISOString() });
    const summary = await buildIndex(dataDir, { ...PAIRS, full: false });
    expect(summary.full).toBe(false);
    const again = await openSearchEngine(dataDir, few);
    try {
      const r = again.search(parseQuery('"lantern amber"'), { offset: 0, limit: 10, explain: false });
      expect(r.hits.map((h) => h.url).sort()).toEqual(['http://lamps.test/41', 'http://lamps.test/7', 'http://lamps.test/new']);
      expect(r.total).toBe(3);
    } finally {
      again.close();
    }
  });
});
