import { describe, expect, it } from 'vitest';
import { doublingMs } from './timers.js';

describe('doublingMs', () => {
  it('starts at the first wait, doubles at each failure and stops at the maximum', () => {
    expect([1, 2, 3, 4].map((a) => doublingMs(a, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
  it('counts no failure yet as the first, and a run of thousands as the maximum', () => {
    expect(doublingMs(0, 1000, 5000)).toBe(1000);
    expect(doublingMs(10_000, 1000, 5000)).toBe(5000);
    expect(doublingMs(10_000, 0, 5000)).toBe(0);
  });
});
