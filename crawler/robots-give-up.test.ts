import { describe, expect, it } from 'vitest';
import { robotsFailureStep } from './robots-give-up.js';

const options = { robotsRetries: 2, robotsBackoffMs: 1000, maxBackoffMs: 3000 };
const e503 = { reason: 'HTTP 503', cannotConnect: false };

describe('when to give up a host whose robots.txt cannot be had', () => {
  it('waits with a doubling backoff (capped) for robotsRetries more tries, then gives up', () => {
    expect([1, 2, 3].map((n) => robotsFailureStep(n, e503, options))).toEqual([
      { giveUp: false, failures: 1, attempts: 3, waitMs: 1000 },
      { giveUp: false, failures: 2, attempts: 3, waitMs: 2000 },
      { giveUp: true, failures: 3 },
    ]);
    expect(robotsFailureStep(3, e503, { ...options, robotsRetries: 5 })).toEqual({ giveUp: false, failures: 3, attempts: 6, waitMs: 3000 });
  });
  it('a host that takes no connection is given up at the first failure', () => {
    expect(robotsFailureStep(1, { reason: 'connection refused', cannotConnect: true }, options)).toEqual({ giveUp: true, failures: 1 });
  });
  it('0 retries: the first failure gives up', () => {
    expect(robotsFailureStep(1, e503, { ...options, robotsRetries: 0 })).toEqual({ giveUp: true, failures: 1 });
  });
});
