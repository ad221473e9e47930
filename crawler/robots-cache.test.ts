// The fetch policy against real HTTP servers on 127.0.0.1 and a real LevelDB store: every case of
// status-cases.jsonl (RFC 9309 section 2.3, and the older crawlers in draft mode), then caching,
// backoff, headers, the per-site override and the debug log.

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../shared/store/index.js';
import { robotsForOrigin } from './robots-cache.js';
import type { RobotsOptions, RobotsMode } from '../shared/robots/index.js';
import { requireResource } from '../test/support/resources.js';
import { refusingPort } from '../test/support/quiet-port.js';

interface Plan {
  status: number;
  /** Redirect hops before the final answer; they alternate between the two servers (two authorities). */
  redirects: number;
  body: string;
  headers: Record<string, string>;
}

const RULES = 'User-agent: *\nDisallow: /private\n';
let plan: Plan;
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
let a: Server;
let b: Server;
let origin: string;
let otherOrigin: string;

function handler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  requests.push({ path: req.url ?? '', headers: req.headers });
  const hop = req.url === '/robots.txt' ? 0 : Number(/^\/hop\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
  if (Number.isNaN(hop)) {
    res.writeHead(404).end();
    return;
  }
  if (hop < plan.redirects) {
    const next = hop + 1;
    res.writeHead(301, { location: `${next % 2 === 1 ? otherOrigin : origin}/hop/${next}` }).end();
    return;
  }
  res.writeHead(plan.status, { 'content-type': 'text/plain', ...plan.headers }).end(plan.body);
}

const listen = async (s: Server) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

let dir: string;
let store: Store;
const NOW = new Date('2026-01-10T12:00:00Z');
const hours = (h: number) => new Date(NOW.getTime() + h * 3600_000);
const logLines: { level: string; msg: string; fields: Record<string, unknown> | undefined }[] = [];
const options = (mode: RobotsMode, extra: Partial<RobotsOptions> = {}): RobotsOptions => ({
  agent: 'Gleaner',
  mode,
  userAgentHeader: 'Gleaner/0.1.0 (+https://example.org/gleaner)',
  timeoutMs: 5_000,
  log: (level, msg, fields) => logLines.push({ level, msg, fields }),
  ...extra,
});

