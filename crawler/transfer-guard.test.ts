// The deadline, the minimum rate and the caller's stop on every kind of request the crawler makes (a page,
// a sitemap, robots.txt), against a body that drips one byte at a time and never ends
// (test/sites/hostile-http.ts). Each ends as a network error saying which limit, within that limit.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../shared/store/index.js';
import { HOSTILE_CASES as C, startHostileHttp, type HostileHttpSite } from '../test/sites/hostile-http.js';
import { fetchOnce, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import { fetchRobots } from '../shared/robots/index.js';
import { robotsForOrigin } from './robots-cache.js';
import { fetchSitemapUrls } from './sitemaps-fetch.js';
import { INTERRUPTED_REASON, type TransferLimits } from '../shared/http/index.js';

/** Slack for timers on a loaded machine; the limits under test are a few seconds. */
const SLACK_MS = 2_500;
const UA = 'Gleaner/0.1.0 (+test)';

let site: HostileHttpSite;
let client: Agent;
beforeAll(async () => {
  site = await startHostileHttp({ dripIntervalMs: 300 });
  // The idle timeouts are far longer than the limits: a drip never trips them, so only the guard can end it.
  client = new Agent({ headersTimeout: 60_000, bodyTimeout: 60_000 });
});
afterAll(async () => {
  await client.destroy();
  await site.close();
});

const page = (path: string, limits: TransferLimits, signal?: AbortSignal): Promise<FetchOutcome> =>
  fetchOnce(client, { url: site.origin + path, headers: { 'user-agent': UA }, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits, signal });

/** How long `work` took, its clock read before it starts: the request's own clocks start in its first,
 * synchronous steps, and a clock read after them (a promise passed in) measured a 1.5 s deadline as
 * 1442 ms when the test process lost its core between the two. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t0 };
}

const DEADLINE: TransferLimits = { requestTimeoutMs: 1_500, minBytesPerSecond: 0, minRateWindowMs: 1_000 };
const MIN_RATE: TransferLimits = { requestTimeoutMs: 60_000, minBytesPerSecond: 50, minRateWindowMs: 1_000 };

describe('a page whose body drips', () => {
  it('ends at the deadline as a network error saying so', async () => {
    const { value, ms } = await timed(() => page(C.drip, DEADLINE));
    // The drip answered 200 before its body stalled: the status and type are kept.
    expect(value).toEqual({ kind: 'network-error', error: 'deadline of 1.5 s exceeded', status: 200, contentType: 'text/html' });
    expect(ms).toBeGreaterThanOrEqual(1_500 - 50);
    expect(ms).toBeLessThan(1_500 + SLACK_MS);
    // The limits leave a quick page alone, on the same client.
    expect(await page('/pages/one.html', DEADLINE)).toMatchObject({ kind: 'body', status: 200, contentType: 'text/html' });
  });

  it('ends after the rate window when slower than the minimum rate', async () => {
    const { value, ms } = await timed(() => page(C.drip, MIN_RATE));
    expect(value).toEqual({ kind: 'network-error', error: 'slower than 50 bytes/s for 1 s', status: 200, contentType: 'text/html' });
    expect(ms).toBeGreaterThanOrEqual(1_000 - 50);
    expect(ms).toBeLessThan(1_000 + SLACK_MS);
  });

  it("ends at once when the caller's signal aborts, saying it was interrupted", async () => {
    const stop = new AbortController();
    const before = site.hits(C.drip).length;
    const poll = setInterval(() => {
      if (site.hits(C.drip).length > before) stop.abort();
    }, 10);
    const { value, ms } = await timed(() => page(C.drip, { ...DEADLINE, requestTimeoutMs: 30_000 }, stop.signal));
    clearInterval(poll);
    // With the answer's status when its headers came first (the page stays queued either way).
    expect(value).toMatchObject({ kind: 'network-error', error: INTERRUPTED_REASON });
    expect(ms).toBeLessThan(SLACK_MS * 2);
  });

  it('an already-aborted signal sends nothing', async () => {
    const before = site.hits(C.drip).length;
    expect(await page(C.drip, DEADLINE, AbortSignal.abort())).toEqual({ kind: 'network-error', error: INTERRUPTED_REASON });
    expect(site.hits(C.drip)).toHaveLength(before);
  });
});

describe('a sitemap whose body drips', () => {
  it('is read as nothing, with the deadline as its error', async () => {
    const { value, ms } = await timed(() => fetchSitemapUrls(client, site.origin + C.dripSitemap, { userAgent: UA, maxBodyBytes: 1 << 20, limits: DEADLINE }));
    expect(value).toEqual({ urls: [], sitemaps: [], error: 'deadline of 1.5 s exceeded' });
    expect(ms).toBeLessThan(1_500 + SLACK_MS);
  });
});

describe('a robots.txt whose body drips', () => {
  it('is a network error at the robots deadline (which covers the body, not only the headers)', async () => {
    const { value, ms } = await timed(() => fetchRobots(site.origin + C.dripRobots, { userAgentHeader: UA, timeoutMs: 1_500 }));
    expect(value).toEqual({ kind: 'network-error', message: 'deadline of 1.5 s exceeded' });
    expect(ms).toBeLessThan(1_500 + SLACK_MS);
  });

  it("is a network error at the crawl's minimum rate", async () => {
    const { value, ms } = await timed(() => fetchRobots(site.origin + C.dripRobots, { userAgentHeader: UA, timeoutMs: 60_000, minRate: MIN_RATE }));
    expect(value).toEqual({ kind: 'network-error', message: 'slower than 50 bytes/s for 1 s' });
    expect(ms).toBeLessThan(1_000 + SLACK_MS);
  });

  it('stopped by the caller, decides nothing and caches nothing (the next run asks again)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-guard-'));
    const store = await openStore(dir);
    try {
      const r = await robotsForOrigin(site.origin, store, { agent: 'Gleaner', mode: 'rfc9309', userAgentHeader: UA, signal: AbortSignal.abort() });
      expect(r.outcome).toBe('unreachable');
      expect(await store.getRobots(site.origin)).toBeUndefined();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
