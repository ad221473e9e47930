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
});
