// Issue 12 class 7: the counters are of the crawl, not of the run, and --max-pages is exact.
// - max-pages: never more pages stored than the limit, with 8 pages under way at once; a recrawl fetches
//   stored pages again without counting them against the limit a second time;
// - a crawl stopped midway (AbortSignal) and resumed has the totals of one uninterrupted crawl;
// - a recrawl counts each page once, and its 304 answers as 304 (not as a second 200);
// - kill -9 midway (the real CLI, dist/ built): the resumed crawl's totals are still those of one crawl.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { formatSummary } from '../bin/commands/crawl.js';
import { crawl, type CrawlOptions } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { readCurrentGeneration, readIndexStatsFile } from '../shared/index-format/index.js';
import { openStore, type CrawlStats } from '../shared/store/index.js';
import { startNumberedSite, type NumberedSite } from './sites/numbered-and-traps.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'gleaner-counts-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const FAST: Partial<CrawlOptions> = { delayMs: 0, useSitemaps: false };
const run = (site: NumberedSite, dataDir: string, options: Partial<CrawlOptions> = {}, signal?: AbortSignal, onPages?: (n: number) => void) =>
  crawl({ dataDir, seeds: [`${site.origin}/`], ...FAST, ...options }, { signal, onProgress: onPages && ((p) => onPages(p.pages)), progressIntervalMs: 1 });

async function stored(dataDir: string): Promise<{ pages: number; stats: CrawlStats | undefined }> {
  const store = await openStore(dataDir, { mustExist: true });
  let pages = 0;
  for await (const _p of store.pages()) pages++;
  const stats = await store.getCrawlStats();
  await store.close();
  return { pages, stats };
}

/** What must be equal between one crawl and the same crawl stopped and resumed. */
const totals = (s: CrawlStats) => ({
  pagesByState: s.pagesByState,
  pagesByStatus: s.pagesByStatus,
  trapsCut: s.trapsCut,
  outOfScope: s.outOfScope,
  duplicates: s.duplicates,
  errors: s.errors,
});

describe('--max-pages is exact', () => {
  it('stores exactly 20 pages with 8 under way at once (it stored 27 before), and the next run goes on to exactly 30', async () => {
    const site = await startNumberedSite({ items: 300, perPage: 20 });
    try {
      const dir = await tmp();
      const first = await run(site, dir, { maxPages: 20, concurrency: 8, hostConnections: 8 });
      expect(first.stoppedBecause).toBe('max-pages');
      expect((await stored(dir)).pages).toBe(20);
      expect(first.thisRun.pages).toBe(20);
      const second = await run(site, dir, { maxPages: 30, concurrency: 8, hostConnections: 8 });
      expect((await stored(dir)).pages).toBe(30);
      expect(second.pagesThisRun).toBe(10);
      expect(Object.values(second.stats.pagesByState).reduce((a, b) => a + b, 0)).toBe(30);
    } finally {
      await site.close();
    }
  });

  it('a recrawl fetches every stored page again without counting it against the limit a second time', async () => {
    const site = await startNumberedSite({ items: 300, perPage: 20 });
    try {
      const dir = await tmp();
      await run(site, dir, { maxPages: 20, concurrency: 8, hostConnections: 8 });
      const before = site.requests.length;
      const again = await run(site, dir, { maxPages: 20, concurrency: 8, hostConnections: 8, recrawl: true });
      // Every stored page asked again (robots.txt is cached), none added.
      expect(site.requests.length - before).toBe(20);
      expect(again.thisRun.pages).toBe(20);
      expect((await stored(dir)).pages).toBe(20);
    } finally {
      await site.close();
    }
  });
});

