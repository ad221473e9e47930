// A common word's scores worked out posting by posting as a query reaches them, and whole once
// enough of them were asked for: the same numbers either way.

import { describe, expect, it } from 'vitest';
import { PostingScores } from './precompute.js';

describe('PostingScores', () => {
  it('scores postings one by one, then the whole list once half of it was asked for, with the same numbers', () => {
    const docs = Uint32Array.from({ length: 10 }, (_, i) => 3 * i);
    const score = (p: number) => Math.fround(1 / (p + 3));
    let ones = 0;
    let alls = 0;
    const scores = new PostingScores(
      docs,
      (p) => (ones++, score(p)),
      () => (alls++, Float32Array.from(docs, (_, p) => score(p))),
    );
    for (const p of [7, 2, 9, 0, 4]) expect(scores.at(p)).toBe(score(p));
    expect([ones, alls]).toEqual([5, 0]);
    // The sixth of ten: the list is worked out whole, and every later posting read from it.
    expect(scores.at(5)).toBe(score(5));
    expect([ones, alls]).toEqual([5, 1]);
    for (let p = 0; p < docs.length; p++) expect(scores.at(p)).toBe(score(p));
    expect(scores.complete()).toBe(scores.complete());
    expect([ones, alls]).toEqual([5, 1]);
  });

  it('works out the whole at once when a walk asks for it', () => {
    let alls = 0;
    const scores = new PostingScores(Uint32Array.of(1, 2), () => 0.5, () => (alls++, Float32Array.of(0.5, 0.25)));
    expect([...scores.complete()]).toEqual([0.5, 0.25]);
    expect(scores.at(1)).toBe(0.25);
    expect(alls).toBe(1);
  });
});
