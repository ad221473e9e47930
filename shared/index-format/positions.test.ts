import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodePositionsInto, encodePositions, FIELD_SPAN, fieldOfPosition, hasEncodedRun, newRunScratch, positionOf } from './positions.js';

/** The lists encoded one after another in one buffer, as positions.bin holds them; hasEncodedRun over them. */
function hasRun(lists: readonly number[][], field = -1, scratch = newRunScratch()): boolean {
  const out = { bytes: new Uint8Array(0) };
  const from: number[] = [];
  const to: number[] = [];
  let at = 3; // not at 0: a list is read from where it starts
  for (const l of lists) {
    from.push(at);
    to.push((at = encodePositions(l, out, at)));
  }
  return hasEncodedRun(lists.map(() => out.bytes), from, to, field, scratch);
}

describe('word positions', () => {
  it('decode what was encoded, from any offset of a shared buffer', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 5 * FIELD_SPAN - 1 }))), (lists) => {
        const out = { bytes: new Uint8Array(4) };
        const ends: number[] = [];
        let at = 0;
        const sorted = lists.map((l) => [...l].sort((a, b) => a - b));
        for (const l of sorted) ends.push((at = encodePositions(l, out, at)));
        sorted.forEach((l, i) => {
          const from = i === 0 ? 0 : ends[i - 1]!;
          const typed = new Int32Array(ends[i]! - from);
          expect([...typed.subarray(0, decodePositionsInto(out.bytes, from, ends[i]!, typed))]).toEqual(l);
        });
      }),
    );
  });

  it('keep a small gap in one byte', () => {
    const out = { bytes: new Uint8Array(0) };
    expect(encodePositions([3, 10, 137], out, 0)).toBe(3);
    expect(encodePositions([300], out, 0)).toBe(2);
  });

  it('name the field a position is in', () => {
    expect(fieldOfPosition(positionOf(2, 12345))).toBe(2);
    expect(fieldOfPosition(positionOf(0, FIELD_SPAN - 1))).toBe(0);
  });

  it('find a run of consecutive positions, and only in the field asked', () => {
    expect(hasRun([[1, 7], [8], [9]])).toBe(true);
    expect(hasRun([[1, 7], [8], [10]])).toBe(false);
    expect(hasRun([[5], [4]])).toBe(false);
    expect(hasRun([[2, 5], [3, 6], [4]])).toBe(true);
    const title = positionOf(0, 4);
    const body = positionOf(2, 4);
    expect(hasRun([[title, body], [title + 1, body + 1]], 2)).toBe(true);
    expect(hasRun([[title], [title + 1]], 2)).toBe(false);
    expect(hasRun([])).toBe(false);
  });

  it('agree with a naive search for runs, in any field or one, whichever list is shortest (property)', () => {
    // One scratch for every case: a check must not depend on what an earlier one left in it.
    const scratch = newRunScratch();
    const place = fc.integer({ min: 0, max: 40 });
    const position = fc.oneof(place, place.map((p) => positionOf(1, p)), place.map((p) => positionOf(2, p)));
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(position, { maxLength: 90 }), { minLength: 1, maxLength: 9 }), fc.integer({ min: -1, max: 2 }), (raw, field) => {
        const lists = raw.map((l) => [...l].sort((a, b) => a - b));
        const naive = lists[0]!.some((p) => (field < 0 || fieldOfPosition(p) === field) && lists.every((l, k) => l.includes(p + k)));
        expect(hasRun(lists, field, scratch)).toBe(naive);
      }),
      { numRuns: 500 },
    );
  });
});
