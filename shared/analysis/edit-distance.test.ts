import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(editDistance('search', 'search', 2)).toBe(0);
    expect(editDistance('serch', 'search', 2)).toBe(1);
    expect(editDistance('saerch', 'search', 2)).toBe(1);
    expect(editDistance('seerch', 'search', 2)).toBe(1);
    expect(editDistance('sarch', 'searches', 2)).toBe(3);
  });
  it('is symmetric and zero only for equal strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b, 20)).toBe(editDistance(b, a, 20));
        expect(editDistance(a, b, 20) === 0).toBe(a === b);
      }),
    );
  });
});

/** The whole table, as editDistance computed it before it kept to the diagonal's band. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('editDistance within a bound', () => {
  it('is the whole table\'s distance, or max + 1 past max (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 14, unit: fc.constantFrom('a', 'b', 'c', '1') }), fc.string({ maxLength: 14, unit: fc.constantFrom('a', 'b', 'c', '1') }), fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(fullDistance(a, b), max + 1));
      }),
      { numRuns: 3000 },
    );
  });
});
