import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { settlePhrases } from './phrase-check.js';
import { topDocuments } from './top-k.js';

/** Documents 0..n-1 with scores and a phrase verdict each; `sure` and `unsure` split them. */
const corpus = fc
  .array(fc.record({ score: fc.integer({ min: 0, max: 50 }), passes: fc.boolean(), sure: fc.boolean() }), { minLength: 1, maxLength: 200 })
  .map((docs) => ({
    score: docs.map((d) => d.score),
    passes: (d: number) => docs[d]!.passes,
    sure: docs.flatMap((d, i) => (d.sure ? [i] : [])),
    unsure: docs.flatMap((d, i) => (d.sure ? [] : [i])),
  }));

describe('settlePhrases', () => {
  it('gives the best `wanted` of the matches whatever it leaves unchecked, and an exact total when it checks everything (property)', () => {
    fc.assert(
      fc.property(corpus, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 5 }), ({ score, passes, sure, unsure }, wanted, sample) => {
        const matches = [...sure, ...unsure.filter(passes)];
        const expected = topDocuments(matches, score, wanted);
        const all = settlePhrases(sure, unsure, score, wanted, passes, { maxPhraseChecks: Infinity, phraseSampleSize: sample });
        expect(all.docs).toEqual(expected);
        if (!all.estimated) expect(all.total).toBe(matches.length);
        // The unchecked are estimated: never fewer than found, never more than could pass.
        expect(all.total).toBeGreaterThanOrEqual(all.docs.length);
        expect(all.total).toBeLessThanOrEqual(sure.length + unsure.length);
        // A next page is never hidden: more matches than the page holds give a total past it.
        if (matches.length > wanted) expect(all.total).toBeGreaterThan(wanted);
      }),
      { numRuns: 400 },
    );
  });

  it('says how many matches its pages can reach when the estimate is more: at most that many, exactly that many once the checks stopped (property)', () => {
    fc.assert(
      fc.property(corpus, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 40 }), ({ score, passes, sure, unsure }, maxPhraseChecks, wanted) => {
        const options = { maxPhraseChecks, phraseSampleSize: 5 };
        const r = settlePhrases(sure, unsure, score, wanted, passes, options);
        const deepest = settlePhrases(sure, unsure, score, sure.length + unsure.length, passes, options).docs.length;
        if (r.reachable === undefined) return;
        expect(r.reachable).toBeLessThan(r.total);
        expect(deepest).toBeLessThanOrEqual(r.reachable);
        if (r.stopped) expect(deepest).toBe(r.reachable);
      }),
      { numRuns: 400 },
    );
  });

  it('estimates the unchecked from a sample even when the checked stand at the end of the candidates', () => {
    // 30 candidates, the best 25 last: they are checked first, and the sample must walk past none of them off the end.
    const unsure = Array.from({ length: 30 }, (_, i) => i);
    const score = unsure.map((i) => (i >= 5 ? 100 + i : i));
    const passes = (d: number) => d < 5; // only the five unchecked pass
    const r = settlePhrases([], unsure, score, 10, passes, { maxPhraseChecks: 25, phraseSampleSize: 5 });
    expect(r.docs).toEqual([]);
    expect(r.estimated).toBe(true);
    expect(r.total).toBe(5);
  });

  // 1,000 candidates, the lower the number the better; which pass is set per test.
  const unsure = Array.from({ length: 1000 }, (_, i) => i);
  const score = unsure.map((i) => 1000 - i);
  const options = { maxPhraseChecks: 2000, phraseSampleSize: 20 };

  it('knows of a next page even when the sample finds no match past the checked ones', () => {
    // 15 matches, all among the best but the 11th; the sample (every 50th candidate) meets none of them.
    const passes = (d: number) => d >= 1 && d <= 16 && d !== 11;
    const page1 = settlePhrases([], unsure, score, 10, passes, options);
    expect(page1.docs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page1.total).toBeGreaterThan(10);
    expect(settlePhrases([], unsure, score, 20, passes, options).docs).toHaveLength(15);
  });

  it('estimates the same total whichever page is asked for, within what the checks found', () => {
    // The best 40 pass, then one candidate in 50; the sample meets one match in 20.
    const passes = (d: number) => d < 40 || d % 50 === 25;
    const totals = [10, 20, 30].map((wanted) => settlePhrases([], unsure, score, wanted, passes, options));
    expect(totals.map((t) => t.total)).toEqual([50, 50, 50]);
    expect(totals.every((t) => t.estimated)).toBe(true);
    // Asked for more than the estimate, the matches found count: the total is at least those.
    const deep = settlePhrases([], unsure, score, 55, passes, options);
    expect(deep.docs).toHaveLength(55);
    expect(deep.total).toBeGreaterThanOrEqual(56);
  });

  it('stops checking once the page is settled, even when every candidate ties with its last', () => {
    // 1,000 copies of one page (a replicated site): one score. A candidate ranks after the page's
    // last by its document number, so the page of 10 and one match past it take 11 checks, not 2,000.
    const tied = unsure.map(() => 7);
    let checks = 0;
    const r = settlePhrases([], unsure, tied, 10, () => (checks++, true), options);
    expect(r.docs).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(checks - options.phraseSampleSize).toBeLessThanOrEqual(11);
    expect(r.total).toBe(1000);
  });

  it('says when the checks stopped before the page was settled, and only then', () => {
    // The only matches stand past the first 30 candidates; 25 checks stop short of them.
    const late = (d: number) => d >= 30 && d < 45;
    const stopped = settlePhrases([], unsure, score, 10, late, { maxPhraseChecks: 25, phraseSampleSize: 20 });
    expect(stopped.docs).toEqual([]);
    expect(stopped.stopped).toEqual({ checked: 25, candidates: 1000 });
    // With room for them, the page is settled and says nothing.
    const settled = settlePhrases([], unsure, score, 10, late, { maxPhraseChecks: 100, phraseSampleSize: 20 });
    expect(settled.docs).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    expect(settled.stopped).toBeUndefined();
  });
});
