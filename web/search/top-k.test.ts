import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BestPairs, bestFirst, topDocuments } from './top-k.js';

/** The rule every ranking follows, as plainly as it can be said: a higher score first, then a lower number. */
const sortedBest = (docs: readonly number[], scores: readonly number[], k: number): number[] =>
  [...docs].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, k);

describe('topDocuments', () => {
  it('gives the best k by score, ties by document number, over few documents and many (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 3000 }), fc.integer({ min: 0, max: 120 }), (scores, k) => {
        const docs = scores.map((_, i) => i).reverse();
        expect(topDocuments(docs, scores, k)).toEqual(sortedBest(docs, scores, k));
      }),
      { numRuns: 150 },
    );
  });
});

describe('bestFirst', () => {
  it('yields every document best first, ties by document number (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (scores) => {
        const docs = scores.map((_, i) => i).reverse();
        expect([...bestFirst(docs, scores)]).toEqual(sortedBest(docs, scores, docs.length));
      }),
    );
  });

  it('yields long lists in order across its stages, ties on their edges included (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 60, maxLength: 3000 }), (scores) => {
        const docs = scores.map((_, i) => i).reverse();
        expect([...bestFirst(docs, scores)]).toEqual(sortedBest(docs, scores, docs.length));
      }),
      { numRuns: 60 },
    );
  });

  it('yields the best `most` in order, in two stages when `most` is small (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 60, maxLength: 3000 }), fc.integer({ min: 1, max: 5000 }), (scores, most) => {
        const docs = scores.map((_, i) => i).reverse();
        expect([...bestFirst(docs, scores, most)]).toEqual(sortedBest(docs, scores, most));
      }),
      { numRuns: 60 },
    );
  });

  it('stops when the caller stops', () => {
    const score = [5, 9, 1, 7];
    const it = bestFirst([0, 1, 2, 3], score);
    expect(it.next().value).toBe(1);
    expect(it.next().value).toBe(3);
  });
});

describe('BestPairs', () => {
  it('drains the best k pairs best first, each with its extra, and empties (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.integer({ min: 1, max: 80 }), (scores, k) => {
        const docs = scores.map((_, i) => i).reverse();
        const heap = new BestPairs(k);
        for (const d of docs) heap.offer(d, scores[d]!, 1000 + d);
        const n = heap.drainSorted();
        const best = sortedBest(docs, scores, k);
        expect(Array.from(heap.docs.subarray(0, n))).toEqual(best);
        expect(Array.from(heap.scores.subarray(0, n))).toEqual(best.map((d) => scores[d]));
        expect(Array.from(heap.extras.subarray(0, n))).toEqual(best.map((d) => 1000 + d));
        expect(heap.full).toBe(false);
      }),
    );
  });
});
