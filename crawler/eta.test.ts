import { describe, expect, it } from 'vitest';
import { RecentRate, secondsLeft } from './eta.js';

describe('the time a crawl has left', () => {
  it('the rate is over the recent window only, so a slow start fades out', () => {
    const r = new RecentRate(10_000);
    expect(r.sample(0, 0)).toBe(0);
    expect(r.sample(5_000, 5)).toBeCloseTo(1); // 5 pages in 5 s
    expect(r.sample(10_000, 55)).toBeCloseTo(5.5);
    // The window now starts at 5 s: 100 pages in the last 10 s, not 105 in 15 s.
    expect(r.sample(15_000, 105)).toBeCloseTo(10);
  });

  it('the larger of the rate estimate and the delay floor wins', () => {
    expect(secondsLeft(100, 10)).toBe(10);
    // 1,119 pages at one second each: the delay floor (19 min) beats a fast first few pages.
    expect(secondsLeft(1_119, 50, 1_119_000)).toBe(1_119);
    expect(secondsLeft(100, 1, 5_000)).toBe(100);
  });

  it('nothing to go by is unknown, nothing left is zero', () => {
    expect(secondsLeft(10, 0)).toBeUndefined();
    expect(secondsLeft(10, 0, 20_000)).toBe(20);
    expect(secondsLeft(0, 0)).toBe(0);
  });
});
