import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_BACKOFF, restartDelayMs } from './workers.js';

describe('restartDelayMs (a serve worker started again)', () => {
  it('replaces a worker that had served at once', () => {
    expect(restartDelayMs(0)).toBe(0);
  });

  it('waits after workers that failed to start, doubling up to the longest wait', () => {
    expect([1, 2, 3, 4].map((n) => restartDelayMs(n))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(restartDelayMs(7)).toBe(DEFAULT_RESTART_BACKOFF.maxMs);
    expect(restartDelayMs(10_000)).toBe(DEFAULT_RESTART_BACKOFF.maxMs);
    expect(restartDelayMs(3, { firstMs: 10, maxMs: 25 })).toBe(25);
  });
});
