import { describe, expect, it } from 'vitest';
import { deadlineReason, RateMeter, slowReason } from './transfer-limits.js';

const LIMITS = { minBytesPerSecond: 100, minRateWindowMs: 10_000 };

describe('RateMeter (curl --speed-limit/--speed-time over a sliding window)', () => {
  it('judges nothing before the body started or within the first window (the grace period)', () => {
    const m = new RateMeter(LIMITS);
    expect(m.tooSlow(50_000)).toBe(false);
    m.start(1_000);
    expect(m.tooSlow(1_000)).toBe(false);
    expect(m.tooSlow(10_999)).toBe(false);
    expect(m.tooSlow(11_000)).toBe(true);
  });

  it('a drip of one byte a second is too slow once the window has passed', () => {
    const m = new RateMeter(LIMITS);
    m.start(0);
    for (let t = 0; t <= 30_000; t += 1_000) m.add(1, t);
    expect(m.tooSlow(30_000)).toBe(true);
  });

  it('a steady stream at the minimum rate is not too slow at any moment', () => {
    const m = new RateMeter(LIMITS);
    m.start(0);
    for (let t = 0; t <= 60_000; t += 100) {
      m.add(10, t); // 100 bytes/s
      expect(m.tooSlow(t), `at ${t} ms`).toBe(false);
    }
  });

  it('a burst then silence: too slow once the burst has left the window', () => {
    const m = new RateMeter(LIMITS);
    m.start(0);
    m.add(100_000, 5_000);
    expect(m.tooSlow(12_000)).toBe(false);
    expect(m.tooSlow(14_500)).toBe(false);
    expect(m.tooSlow(16_000)).toBe(true);
  });

  it('a fast start does not excuse a stall later: only the last window counts', () => {
    const m = new RateMeter(LIMITS);
    m.start(0);
    for (let t = 0; t < 20_000; t += 100) m.add(1_000, t);
    for (let t = 20_000; t <= 40_000; t += 1_000) m.add(1, t);
    expect(m.tooSlow(25_000)).toBe(false);
    expect(m.tooSlow(31_000)).toBe(true);
  });

  it('0 bytes/s, or a window of 0, turns the check off', () => {
    for (const limits of [{ minBytesPerSecond: 0, minRateWindowMs: 1_000 }, { minBytesPerSecond: 100, minRateWindowMs: 0 }]) {
      const m = new RateMeter(limits);
      m.start(0);
      expect(m.tooSlow(1_000_000)).toBe(false);
    }
  });

  it('forgets buckets that left the window', () => {
    const m = new RateMeter(LIMITS);
    m.start(0);
    for (let t = 0; t < 100_000; t += 50) m.add(1, t);
    expect(m.recent(100_000).bytes).toBeLessThanOrEqual(200);
    expect(m.recent(100_000).spanMs).toBeGreaterThanOrEqual(9_000);
    expect(m.recent(100_000).spanMs).toBeLessThanOrEqual(10_000);
  });
});

describe('reasons', () => {
  it('say which limit in seconds and bytes per second', () => {
    expect(deadlineReason({ requestTimeoutMs: 60_000 })).toBe('deadline of 60 s exceeded');
    expect(deadlineReason({ requestTimeoutMs: 2_500 })).toBe('deadline of 2.5 s exceeded');
    expect(slowReason({ minBytesPerSecond: 1024, minRateWindowMs: 10_000 })).toBe('slower than 1024 bytes/s for 10 s');
  });
});