beforeAll(async () => {
  a = createServer(handler);
  b = createServer(handler);
  origin = await listen(a);
  otherOrigin = await listen(b);
});
afterAll(async () => {
  await new Promise((r) => a.close(r));
  await new Promise((r) => b.close(r));
});
beforeEach(async () => {
  plan = { status: 200, redirects: 0, body: RULES, headers: {} };
  requests.length = 0;
  logLines.length = 0;
  dir = await mkdtemp(join(tmpdir(), 'gleaner-robots-'));
  store = await openStore(dir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** An origin nobody listens on: a network error (connection refused), at a port no other test's server takes. */
async function deadOrigin(): Promise<string> {
  return `http://127.0.0.1:${await refusingPort()}`;
}

const DIR = new URL('../../shared/robots/', import.meta.url).pathname;
const present = requireResource('the robots.txt status-cases tests', DIR);

interface StatusCase {
  id: string;
  fetch?: { status?: number; redirects?: number; error?: string; body?: string; unreachable_for_days?: number };
  cache?: { age_hours: number };
  body_bytes?: number;
  url_path?: string;
  expected: string;
  section?: string;
  source: string;
}

function statusCases(): StatusCase[] {
  return readFileSync(join(DIR, 'status-cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as StatusCase);
}

/** Runs one case of status-cases.jsonl; returns what Gleaner did, in the corpus's words. */
async function runCase(c: StatusCase): Promise<string> {
  // Python's robotparser stands for the 1996-era rules: our draft mode.
  const mode: RobotsMode = c.id.startsWith('cpython:') ? 'draft' : 'rfc9309';
  if (c.cache) {
    // A copy cached age_hours ago said "disallow everything"; the server now says RULES.
    await store.putRobots({ origin, fetchedAt: hours(-c.cache.age_hours).toISOString(), expiresAt: hours(24 - c.cache.age_hours).toISOString(), outcome: 'ok', status: 200, body: 'User-agent: *\nDisallow: /\n', failures: 0 });
    const r = await robotsForOrigin(origin, store, options(mode), NOW);
    return !r.fromCache && requests.length === 1 && r.check(`${origin}/public`).allowed ? 'refetch' : 'used stale cache';
  }
  if (c.body_bytes !== undefined) {
    const rule = 'Disallow: /late\n';
    const filler = '# ' + 'x'.repeat(60) + '\n';
    plan.body = 'User-agent: *\n' + filler.repeat(Math.floor((c.body_bytes - 20) / filler.length) - 1) + rule;
    expect(Buffer.byteLength(plan.body)).toBeGreaterThan(c.body_bytes - 100);
    const r = await robotsForOrigin(origin, store, options(mode), NOW);
    return r.check(`${origin}/late`).allowed ? 'rule at the end ignored' : 'parse at least the first 500 KiB';
  }
  let target = origin;
  if (c.fetch?.error !== undefined) target = await deadOrigin();
  plan.status = c.fetch?.status ?? 200;
  plan.redirects = c.fetch?.redirects ?? 0;
  if (c.fetch?.body !== undefined) plan.body = c.fetch.body;
  if (plan.redirects > 0) plan.status = 200; // the redirect chain ends at a robots.txt
  if (c.fetch?.unreachable_for_days !== undefined) {
    // The last good copy is 30 days old; every fetch since has failed.
    await store.putRobots({ origin, fetchedAt: hours(-24 * c.fetch.unreachable_for_days).toISOString(), expiresAt: hours(-1).toISOString(), outcome: 'ok', status: 200, body: RULES, failures: 29 });
  }
  const r = await robotsForOrigin(target, store, options(mode), NOW);
  if (c.url_path !== undefined) return r.check(`${target}${c.url_path}`).allowed ? 'allowed' : 'disallowed';
  const privateOk = r.check(`${target}/private/x`).allowed;
  const publicOk = r.check(`${target}/public`).allowed;
  if (!privateOk && publicOk) {
    if (r.fromCache) return 'cached copy';
    return plan.redirects > 0 && r.origin === target ? 'parse_body_of_redirect_target_in_context_of_initial_authority' : 'parse_body';
  }
  if (privateOk && publicOk) return 'allow_all';
  if (!privateOk && !publicOk) return 'disallow_all';
  return 'inconsistent';
}

describe.skipIf(!present)('status-cases.jsonl: the fetch policy against a local server', () => {
  const cases = present ? statusCases() : [];
  it('the corpus has its cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const c of cases) {
    const name = `${c.section ? `RFC9309 ${c.section}` : c.source}: ${c.id} -> ${c.expected}`;
    it(name, async () => {
      const got = await runCase(c);
      if (c.expected === 'allow_all or cached copy (MAY)') expect(got).toBe('cached copy');
      else if (c.expected === 'allow_all (MAY treat as unavailable)') expect(got).toBe('allow_all');
      else if (c.expected === 'disallow_all (implicit)') expect(got).toBe('disallow_all');
      else if (c.expected === 'parse at least the first 500 KiB') expect(got).toBe(c.expected);
      else if (c.expected === 'parse_body' && c.fetch?.body === '') expect(got).toBe('allow_all');
      else expect(got).toBe(c.expected);
    });
  }
});

describe('RFC9309 2.3.1 fetch outcomes', () => {
  it('2.3.1.2: five redirects across two authorities are followed and the rules apply to the first', async () => {
    plan.redirects = 5;
    const r = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect(r).toMatchObject({ origin, outcome: 'ok' });
    expect(requests.map((q) => q.path)).toEqual(['/robots.txt', '/hop/1', '/hop/2', '/hop/3', '/hop/4', '/hop/5']);
    expect(r.check(`${origin}/private/a`).allowed).toBe(false);
  });
  it('2.3.1.2: a sixth redirect makes robots.txt unavailable', async () => {
    plan.redirects = 6;
    const r = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect(r.outcome).toBe('too-many-redirects');
    expect(r.check(`${origin}/private/a`)).toMatchObject({ allowed: true, rule: null });
    // The store keeps it as unavailable with the redirect's status; read back, it is the same outcome.
    expect(await store.getRobots(origin)).toMatchObject({ outcome: 'unavailable', status: 301 });
    expect(await robotsForOrigin(origin, store, options('rfc9309'), hours(1))).toMatchObject({ outcome: 'too-many-redirects', fromCache: true });
  });
  it('2.3.1.3: a 403 allows all in rfc9309 mode; seed 003: it disallows all in draft mode', async () => {
    plan.status = 403;
    expect((await robotsForOrigin(origin, store, options('rfc9309'), NOW)).check(`${origin}/x`).allowed).toBe(true);
    const draft = await robotsForOrigin(origin, store, options('draft'), NOW);
    expect(draft.outcome).toBe('unavailable');
    expect(draft.check(`${origin}/x`).allowed).toBe(false);
    expect(draft.check(`${origin}/robots.txt`).allowed).toBe(true);
  });
  it('2.3.1.4: a 503 disallows all, and the next attempt waits longer each time', async () => {
    plan.status = 503;
    const first = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect(first).toMatchObject({ outcome: 'unreachable', fromCache: false });
    expect(first.check(`${origin}/x`)).toMatchObject({ allowed: false, reason: expect.stringMatching(/503/) as unknown });
    // Within the backoff the store answers; after it, the server is asked again and the wait doubles.
    const during = await robotsForOrigin(origin, store, options('rfc9309'), new Date(NOW.getTime() + 1000));
    expect(during).toMatchObject({ outcome: 'unreachable', fromCache: true });
    expect(requests).toHaveLength(1);
    const later = new Date(NOW.getTime() + first.retryAfterMs! + 1);
    const second = await robotsForOrigin(origin, store, options('rfc9309'), later);
    expect(requests).toHaveLength(2);
    expect(second.retryAfterMs).toBe(2 * first.retryAfterMs!);
    expect((await store.getRobots(origin))?.failures).toBe(2);
  });
  it('2.3.1.4: the wait follows the caller\'s schedule (a crawl\'s robotsBackoffMs), and the failure says why', async () => {
    plan.status = 503;
    const first = await robotsForOrigin(origin, store, options('rfc9309', { backoffMs: 300, maxBackoffMs: 500 }), NOW);
    expect(first.retryAfterMs).toBe(300);
    expect(first.unreachable).toEqual({ reason: 'HTTP 503', cannotConnect: false });
    const second = await robotsForOrigin(origin, store, options('rfc9309', { backoffMs: 300, maxBackoffMs: 500 }), new Date(NOW.getTime() + 301));
    expect(second.retryAfterMs).toBe(500);
    // A crawl keeps its own schedule: a fresh cached failure is asked again, not answered from the store.
    await robotsForOrigin(origin, store, options('rfc9309', { retryUnreachable: true }), new Date(NOW.getTime() + 302));
    expect(requests).toHaveLength(3);
  });
  it('2.3.1.4: when the server becomes unreachable, the cached copy is obeyed', async () => {
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    plan.status = 500;
    const r = await robotsForOrigin(origin, store, options('rfc9309'), hours(25));
    expect(r).toMatchObject({ outcome: 'ok', fromCache: true });
    expect(r.check(`${origin}/private/x`).allowed).toBe(false);
    expect(r.check(`${origin}/public`).allowed).toBe(true);
  });
  it('2.3.1.4: a cached 404 is not a copy to keep using: a 503 now disallows all', async () => {
    plan.status = 404;
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    plan.status = 503;
    const r = await robotsForOrigin(origin, store, options('rfc9309'), hours(25));
    expect(r).toMatchObject({ outcome: 'unreachable', fromCache: false });
    expect(r.check(`${origin}/public`).allowed).toBe(false);
  });
  it('seed 001 error 6: an HTML page served as robots.txt yields no rules', async () => {
    plan.body = '<!DOCTYPE html><html><head><title>Not found</title></head><body>Disallow: /</body></html>';
    plan.headers = { 'content-type': 'text/html' };
    const r = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect(r.outcome).toBe('ok');
    expect(r.check(`${origin}/private/x`)).toMatchObject({ allowed: true, rule: null });
  });
});

describe('RFC9309 2.4 caching', () => {
  it('a fresh copy is used without a request, and the cache hit is logged', async () => {
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    const again = await robotsForOrigin(origin, store, options('rfc9309'), hours(23));
    expect(again.fromCache).toBe(true);
    expect(requests).toHaveLength(1);
    expect(logLines.some((l) => l.level === 'debug' && l.msg === 'robots.txt cache hit')).toBe(true);
  });
  it('Cache-Control max-age sets the lifetime', async () => {
    plan.headers = { 'cache-control': 'public, max-age=60' };
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect((await store.getRobots(origin))?.expiresAt).toBe(new Date(NOW.getTime() + 60_000).toISOString());
  });
  it('never longer than 24 h in rfc9309 mode, up to 7 days in draft mode', async () => {
    plan.headers = { 'cache-control': 'max-age=2592000' };
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect((await store.getRobots(origin))?.expiresAt).toBe(hours(24).toISOString());
    await robotsForOrigin(origin, store, options('draft', { maxCacheSeconds: 7 * 86400 }), hours(25));
    expect((await store.getRobots(origin))?.expiresAt).toBe(hours(25 + 7 * 24).toISOString());
  });
  it('Expires is read against the response Date', async () => {
    plan.headers = { date: new Date(NOW.getTime()).toUTCString(), expires: hours(2).toUTCString() };
    await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect((await store.getRobots(origin))?.expiresAt).toBe(hours(2).toISOString());
  });
});

describe('the crawler identifies itself and reports its decisions', () => {
  it('sends the User-Agent with version and URL, and From when configured', async () => {
    await robotsForOrigin(origin, store, options('rfc9309', { from: 'crawler@example.org' }), NOW);
    expect(requests[0]!.headers['user-agent']).toBe('Gleaner/0.1.0 (+https://example.org/gleaner)');
    expect(requests[0]!.headers['from']).toBe('crawler@example.org');
  });
  it('Crawl-delay, Host and Sitemap reach the crawler', async () => {
    plan.body = 'User-agent: Gleaner\nCrawl-delay: 2.5\nHost: www.example.org\nDisallow: /x\nSitemap: http://127.0.0.1/s.xml\n';
    const r = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    expect(r).toMatchObject({ agents: ['Gleaner'], crawlDelaySeconds: 2.5, host: 'www.example.org', sitemaps: ['http://127.0.0.1/s.xml'] });
  });
  it('logs the fetch and each verdict with the deciding line at debug level', async () => {
    const r = await robotsForOrigin(origin, store, options('rfc9309'), NOW);
    r.check(`${origin}/private/x`);
    expect(logLines.find((l) => l.msg === 'robots.txt fetched')?.fields).toMatchObject({ origin, outcome: 'ok' });
    expect(logLines.find((l) => l.msg === 'robots.txt blocks')?.fields).toMatchObject({ rule: { type: 'disallow', pattern: '/private', line: 2 } });
  });
  it('respect: never ignores the rules and warns that Gleaner is then a bad robot', async () => {
    const r = await robotsForOrigin(origin, store, options('rfc9309', { respect: 'never' }), NOW);
    expect(r.check(`${origin}/private/x`).allowed).toBe(true);
    expect(logLines.some((l) => l.level === 'warn' && /bad robot/.test(l.msg))).toBe(true);
  });
});