describe('counts of the crawl, not of the run', () => {
  it('stopped midway (AbortSignal) and resumed, the totals equal those of one uninterrupted crawl', async () => {
    const site = await startNumberedSite({ items: 200, perPage: 20 });
    try {
      const whole = await run(site, await tmp());
      const dir = await tmp();
      const controller = new AbortController();
      const first = await run(site, dir, { concurrency: 2 }, controller.signal, (pages) => {
        if (pages >= 60) controller.abort();
      });
      expect(first.stoppedBecause).toBe('aborted');
      const firstPages = first.pagesThisRun;
      expect(firstPages).toBeLessThan(150);
      const second = await run(site, dir);
      expect(second.stoppedBecause).toBe('done');
      expect(totals(second.stats)).toEqual(totals(whole.stats));
      expect(second.stats.outOfScope).toBe(1); // elsewhere.invalid, linked from every page of the catalogue in both runs
      expect(second.stats.requests).toBe(whole.stats.requests);
      // This run's own figures are apart, and add up with the first run's to the whole.
      expect(second.thisRun.pages + firstPages).toBe(whole.thisRun.pages);
      expect((await stored(dir)).stats).toMatchObject(totals(whole.stats));
    } finally {
      await site.close();
    }
  });

  it('a recrawl counts each page once, its 304s as 304, and the summary says which figures are this run’s', async () => {
    const site = await startNumberedSite({ items: 30, perPage: 10 });
    try {
      const dir = await tmp();
      const first = await run(site, dir);
      const okPages = first.stats.pagesByState.ok ?? 0;
      expect(okPages).toBeGreaterThan(30);
      expect(first.stats.pagesByStatus).toEqual({ '200': okPages });
      // A first run is the whole crawl: its counts are said once.
      const firstText = formatSummary(first);
      expect(firstText).toContain(`this run:     ${okPages} pages stored, ${first.stats.requests} requests (the whole crawl so far)`);
      expect(firstText).not.toContain('whole crawl:');
      expect(firstText.match(/by state/g)).toHaveLength(1);
      const again = await run(site, dir, { recrawl: true });
      expect(site.statuses.get(304)).toBe(okPages);
      expect(again.stats.pagesByState).toEqual(first.stats.pagesByState);
      expect(again.stats.pagesByStatus).toEqual({ '304': okPages });
      expect(again.thisRun.pagesByStatus).toEqual({ '304': okPages });
      expect(again.stats.requests).toBe(first.stats.requests * 2);
      const text = formatSummary(again);
      expect(text).toContain(`this run:     ${okPages} pages stored, ${okPages} requests; by state: ok ${okPages}; by status: 304 not modified ${okPages}`);
      expect(text).toContain(`whole crawl:  ${okPages} pages stored, ${okPages * 2} requests (every run so far)`);
    } finally {
      await site.close();
    }
  });
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));

function cliCrawl(site: NumberedSite, dataDir: string, killAfterRequests?: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const args = [join(ROOT, 'bin', 'gleaner'), 'crawl', `${site.origin}/`, '--data', dataDir, '--delay', '0', '--no-sitemaps', '--concurrency', '4'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const start = site.requests.length;
    const timer =
      killAfterRequests === undefined
        ? undefined
        : setInterval(() => {
            if (site.requests.length - start >= killAfterRequests) child.kill('SIGKILL');
          }, 1);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      if (code !== 0 && signal === null) reject(new Error(`crawl exited ${code}: ${stderr}`));
      else resolve(signal);
    });
  });
}

describe.skipIf(!BUILT)('kill -9 midway (real CLI, real LevelDB)', () => {
  it('the resumed crawl has the totals of one uninterrupted crawl, not of its last run', async () => {
    const site = await startNumberedSite({ items: 200, perPage: 20 });
    try {
      const reference = await tmp();
      await cliCrawl(site, reference);
      const whole = (await stored(reference)).stats!;
      const dir = await tmp();
      expect(await cliCrawl(site, dir, 120)).toBe('SIGKILL');
      // Killed: the stats written with the pages count exactly the pages stored (there were none before).
      const killed = await stored(dir);
      expect(killed.pages).toBeGreaterThan(0);
      expect(Object.values(killed.stats?.pagesByState ?? {}).reduce((a, b) => a + b, 0)).toBe(killed.pages);
      expect(await cliCrawl(site, dir)).toBeNull();
      const resumed = (await stored(dir)).stats!;
      expect(totals(resumed)).toEqual(totals(whole));
      // /stats shows what the indexer copied from the store: the whole crawl's totals.
      await buildIndex(dir);
      const served = await readIndexStatsFile((await readCurrentGeneration(dir)).dir);
      expect(totals(served.crawl!)).toEqual(totals(whole));
      // Requests count what was really sent: the pages under way at the kill were asked again.
      expect(resumed.requests).toBeGreaterThanOrEqual(whole.requests);
      expect(resumed.requests).toBeLessThanOrEqual(whole.requests + 4);
    } finally {
      await site.close();
    }
  }, 120_000);
});

if (!BUILT) console.warn('crawl-counts kill -9 test skipped: dist/ is not built (run `npm run build`; `npm test` does)');
