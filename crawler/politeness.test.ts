import { describe, expect, it } from 'vitest';
import { effectiveDelayMs, FailureCounts, holdsHost, hostGiveUp, isTransient, retryAfterMs, retryStep, transientFailure } from './politeness.js';

describe('politeness rules', () => {
  it('holds the host for a server in trouble (429, 503, Retry-After, failures in a row), not for one broken URL', () => {
    expect(holdsHost({ kind: 'status', status: 429 }, 1)).toBe(true);
    expect(holdsHost({ kind: 'status', status: 503 }, 1)).toBe(true);
    expect(holdsHost({ kind: 'status', status: 500, retryAfter: '5' }, 1)).toBe(true);
    expect(holdsHost({ kind: 'status', status: 500 }, 1)).toBe(false);
    expect(holdsHost({ kind: 'network-error' }, 1)).toBe(false);
    expect(holdsHost({ kind: 'network-error' }, 2)).toBe(true);
    expect(holdsHost({ kind: 'status', status: 502 }, 3)).toBe(true);
  });

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
    expect(retryAfterMs('Sunday, 22-Nov-26 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    // Date.parse alone reads these as dates (May 2001; 2 January 2001): neither asks for a wait.
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('1/2', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
  it('transient: 429, every 5xx and no answer; other statuses are answers', () => {
    expect([429, 500, 503, 599].map((status) => isTransient({ kind: 'status', status }))).toEqual([true, true, true, true]);
    expect([200, 304, 404, 410, 403].map((status) => isTransient({ kind: 'status', status }))).toEqual([false, false, false, false, false]);
    // Outside HTTP's classes: LinkedIn's 999 means "denied", not "try later".
    expect([600, 999].map((status) => isTransient({ kind: 'status', status }))).toEqual([false, false]);
    expect(isTransient({ kind: 'network-error' })).toBe(true);
    expect(isTransient({ kind: 'body' })).toBe(false);
  });
  it('retry: Retry-After when given (capped), else the backoff; past maxRetries give up with the backoff as the host wait', () => {
    const o = { maxRetries: 2, backoffMs: 1000, maxBackoffMs: 10_000 };
    expect(retryStep(1, { kind: 'network-error' }, 0, o)).toEqual({ retry: true, waitMs: 1000 });
    expect(retryStep(2, { kind: 'status', status: 503 }, 0, o)).toEqual({ retry: true, waitMs: 2000 });
    expect(retryStep(1, { kind: 'status', status: 429, retryAfter: '7' }, 0, o)).toEqual({ retry: true, waitMs: 7000 });
    expect(retryStep(1, { kind: 'status', status: 429, retryAfter: '3600' }, 0, o)).toEqual({ retry: true, waitMs: 10_000 });
    expect(retryStep(3, { kind: 'status', status: 429, retryAfter: '7' }, 0, o)).toEqual({ retry: false, waitMs: 4000 });
  });
  it('a host is given up for a Retry-After longer than the crawl waits, or for maxHostFailures failures in a row', () => {
    const o = { maxHostFailures: 4, maxBackoffMs: 300_000 };
    expect(hostGiveUp({ kind: 'status', status: 503, retryAfter: '3600' }, 1, 0, o)).toEqual({ reason: 'HTTP 503 asking for a wait of 3600 s, longer than the crawl waits (300 s)', failures: 1 });
    expect(hostGiveUp({ kind: 'status', status: 429, retryAfter: new Date(7_200_000).toUTCString() }, 1, 0, o)).toEqual({ reason: 'HTTP 429 asking for a wait of 7200 s, longer than the crawl waits (300 s)', failures: 1 });
    // Long waits in days, and a wait of twenty digits not as a number nobody reads.
    expect(hostGiveUp({ kind: 'status', status: 503, retryAfter: '172800' }, 1, 0, o)?.reason).toBe('HTTP 503 asking for a wait of 2 days, longer than the crawl waits (300 s)');
    expect(hostGiveUp({ kind: 'status', status: 503, retryAfter: '99999999999999999999' }, 1, 0, o)?.reason).toBe('HTTP 503 asking for a wait of more than ten years, longer than the crawl waits (300 s)');
    // A wait the crawl can keep is kept (retryStep), and a Retry-After it cannot read is no wait asked.
    expect(hostGiveUp({ kind: 'status', status: 503, retryAfter: '300' }, 1, 0, o)).toBeUndefined();
    expect(hostGiveUp({ kind: 'status', status: 503, retryAfter: 'soon' }, 1, 0, o)).toBeUndefined();
    expect(hostGiveUp({ kind: 'status', status: 500 }, 3, 0, o)).toBeUndefined();
    expect(hostGiveUp({ kind: 'status', status: 500 }, 4, 0, o)).toEqual({ reason: 'HTTP 500', failures: 4 });
    expect(hostGiveUp({ kind: 'network-error' }, 4, 0, o)).toEqual({ reason: 'no answer', failures: 4 });
  });

  it('failure counts are per key and start again after a success', () => {
    const f = new FailureCounts();
    expect([f.failed('a'), f.failed('a'), f.failed('b')]).toEqual([1, 2, 1]);
    f.forget('a');
    expect([f.count('a'), f.failed('a'), f.count('b')]).toEqual([0, 1, 1]);
  });
  it('a fetch outcome as a transient failure, with its Retry-After; an answer is none', () => {
    const headers = { 'retry-after': '5' };
    expect(transientFailure({ kind: 'status', status: 503, headers, contentType: '' })).toEqual({ kind: 'status', status: 503, retryAfter: '5' });
    expect(transientFailure({ kind: 'network-error', error: 'ECONNRESET' })).toEqual({ kind: 'network-error' });
    // Bytes that break HTTP/1.1 come back the same: not asked again.
    expect(transientFailure({ kind: 'network-error', error: 'HPE_INVALID_HEADER_TOKEN: Response does not match the HTTP/1.1 protocol (Invalid header token)' })).toBeUndefined();
    expect(transientFailure({ kind: 'network-error', error: 'the body is not the Content-Encoding it says (br: Decompression failed)' })).toBeUndefined();
    expect(transientFailure({ kind: 'status', status: 404, headers, contentType: '' })).toBeUndefined();
    expect(transientFailure({ kind: 'not-modified', status: 304, headers })).toBeUndefined();
  });
});
