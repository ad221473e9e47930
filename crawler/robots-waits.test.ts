import { describe, expect, it } from 'vitest';
import { describeGivenUp, describeWait, RobotsWaits } from './robots-waits.js';

const H = 'http://127.0.0.1:1234';
const e503 = { reason: 'HTTP 503', cannotConnect: false };

describe('hosts waiting for their robots.txt', () => {
  it('a failing host waits for its retries, then is given up; the wait is described as the progress line shows it', () => {
    const w = new RobotsWaits({ robotsRetries: 3, robotsBackoffMs: 2000, maxBackoffMs: 60_000 });
    expect(w.failed(H, e503)).toEqual({ giveUp: false, failures: 1, attempts: 4, waitMs: 2000 });
    const step = w.failed(H, e503);
    expect(step).toEqual({ giveUp: false, failures: 2, attempts: 4, waitMs: 4000 });
    if (step.giveUp) throw new Error('unreachable');
    w.waitFor(H, e503, step, 10_000);
    expect(w.waitingHosts.map((x) => describeWait(x, 6_000))).toEqual([`${H} robots.txt HTTP 503, asking again in 4 s (2 of 4)`]);
    expect(w.failed(H, e503).giveUp).toBe(false);
    expect(w.failed(H, e503)).toEqual({ giveUp: true, failures: 4 });
    const gone = w.givenUp(H, e503, 3);
    expect(w.waitingHosts).toEqual([]);
    expect(describeGivenUp(gone)).toBe(`${H}: robots.txt HTTP 503 after 4 tries; whole site disallowed (RFC 9309 2.3.1.4), 3 URLs skipped`);
    expect(w.allGivenUp([H])).toBe(true);
  });
  it('a waiting host keeps its place in the list through its tries: the progress line, showing the first, names it until it is read or given up', () => {
    const w = new RobotsWaits({ robotsRetries: 3, robotsBackoffMs: 2000, maxBackoffMs: 60_000 });
    const other = 'http://127.0.0.1:5678';
    const timedOut = { reason: 'no answer (timed out)', cannotConnect: false };
    const fail = (origin: string, why: typeof e503, retryAt: number): void => {
      const step = w.failed(origin, why);
      if (step.giveUp) throw new Error('given up');
      w.waitFor(origin, why, step, retryAt);
    };
    fail(H, e503, 2_000);
    fail(other, timedOut, 3_000);
    // H's second try fails after the other host's first: which host failed last does not reorder the list.
    fail(H, e503, 6_000);
    expect(w.waitingHosts.map((x) => describeWait(x, 2_000))).toEqual([`${H} robots.txt HTTP 503, asking again in 4 s (2 of 4)`, `${other} robots.txt no answer (timed out), asking again in 1 s (1 of 4)`]);
    w.ok(H);
    fail(H, e503, 8_000);
    expect(w.waitingHosts.map((x) => x.origin)).toEqual([other, H]);
  });
  it('a host that takes no connection is given up at the first failure', () => {
    const w = new RobotsWaits({ robotsRetries: 3, robotsBackoffMs: 2000, maxBackoffMs: 60_000 });
    const refused = { reason: 'connection refused', cannotConnect: true };
    expect(w.failed(H, refused)).toEqual({ giveUp: true, failures: 1 });
    expect(describeGivenUp(w.givenUp(H, refused, 1))).toBe(`${H}: robots.txt connection refused; host cannot be reached, 1 URL skipped`);
  });
  it('a host given up for its pages says why: cannot connect, failures in a row, or a wait asked beyond the crawl\u2019s', () => {
    const w = new RobotsWaits({ robotsRetries: 3, robotsBackoffMs: 2000, maxBackoffMs: 60_000 });
    expect(describeGivenUp(w.givenUpForPages(H, { reason: 'connection refused', cannotConnect: true }, 4, 7))).toBe(`${H}: connection refused on 4 page requests in a row; host cannot be reached, 7 URLs skipped`);
    expect(describeGivenUp(w.givenUpForPages(H, e503, 16, 1))).toBe(`${H}: HTTP 503 on 16 page requests in a row; given up for this run, 1 URL skipped`);
    const asked = { reason: 'HTTP 503 asking for a wait of 3600 s, longer than the crawl waits (300 s)', cannotConnect: false };
    expect(describeGivenUp(w.givenUpForPages(H, asked, 1, 9))).toBe(`${H}: HTTP 503 asking for a wait of 3600 s, longer than the crawl waits (300 s); given up for this run, 9 URLs skipped`);
  });
  it('a success clears the count; allGivenUp needs every origin and at least one', () => {
    const w = new RobotsWaits({ robotsRetries: 1, robotsBackoffMs: 2000, maxBackoffMs: 60_000 });
    w.failed(H, e503);
    w.ok(H);
    expect(w.failed(H, e503).giveUp).toBe(false);
    expect(w.allGivenUp([])).toBe(false);
    w.givenUp('http://a', e503, 1);
    expect(w.allGivenUp(['http://a', H])).toBe(false);
  });
});
