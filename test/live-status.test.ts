// Issue 15, "a live crawl view": the crawler writes its live status (shared/crawl-status.ts) while it
// runs and when it ends, with per-host figures and errors by reason; a resumed crawl's status has the
// whole crawl's totals (the runs before included); /stats shows it and keeps it current without a
// reload (Chromium).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { tempDirs } from './support/temp-dirs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlOptions, type CrawlProgress } from '../crawler/index.js';
import { formatProgress } from '../bin/commands/crawl.js';
import { buildIndex } from '../indexer/index.js';
import { LIVE_STATUS_HOSTS, readCrawlStatus, type CrawlStatus } from '../shared/crawl-status.js';
import { serve, type RunningServer } from '../web/index.js';
import { hasChromium, launchChromium } from './support/chromium.js';
import { refusingPort } from './support/quiet-port.js';

const SLOW_PAGES = 12;
let server: Server;
let origin = '';
let slowMs = 0;
const temp = tempDirs('gleaner-live-');
const tmp = temp.make;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (path === '/bad') return void res.writeHead(302, { location: 'mailto:nobody@example.org' }).end(); // an error page
    const links = path === '/' ? '<a href="/a">a</a> <a href="/bad">bad</a> <a href="/private/x">x</a> <a href="/slow/0">slow</a>' : '';
    const m = /^\/slow\/(\d+)$/.exec(path);
    const next = m && Number(m[1]) + 1 < SLOW_PAGES ? `<a href="/slow/${Number(m[1]) + 1}">next</a>` : '';
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Page ${path}</title><p>Words of ${path}.</p>${links}${next}`), m ? slowMs : 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await temp.removeAll();
});
const options = (dataDir: string, more: Partial<CrawlOptions> = {}): CrawlOptions =>
  ({ dataDir, seeds: [`${origin}/`], delayMs: 0, useSitemaps: false, statusIntervalMs: 20, ...more }) as CrawlOptions;

describe('the live crawl status', () => {
  it('is written while the crawl runs and when it ends: per host, errors by reason, robots-blocked', async () => {
    slowMs = 60;
    const dataDir = await tmp();
    const seen: CrawlStatus[] = [];
    const watch = setInterval(() => void readCrawlStatus(dataDir).then((s) => s && seen.push(s)), 25);
    await crawl(options(dataDir));
    clearInterval(watch);
    const running = seen.find((s) => s.running && s.pages > 0);
    expect(running, 'a status read while the crawl ran').toBeDefined();
    expect(running!.pid).toBe(process.pid);
    const end = (await readCrawlStatus(dataDir))!;
    expect(end.running).toBe(false);
    // /, /a, the 12 slow pages and /bad (an error page: it redirects to mailto:).
    expect(end.pages).toBe(15);
    expect(end.errorsByReason).toEqual({ 'redirect to an unusable location': 1 });
    expect(end.hosts).toEqual([expect.objectContaining({ origin, pages: 15, errors: 1, queued: 0, inFlight: 0, delayMs: 0, blocked: 1, cut: 0 })]);
    expect(end.hostsTotal).toBe(1);
    expect(end.stats.pagesByState).toMatchObject({ ok: 14, error: 1 });
  });

  it('lists the hosts with the most pages, and counts them all, when a page links to many', async () => {
    // 150 distinct ports that refuse connections, below the ephemeral range: hosts given up at their
    // robots.txt. No other test's `listen(0)` can take one while the crawl asks it (a freed ephemeral
    // port could be, and that test's server would then see this crawl's requests).
    const refusing = new Set<number>();
    while (refusing.size < 150) refusing.add(await refusingPort());
    const dead = [...refusing];
    const links = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Links</title>${dead.map((p) => `<a href="http://127.0.0.1:${p}/">${p}</a>`).join(' ')}`));
    await new Promise<void>((resolve) => links.listen(0, '127.0.0.1', resolve));
    const seed = `http://127.0.0.1:${(links.address() as AddressInfo).port}`;
    try {
      const dataDir = await tmp();
      await crawl({ dataDir, seeds: [`${seed}/`], delayMs: 0, useSitemaps: false, scope: 'any', maxDepth: 1, statusIntervalMs: 20 });
      const end = (await readCrawlStatus(dataDir))!;
      expect(end.hostsTotal).toBe(151);
      expect(end.hosts).toHaveLength(LIVE_STATUS_HOSTS);
      expect(end.hosts[0]).toMatchObject({ origin: seed, pages: 1 });
    } finally {
      links.close();
    }
  });

  it("a recrawl's per-host rate counts the pages it fetches again", async () => {
    // The rate sampled the host's stored pages, which a recrawl re-stores without adding: /stats said
    // 0 pages a minute for a host being recrawled at three a second.
    slowMs = 0;
    const dataDir = await tmp();
    await crawl(options(dataDir));
    slowMs = 60;
    const seen: CrawlStatus[] = [];
    const watch = setInterval(() => void readCrawlStatus(dataDir).then((s) => s && seen.push(s)), 25);
    await crawl(options(dataDir, { recrawl: true }));
    clearInterval(watch);
    const midway = seen.filter((s) => s.running && s.pagesThisRun >= 5);
    expect(midway.length, 'statuses read while the recrawl ran').toBeGreaterThan(0);
    expect(Math.max(...midway.map((s) => s.hosts[0]!.pagesPerMinute))).toBeGreaterThan(0);
  });

  it("a recrawl's known work is the pages it fetches again, each counted once, and its bar starts at none done", async () => {
    // Known was the stored pages plus the queue, which on a recrawl holds those same pages: a 15-page
    // site read "15 of 30 pages [##########----------] 50%" before its first request.
    slowMs = 0;
    const dataDir = await tmp();
    await crawl(options(dataDir));
    slowMs = 30;
    const seen: CrawlProgress[] = [];
    await crawl(options(dataDir, { recrawl: true }), { onProgress: (p) => seen.push(p), progressIntervalMs: 10 });
    expect(seen.length).toBeGreaterThan(2);
    for (const p of seen) expect(p.known).toBe(15);
    const first = seen[0]!;
    expect(formatProgress(first)).toMatch(new RegExp(`^crawl: ${first.pagesThisRun} of 15 pages `));
  });

  it('a resumed crawl has the totals of the whole crawl, errors by reason recounted from the store', async () => {
    slowMs = 0;
    const dataDir = await tmp();
    await crawl(options(dataDir, { maxPages: 5 }));
    const first = (await readCrawlStatus(dataDir))!;
    expect(first.pages).toBe(5);
    await crawl(options(dataDir));
    const whole = (await readCrawlStatus(dataDir))!;
    expect([whole.pages, whole.pagesThisRun, whole.running]).toEqual([15, 10, false]);
    expect(whole.errorsByReason).toEqual({ 'redirect to an unusable location': 1 });
    expect(whole.hosts[0]).toMatchObject({ pages: 15, errors: 1, blocked: 1 });
  });
});

