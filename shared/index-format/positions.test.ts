import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodePositions, decodePositionsInto, encodePositions, FIELD_SPAN, fieldOfPosition, hasRun, positionOf } from './positions.js';

describe('word positions', () => {
  it('decode what was encoded, from any offset of a shared buffer', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 5 * FIELD_SPAN - 1 }))), (lists) => {
        const out = { bytes: new Uint8Array(4) };
        const ends: number[] = [];
        let at = 0;
        const sorted = lists.map((l) => [...l].sort((a, b) => a - b));
        for (const l of sorted) ends.push((at = encodePositions(l, out, at)));
        const back: number[] = [];
        sorted.forEach((l, i) => {
          const from = i === 0 ? 0 : ends[i - 1]!;
          decodePositions(out.bytes, from, ends[i]!, back);
          expect(back).toEqual(l);
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

  it('agree with a naive search for runs (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }), { minLength: 1, maxLength: 4 }), (raw) => {
        const lists = raw.map((l) => [...l].sort((a, b) => a - b));
        const naive = lists[0]!.some((p) => lists.every((l, k) => l.includes(p + k)));
        expect(hasRun(lists)).toBe(naive);
      }),
    );
  });
});
