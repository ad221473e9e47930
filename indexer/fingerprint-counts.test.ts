import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FingerprintCounts } from './fingerprint-counts.js';

/** Fingerprints as templates.ts makes them: integers below 2^52, some small, some repeated. */
const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2 ** 52 - 1 }), fc.constantFrom(0, 2 ** 32, 2 ** 52 - 1, 2 ** 32 - 1));
const pages = fc.array(fc.array(key, { maxLength: 60 }), { maxLength: 80 });

/** The counts written the plain way: per key, the pages holding it. */
function reference(pageKeys: readonly number[][]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const keys of pageKeys) for (const k of new Set(keys)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

describe('FingerprintCounts', () => {
  it('counts each key once per page that holds it, through growth from the smallest table (property)', () => {
    fc.assert(
      fc.property(pages, (pageKeys) => {
        const table = new FingerprintCounts(1);
        for (const keys of pageKeys) table.addPage(Float64Array.from(keys));
        const expected = reference(pageKeys);
        expect(table.size).toBe(expected.size);
        for (const [k, c] of expected) expect(table.get(k)).toBe(c);
        // Keys on no page count 0.
        for (const k of [1.5e15 + 7, 3, 2 ** 40]) if (!expected.has(k)) expect(table.get(k)).toBe(0);
      }),
    );
  });

  it('keeps only the keys on at least `min` pages, with their counts', () => {
    fc.assert(
      fc.property(pages, fc.integer({ min: 1, max: 5 }), (pageKeys, min) => {
        const table = new FingerprintCounts();
        for (const keys of pageKeys) table.addPage(Float64Array.from(keys));
        const kept = table.atLeast(min);
        const expected = [...reference(pageKeys)].filter(([, c]) => c >= min);
        expect(kept.size).toBe(expected.length);
        for (const [k, c] of expected) expect(kept.get(k)).toBe(c);
        for (const [k, c] of reference(pageKeys)) if (c < min) expect(kept.get(k)).toBe(0);
      }),
    );
  });

  it('counts a key repeated on one page once, and again on the next page', () => {
    const table = new FingerprintCounts();
    table.addPage(Float64Array.of(2 ** 50, 2 ** 50, 2 ** 50));
    table.addPage(Float64Array.of(2 ** 50));
    expect(table.get(2 ** 50)).toBe(2);
    expect(table.size).toBe(1);
  });
});
