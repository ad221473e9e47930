// Issue 15, "progress that tells the time": the crawl knows how much work it knows of and how long that
// takes. A site whose home page links to 300 pages, crawled at a 1 s delay: the progress reports pages
// known and a time left no shorter than the delay allows; the real CLI says at the start that the crawl
// will be long and how to change it, and its summary breaks the counts down per host.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDirs } from './support/temp-dirs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlProgress } from '../crawler/index.js';
import { BUILT, runCli, startCli } from './support/run-cli.js';

const LINKS = 300;
let server: Server;
let origin = '';
const temp = tempDirs('gleaner-progress-');
const tmp = temp.make;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (req.url === '/') {
      const links = Array.from({ length: LINKS }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(' ');
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Home</title><h1>Home</h1>${links}`);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Page ${req.url}</title><p>words of ${req.url}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await temp.removeAll();
});

describe('a crawl tells how much is left and how long it takes', () => {
  /** The first progress report after the home page was read, of a crawl stopped at its second page. */
  async function progressAfterHome(options: Omit<Parameters<typeof crawl>[0], 'dataDir' | 'seeds'>): Promise<CrawlProgress> {
    const seen: CrawlProgress[] = [];
    const stop = new AbortController();
    await crawl(
      { dataDir: await tmp(), seeds: [`${origin}/`], useSitemaps: false, maxPages: 10_000, ...options },
      {
        onProgress: (p) => {
          seen.push(p);
          if (p.pages >= 2) stop.abort();
        },
        progressIntervalMs: 50,
        signal: stop.signal,
      },
    );
    const afterHome = seen.find((p) => p.pages >= 1 && p.known > LINKS);
    expect(afterHome, 'a progress report once the home page was read').toBeDefined();
    return afterHome!;
  }

  it('progress: pages known, and a time left no shorter than the queue at its delay', async () => {
    const afterHome = await progressAfterHome({ delayMs: 1000 });
    expect(afterHome.known).toBe(LINKS + 1);
    expect(afterHome.slowestHost).toMatchObject({ host: origin, delayMs: 1000, delaySource: 'delay' });
    // 299-300 pages left at one a second: at least 299 s, whatever the first pages' rate was.
    expect(afterHome.secondsLeft).toBeGreaterThanOrEqual(LINKS - 1);
  });

  it("progress: a site's own delay (config file sites) is named as that, not as robots.txt's Crawl-delay", async () => {
    const afterHome = await progressAfterHome({ delayMs: 0, siteDelayMs: { [origin]: 2000 } });
    expect(afterHome.slowestHost).toMatchObject({ host: origin, delayMs: 2000, delaySource: 'site-delay' });
  });

  it('progress: the known work stops at --max-pages, and so do the bar and the time left', async () => {
    // --max-pages 5 of a site of 301 pages: the crawl ends at 5, about 4 s at one a second, and the
    // progress line said "1 of 301 pages [--------] 0%, about 5 min left" (and the note "about 5 min").
    const seen: CrawlProgress[] = [];
    await crawl({ dataDir: await tmp(), seeds: [`${origin}/`], delayMs: 1000, useSitemaps: false, maxPages: 5 }, { onProgress: (p) => seen.push(p), progressIntervalMs: 50 });
    const afterHome = seen.find((p) => p.pages >= 1 && p.queued > 5);
    expect(afterHome, 'a progress report with more queued than --max-pages leaves').toBeDefined();
    for (const p of seen) expect(p.known).toBeLessThanOrEqual(5);
    expect(afterHome!.slowestHost).toMatchObject({ host: origin, delayMs: 1000 });
    expect(afterHome!.slowestHost!.queued).toBeLessThanOrEqual(4);
    expect(afterHome!.secondsLeft).toBeLessThanOrEqual(5);
  });

  it.runIf(BUILT)('the CLI warns at the start of a long crawl and sums up per host', async () => {
    const child = startCli(['crawl', `${origin}/`, '--data', await tmp(), '--delay', '1', '--no-sitemaps'], undefined, { detached: true });
    await expect.poll(() => child.output().stderr, { timeout: 20_000 }).toContain('note: ');
    process.kill(-child.pid!, 'SIGINT');
    await child.exited;
    const r = child.output();
    expect(r.code).toBe(130);
    // 301 links less the pages already taken when the note is made: one or two more on a loaded machine.
    expect(r.stderr).toMatch(new RegExp(`note: (29\\d|30\\d) pages queued for ${origin.replace(/\./g, '\\.')} at one second each is about 5 min; --delay S`));
    expect(r.stdout).toContain('  per host:');
    expect(r.stdout).toMatch(new RegExp(`    ${origin.replace(/\./g, '\\.')}  \\d+ pages, 0 blocked, 0 cut`));
  });

  it.runIf(BUILT)('the CLI does not call a crawl long that --max-pages ends in seconds', async () => {
    const r = await runCli(['crawl', `${origin}/`, '--data', await tmp(), '--delay', '1', '--max-pages', '2', '--no-sitemaps']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('note: ');
    expect(r.stdout).toMatch(new RegExp(`    ${origin.replace(/\./g, '\\.')}  2 pages, 0 blocked, 0 cut`));
  });
});
