import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bodyFrequencyScale, DEFAULT_RANK_PARAMS as P, forIndex, idf, inverseFieldNorm, linkBoost, rankScore, saturateAll, saturatedFrequency, termScore } from './rank.js';

const norms = [1, 1, 1, 1, 1];

describe('rank', () => {
  it('idf falls as a word gets commoner and never goes below zero', () => {
    expect(idf(1000, 1)).toBeGreaterThan(idf(1000, 100));
    expect(idf(1000, 1000)).toBeGreaterThan(0);
  });
  it('a term score saturates: ten times the occurrences is far less than ten times the score', () => {
    const once = termScore(P, 1, [0, 0, 1, 0, 0], norms).score;
    const ten = termScore(P, 1, [0, 0, 10, 0, 0], norms).score;
    expect(ten).toBeGreaterThan(once);
    expect(ten).toBeLessThan(3 * once);
  });
  it('a word in the title counts more than in the body (field weights)', () => {
    expect(termScore(P, 1, [1, 0, 0, 0, 0], norms).score).toBeGreaterThan(termScore(P, 1, [0, 0, 1, 0, 0], norms).score);
  });
  it('longer fields weigh an occurrence less (length normalisation)', () => {
    expect(inverseFieldNorm(P, 2, 50, 100)).toBeGreaterThan(inverseFieldNorm(P, 2, 200, 100));
  });
  it('field shares add up to the term score (property)', () => {
    const tf = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(tf, tf, tf, tf, tf), fc.double({ min: 0.01, max: 10, noNaN: true }), (tfs, w) => {
        const { score, byField } = termScore(P, w, tfs, norms);
        expect(byField.reduce((a, b) => a + b, 0)).toBeCloseTo(score, 9);
      }),
    );
  });
  it('links boost the score and more links boost more; no links, no boost', () => {
    expect(linkBoost(P, { inbound: 0 })).toBe(1);
    expect(rankScore(P, 2, { inbound: 10 })).toBeGreaterThan(rankScore(P, 2, { inbound: 1 }));
  });
});

describe('saturateAll', () => {
  it('gives every posting saturatedFrequency, to the bit, with the body column or without (property)', () => {
    // Most postings only in the body (the column's fast path), some in other fields too.
    const posting = fc.tuple(fc.boolean(), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 5, maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(posting, { minLength: 1, maxLength: 40 }), fc.array(fc.float({ min: Math.fround(0.01), max: Math.fround(4), noNaN: true }), { minLength: 50, maxLength: 50 }), (list, w) => {
        const tfs = Uint8Array.from(list.flatMap(([bodyOnly, f]) => (bodyOnly ? [0, 0, f[2]!, 0, 0] : f)));
        const docs = Uint32Array.from(list, (_, i) => (i * 7) % 10);
        const weighted = Float32Array.from(w);
        const body = { field: 2, weighted: Float32Array.from({ length: 10 }, (_, d) => weighted[d * 5 + 2]!) };
        const params = { ...P, k1: 1.7 };
        const plain = new Float32Array(list.length);
        const withColumn = new Float32Array(list.length);
        saturateAll(params, tfs, docs, weighted, plain);
        saturateAll(params, tfs, docs, weighted, withColumn, body);
        list.forEach((_, p) => expect(plain[p]).toBe(Math.fround(saturatedFrequency(params, tfs, p * 5, weighted, docs[p]! * 5))));
        expect([...withColumn]).toEqual([...plain]);
      }),
    );
  });
});

describe('k1 in units of the index', () => {
  it('bodyFrequencyScale is the mean normalised body frequency, and 1 for an index without body text', () => {
    expect(bodyFrequencyScale(30, 10)).toBe(3);
    expect(bodyFrequencyScale(0, 0)).toBe(1);
  });
  it('pages repeating every word c times as often, in an index whose scale is c times larger, score the same (property)', () => {
    const tf = fc.integer({ min: 0, max: 50 });
    fc.assert(
      fc.property(fc.tuple(tf, tf, tf, tf, tf), fc.integer({ min: 1, max: 5 }), fc.double({ min: 0.5, max: 5, noNaN: true }), (tfs, c, scale) => {
        const weighted = P.fieldWeight.map((w) => w);
        const once = saturatedFrequency(forIndex(P, scale), tfs, 0, weighted, 0);
        const more = saturatedFrequency(forIndex(P, scale * c), tfs.map((t) => t * c), 0, weighted, 0);
        expect(more).toBeCloseTo(once, 9);
      }),
    );
  });
  it('a page using a word exactly as often as the index scale gets half the saturated score (k1 1)', () => {
    const bodyOnly = [0, 0, 1, 0, 0];
    expect(saturatedFrequency(forIndex({ ...P, k1: 1 }, 4), [0, 0, 4, 0, 0], 0, bodyOnly, 0)).toBeCloseTo(0.5, 12);
  });
});
