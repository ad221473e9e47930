// A site that answers but is down or in maintenance: every page a 503, or a 503 whose Retry-After asks
// for an hour. Read from each site's own request log on a real crawl: the first is given up for the run
// after maxHostFailures failed requests in a row, the second at its first answer (it is not asked again
// before the time it named), their queued URLs skipped, and a healthy site beside them is crawled whole
// (crawler/politeness.ts hostGiveUp).

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';

const PAGES = 20;
const MAX_HOST_FAILURES = 6;

type Kind = 'down' | 'maintenance' | 'healthy';

describe('sites that answer 503 to every page', () => {
  const servers: Server[] = [];
  const asked = new Map<Kind, string[]>([['down', []], ['maintenance', []], ['healthy', []]]);
  const origins = new Map<Kind, string>();
  const pages = new Map<string, PageRecord>();
  let dir: string;
  let summary: CrawlSummary;

  async function site(kind: Kind): Promise<void> {
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') return void res.writeHead(404).end();
      asked.get(kind)!.push(path);
      if (path === '/') {
        const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${String(i + 1)}">p${String(i + 1)}</a>`).join(' ');
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${kind}</title><p>home of ${kind}</p>${links}`);
      }
      if (kind === 'down') return void res.writeHead(503).end('down');
      if (kind === 'maintenance') return void res.writeHead(503, { 'retry-after': '3600' }).end('back in an hour');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title><p>words of ${kind} ${path}</p>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    origins.set(kind, `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-host-down-'));
    for (const kind of ['down', 'maintenance', 'healthy'] as const) await site(kind);
    summary = await crawl({
      dataDir: dir,
      seeds: [...origins.values()].map((o) => `${o}/`),
      delayMs: 0,
      backoffMs: 20,
      maxBackoffMs: 200,
      maxRetries: 3,
      maxHostFailures: MAX_HOST_FAILURES,
      useSitemaps: false,
    });
    const store = await openStore(dir, { mustExist: true });
    for await (const p of store.pages()) pages.set(p.url, p);
    await store.close();
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const pageRequests = (kind: Kind) => asked.get(kind)!.filter((p) => p !== '/');

  it('gives a site whose pages all fail up after maxHostFailures requests in a row, retries included', () => {
    expect(pageRequests('down')).toHaveLength(MAX_HOST_FAILURES);
    const given = summary.hostsGivenUp.find((h) => h.origin === origins.get('down'));
    expect(given).toMatchObject({ cannotConnect: false, pages: true, failures: MAX_HOST_FAILURES });
    expect(given?.reason).toBe('HTTP 503');
  });

  it('does not ask a site again before the Retry-After it named, when that is longer than the crawl waits', () => {
    expect(pageRequests('maintenance')).toHaveLength(1);
    const given = summary.hostsGivenUp.find((h) => h.origin === origins.get('maintenance'));
    expect(given).toMatchObject({ reason: 'HTTP 503 asking for a wait of 3600 s, longer than the crawl waits (0.2 s)', failures: 1 });
  });

  it('skips the queued URLs of both, and crawls the healthy site beside them whole', () => {
    for (const kind of ['down', 'maintenance'] as const) {
      // The page whose failure gave the site up is stored as an error; every other one is skipped with it.
      const given = summary.hostsGivenUp.find((h) => h.origin === origins.get(kind))!;
      expect(given.urls + 1, kind).toBe(PAGES);
      const errors = [...pages.values()].filter((p) => p.url.startsWith(`${origins.get(kind)!}/p`));
      expect(errors.map((p) => p.state), kind).toEqual(['error']);
    }
    expect(pageRequests('healthy').sort()).toEqual(Array.from({ length: PAGES }, (_, i) => `/p${String(i + 1)}`).sort());
    for (let i = 1; i <= PAGES; i++) expect(pages.get(`${origins.get('healthy')!}/p${String(i)}`)?.state).toBe('ok');
    expect(summary.stoppedBecause).toBe('done');
  });
});

describe('links to a site given up, found after it was given up', () => {
  // A site in maintenance (every page a 503 asking for an hour) is given up at its first answer. A
  // second site, slower to answer, links to it: those links reach the queue after the give-up. They are
  // skipped at once; held by the give-up's backoff, they kept a finished crawl waiting maxBackoffMs
  // (5 minutes by default) only to skip them.
  const MAX_BACKOFF_MS = 30_000;
  const LATE_LINKS = 3;
  const servers: Server[] = [];
  const maintenanceAsked: string[] = [];
  let maintenance: string;
  let dir: string;
  let summary: CrawlSummary;
  let crawlMs: number;

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-late-links-'));
    maintenance = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      maintenanceAsked.push(req.url ?? '/');
      res.writeHead(503, { 'retry-after': '3600' }).end('back in an hour');
    });
    const links = Array.from({ length: LATE_LINKS }, (_, i) => `<a href="${maintenance}/late${String(i)}">late ${String(i)}</a>`).join(' ');
    const slow = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      // Answers after the other site was given up, so its links are found later.
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>slow</title><p>links to a site in maintenance</p>${links}`), 500);
    });
    const started = performance.now();
    summary = await crawl({ dataDir: dir, seeds: [`${maintenance}/`, `${slow}/`], delayMs: 0, backoffMs: 20, maxBackoffMs: MAX_BACKOFF_MS, useSitemaps: false });
    crawlMs = performance.now() - started;
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('skips them without asking the site again', () => {
    expect(maintenanceAsked).toEqual(['/']);
    const given = summary.hostsGivenUp.find((h) => h.origin === maintenance);
    expect(given?.reason).toMatch(/^HTTP 503 asking for a wait of 3600 s/);
    expect(given?.urls).toBe(LATE_LINKS);
    expect(summary.stoppedBecause).toBe('done');
  });

  it('does not wait out the backoff of the site given up to skip them', () => {
    // A bound on behaviour, not a speed: the crawl ends long before the backoff it must not wait.
    expect(crawlMs).toBeLessThan(MAX_BACKOFF_MS / 2);
  });
});