describe.runIf(hasChromium('the live /stats browser test'))('/stats follows a running crawl in Chromium', () => {
  let gateway: RunningServer | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let tab: Page;
  afterAll(async () => {
    // Undefined when the test failed before starting them: its own failure is the one to read.
    await browser?.close();
    await gateway?.close();
  });

  it('the figures change without a reload while a crawl runs, and say when it has ended', async () => {
    const dataDir = await tmp();
    slowMs = 0;
    await crawl(options(dataDir, { maxPages: 2 }));
    await buildIndex(dataDir, { full: true });
    gateway = await serve({ dataDir, port: 0, host: '127.0.0.1' });
    browser = await launchChromium({ width: 1000, height: 800 });
    tab = browser.context.pages()[0] ?? (await browser.context.newPage());
    // The crawl resumes slowly (a page a second, 13 s in all): the page is opened, and sees the figures
    // move, while it runs, however long Chromium takes to start beside the rest of the suite.
    slowMs = 1000;
    const running = crawl(options(dataDir, { statusIntervalMs: 100 }));
    await expect.poll(async () => (await readCrawlStatus(dataDir))?.running, { timeout: 10_000 }).toBe(true);
    await tab.goto(new URL('/stats', gateway.url).href);
    await tab.evaluate('window.__sameDocument = true');
    const pages = tab.locator('[data-live="pages"]');
    const before = Number((await pages.innerText()).replace(/,/g, ''));
    await expect.poll(async () => Number((await pages.innerText()).replace(/,/g, '')), { timeout: 15_000 }).toBeGreaterThan(before);
    expect(await tab.evaluate('window.__sameDocument === true')).toBe(true);
    expect(await tab.locator('[data-live="state"]').innerText()).toBe('is running');
    await running;
    await expect.poll(() => tab.locator('[data-live="state"]').innerText(), { timeout: 20_000 }).toBe('has ended');
    // Said once to a screen reader, from a status line; the figures are not a live region.
    expect(await tab.locator('[role="status"][data-live="announce"]').innerText()).toBe('The crawl has ended.');
    expect(await tab.locator('[data-live="pages"]').innerText()).toBe('15');
    expect(await tab.evaluate('window.__sameDocument === true')).toBe(true);
    expect(await tab.locator('tbody[data-live="errorsByReason"]').innerText()).toMatch(/redirect to an unusable location\s+1/);
  }, 60_000);
});
