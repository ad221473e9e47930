// A few broken URLs on a healthy site must not hold the site (politeness.ts holdsHost): a transient
// failure alone sends its URL back to the queue while the host keeps its usual delay; failures in a row
// hold the host for the backoff. Read from the site's own request log, on a real crawl.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore } from '../shared/store/index.js';
import { listenBelowEphemeral } from './support/quiet-port.js';

const BACKOFF_MS = 3000;
const page = (links: string[]) => `<!doctype html><title>t</title><p>words</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`;

describe('retries on a healthy site with broken URLs', () => {
  let server: Server;
  let dir: string;
  const log: { path: string; atMs: number }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-retry-host-'));
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      log.push({ path, atMs: performance.now() });
      if (path === '/robots.txt') return void res.writeHead(404).end();
      // Two broken URLs side by side, then good pages: in that order in the host's queue.
      if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(['/broken1', '/broken2', '/p1', '/p2', '/p3']));
      if (path.startsWith('/broken')) return void res.writeHead(500).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page([]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await crawl({ dataDir: dir, seeds: [url], delayMs: 0, backoffMs: BACKOFF_MS, maxBackoffMs: BACKOFF_MS, maxRetries: 1 });
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  /** Milliseconds from the request to `path` (its `nth` one) to the host's next request. */
  const gapAfter = (path: string, nth = 0): number => {
    const i = log.map((r, k) => (r.path === path ? k : -1)).filter((k) => k >= 0)[nth]!;
    return log[i + 1]!.atMs - log[i]!.atMs;
  };

  it('asks the next URL at the usual delay after one failure alone', () => {
    const pages = log.map((r) => r.path).filter((p) => p !== '/robots.txt' && p !== '/sitemap.xml');
    expect(pages).toEqual(['/', '/broken1', '/broken2', '/p1', '/p2', '/p3', '/broken1', '/broken2']);
    expect(gapAfter('/broken1')).toBeLessThan(BACKOFF_MS / 2);
  });

  it('holds the host for the backoff after failures in a row', () => {
    expect(gapAfter('/broken2')).toBeGreaterThanOrEqual(BACKOFF_MS - 2);
  });

  it('still asks each broken URL again, and only as often as maxRetries allows', () => {
    expect(log.filter((r) => r.path === '/broken1')).toHaveLength(2);
    expect(log.filter((r) => r.path === '/broken2')).toHaveLength(2);
    expect(log.filter((r) => r.path === '/p1')).toHaveLength(1);
  });
});

describe('retries on a healthy site with broken URLs beside links to deeper pages', () => {
  // The broken URLs' retries, back at their depth, came before every deeper URL of the site, one after
  // another: failures in a row, which gave the site up with its deeper pages unasked. A retry now waits
  // behind every URL its host has queued (crawler/scheduler.ts RETRIES).
  const BROKEN = 4;
  let server: Server;
  let dir: string;
  const asked: string[] = [];
  const deep = Array.from({ length: BROKEN }, (_, i) => [`/d${String(i)}a`, `/d${String(i)}b`]).flat();
  const stored = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-retry-deep-'));
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') return void res.writeHead(404).end();
      asked.push(path);
      // Home: a broken URL, then a good page linking two deeper ones, BROKEN times.
      if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(Array.from({ length: BROKEN }, (_, i) => [`/b${String(i)}`, `/g${String(i)}`]).flat()));
      if (path.startsWith('/b')) return void res.writeHead(500).end();
      if (path.startsWith('/g')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page([`/d${path.slice(2)}a`, `/d${path.slice(2)}b`]));
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title><p>words of ${path}</p>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    // As many failures in a row as broken URLs give the site up: their retries in a row would.
    await crawl({ dataDir: dir, seeds: [`${origin}/`], delayMs: 0, backoffMs: 20, maxBackoffMs: 40, maxRetries: 2, maxHostFailures: BROKEN, useSitemaps: false });
    const store = await openStore(dir, { mustExist: true });
    for await (const p of store.pages()) stored.set(new URL(p.url).pathname, p.state);
    await store.close();
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('asks every deeper page, and stores it, before any broken URL is asked again', () => {
    for (const d of deep) expect(stored.get(d), d).toBe('ok');
    const lastDeep = Math.max(...deep.map((d) => asked.indexOf(d)));
    const firstRetry = asked.findIndex((p, i) => p.startsWith('/b') && asked.indexOf(p) < i);
    expect(firstRetry).toBeGreaterThan(lastDeep);
  });

  it('still asks the broken URLs again', () => {
    expect(asked.filter((p) => p === '/b0').length).toBeGreaterThan(1);
  });
});

describe('a host that goes away mid-crawl', () => {
  let server: Server;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-host-gone-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is given up after its page requests fail to connect a few times in a row, not each URL retried', async () => {
    const links = Array.from({ length: 30 }, (_, i) => `/p${i}`);
    server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url !== '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page([]));
      // The home page, then the server is gone: every later connection is refused.
      res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(page(links), () => {
        server.close();
        server.closeAllConnections();
      });
    });
    // Below the ephemeral range, so no other test's server takes the port once this one is gone.
    const origin = `http://127.0.0.1:${await listenBelowEphemeral(server)}`;
    const summary = await crawl({ dataDir: dir, seeds: [`${origin}/`], delayMs: 0, backoffMs: 20, maxBackoffMs: 40, maxRetries: 3, useSitemaps: false });
    expect(summary.hostsGivenUp).toEqual([{ origin, reason: 'connection refused', failures: 4, cannotConnect: true, urls: expect.any(Number) as number, pages: true }]);
    // The home page and the one page whose request failed last are stored; the other URLs are skipped.
    expect(summary.stats.pagesByState).toEqual({ ok: 1, error: 1 });
    expect(summary.hostsGivenUp[0]!.urls).toBe(links.length - 1);
  }, 60_000);

  it('counts only failures to connect: answers before the server went away (503s) do not hasten the give-up', async () => {
    const gone = await mkdtemp(join(tmpdir(), 'gleaner-host-gone-'));
    let unavailable = 0;
    const busy = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(['/q0', '/q1', '/q2', '/q3', '/q4', '/q5']));
      // Three 503s, then the server is gone.
      res.writeHead(503, { connection: 'close' }).end('busy', () => {
        if (++unavailable < 3) return;
        busy.close();
        busy.closeAllConnections();
      });
    });
    const origin = `http://127.0.0.1:${await listenBelowEphemeral(busy)}`;
    const retries: string[] = [];
    try {
      const summary = await crawl(
        { dataDir: gone, seeds: [`${origin}/`], delayMs: 0, backoffMs: 20, maxBackoffMs: 40, maxRetries: 5, useSitemaps: false },
        {
          log: (_level, msg, fields) => {
            if (msg === 'will retry') retries.push(String(fields?.reason));
          },
        },
      );
      expect(summary.hostsGivenUp).toMatchObject([{ origin, reason: 'connection refused', failures: 4, pages: true }]);
      // The three 503s, then three refused connections retried, before the fourth gives the host up.
      expect(retries.filter((r) => r === 'HTTP 503')).toHaveLength(3);
      expect(retries.filter((r) => /ECONNREFUSED|refused/i.test(r))).toHaveLength(3);
    } finally {
      await rm(gone, { recursive: true, force: true });
    }
  }, 60_000);
});
