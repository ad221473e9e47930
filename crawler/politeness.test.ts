import { describe, expect, it } from 'vitest';
import { backoffMs, effectiveDelayMs, retryAfterMs } from './politeness.js';

describe('politeness rules', () => {
  it('a robots Crawl-delay larger than our delay wins; a smaller one does not', () => {
    expect(effectiveDelayMs(1000, 5, 60_000)).toEqual({ delayMs: 5000, capped: false });
    expect(effectiveDelayMs(1000, 0.5, 60_000)).toEqual({ delayMs: 1000, capped: false });
    expect(effectiveDelayMs(0, 0.25, 60_000)).toEqual({ delayMs: 250, capped: false });
    expect(effectiveDelayMs(1000, null, 60_000)).toEqual({ delayMs: 1000, capped: false });
  });
  it('a Crawl-delay above the cap is capped and says so', () => {
    expect(effectiveDelayMs(1000, 3600, 60_000)).toEqual({ delayMs: 60_000, capped: true });
  });
  it('Retry-After: delta seconds or an HTTP date; junk is ignored', () => {
    expect(retryAfterMs('120', 0)).toBe(120_000);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
  it('backoff doubles and stops at the maximum', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});
