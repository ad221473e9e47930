import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { DEFAULT_LEAD_OPTIONS, openingFirst, type LeadRanked } from './lead.js';

describe('openingFirst', () => {
  interface Entry extends LeadRanked {
    name: string;
    first: Record<string, number>;
  }
  const entry = (name: string, score: number, first: Record<string, number>): Entry => ({ name, score, first });
  const firstOf = (e: Entry, token: string) => e.first[token] ?? -1;
  const options = { poolSize: 3, leadWords: 20, weight: 0.2 };
  const words = new Set(['a', 'b']);

  it('reorders the pool by score times 1 + weight x share of words in the opening, and leaves the rest after it', () => {
    const ranked = [
      entry('later', 1.0, { a: 25, b: 300 }),
      entry('half', 0.95, { a: 3, b: 300 }),
      entry('opens', 0.9, { a: 0, b: 19 }),
      entry('beyond', 0.89, { a: 0, b: 1 }),
    ];
    const out = openingFirst(ranked, words, firstOf, options);
    expect(out).toBe(ranked); // the query's own candidates, reordered in place
    expect(out.map((e) => e.name)).toEqual(['opens', 'half', 'later', 'beyond']);
    expect(out[0]!.score).toBeCloseTo(0.9 * 1.2);
    expect(out[0]!.lead).toEqual({ words: 2, opening: 2, factor: 1.2 });
    expect(out[1]!.lead?.factor).toBeCloseTo(1.1);
    // A word first met at place 25 is past the opening, however often it comes after.
    expect(out[2]!.lead).toEqual({ words: 2, opening: 0, factor: 1 });
    expect(out[3]!.lead).toBeUndefined();
  });

  it('counts a word absent from the body (-1) as not in the opening', () => {
    const out = openingFirst([entry('none', 1, {})], words, firstOf, options);
    expect(out[0]!.lead).toEqual({ words: 2, opening: 0, factor: 1 });
  });

  it('changes nothing without words or weight, and keeps ties in order', () => {
    const ranked = () => [entry('x', 1, { a: 0 }), entry('y', 1, { a: 0 })];
    const untouched = [['x', 1, undefined], ['y', 1, undefined]];
    const seen = (out: Entry[]) => out.map((e) => [e.name, e.score, e.lead]);
    expect(seen(openingFirst(ranked(), new Set(), firstOf, options))).toEqual(untouched);
    expect(seen(openingFirst(ranked(), words, firstOf, { ...options, weight: 0 }))).toEqual(untouched);
    expect(openingFirst(ranked(), words, firstOf, options).map((e) => e.name)).toEqual(['x', 'y']);
  });
});

describe('the opening in the engine', () => {
  const S = 'http://docs.test';
  const filler = 'The page goes on about other things entirely, one sentence after another, for a while. ';
  const pages = [
    // A manual page whose NAME line is the query, and a shorter one that says the words later on: on text
    // alone the shorter one wins.
    { url: `${S}/git-clean`, title: 'git-clean(1)', text: `git-clean - Remove untracked files from the working tree. ${filler.repeat(6)}` },
    {
      url: `${S}/git-update-index`,
      title: 'git-update-index(1)',
      text: `git-update-index - Register file contents in the working tree to the index. ${filler.repeat(3)} Remove untracked files. ${filler.repeat(2)}`,
    },
    ...Array.from({ length: 20 }, (_, i) => ({ url: `${S}/other-${i}`, title: `Other ${i}`, text: `Other page ${i} about files.` })),
  ];
  const withRule = fixtureEngine(pages);
  const without = fixtureEngine(pages, { lead: { ...DEFAULT_LEAD_OPTIONS, weight: 0 } });

  it('ranks the page that opens with the query first, and explains the factor', () => {
    const q = parseQuery('remove untracked');
    expect(without().search(q, { offset: 0, limit: 10 }).hits[0]?.url).toBe(`${S}/git-update-index`);
    const { hits } = withRule().search(q, { offset: 0, limit: 10 });
    expect(hits.map((h) => h.url)).toEqual([`${S}/git-clean`, `${S}/git-update-index`]);
    const [first, second] = hits;
    expect(first!.explain).toMatchObject({ queryWords: 2, openingWords: 2, openingFactor: 1 + DEFAULT_LEAD_OPTIONS.weight });
    expect(second!.explain).toMatchObject({ queryWords: 2, openingWords: 0, openingFactor: 1 });
    const e = first!.explain!;
    expect(e.score).toBeCloseTo(e.textScore * e.linkBoost * e.hubFactor * e.listingFactor * e.languageFactor * e.proximityFactor * e.nameTitleFactor * e.openingFactor);
    expect(withRule().rankedUrls(q, 1).map((r) => r.url)).toEqual([`${S}/git-clean`]);
  });

  it('leaves phrases and any-word queries to the text score', () => {
    const phrase = withRule().search(parseQuery('"remove untracked"'), { offset: 0, limit: 10 }).hits;
    expect(phrase.length).toBeGreaterThan(0);
    for (const h of phrase) expect(h.explain).toMatchObject({ openingFactor: 1 });
    for (const h of phrase) expect(h.explain!.queryWords).toBeUndefined();
  });
});
