// Issue 15, "progress that tells the time": the crawl knows how much work it knows of and how long that
// takes. A site whose home page links to 300 pages, crawled at a 1 s delay: the progress reports pages
// known and a time left no shorter than the delay allows; the real CLI says at the start that the crawl
// will be long and how to change it, and its summary breaks the counts down per host.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDirs } from './support/temp-dirs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlProgress } from '../crawler/index.js';
import { BUILT, runCli } from './support/run-cli.js';

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
  it('progress: pages known, and a time left no shorter than the queue at its delay', async () => {
    const seen: CrawlProgress[] = [];
    await crawl(
      { dataDir: await tmp(), seeds: [`${origin}/`], delayMs: 1000, useSitemaps: false, maxPages: 2 },
      { onProgress: (p) => seen.push(p), progressIntervalMs: 50 },
    );
    const afterHome = seen.find((p) => p.pages >= 1 && p.known > LINKS);
    expect(afterHome, 'a progress report once the home page was read').toBeDefined();
    expect(afterHome!.known).toBe(LINKS + 1);
    expect(afterHome!.slowestHost).toMatchObject({ host: origin, delayMs: 1000, delaySource: 'delay' });
    // 299-300 pages left at one a second: at least 299 s, whatever the first pages' rate was.
    expect(afterHome!.secondsLeft).toBeGreaterThanOrEqual(LINKS - 1);
  });

  it.runIf(BUILT)('the CLI warns at the start of a long crawl and sums up per host', async () => {
    const r = await runCli(['crawl', `${origin}/`, '--data', await tmp(), '--delay', '1', '--max-pages', '2', '--no-sitemaps']);
    expect(r.code).toBe(0);
    // 301 links less the pages already taken when the note is made: one or two more on a loaded machine.
    expect(r.stderr).toMatch(new RegExp(`note: (29\\d|30\\d) pages queued for ${origin.replace(/\./g, '\\.')} at one second each is about 5 min; --delay S`));
    expect(r.stdout).toContain('  per host:');
    expect(r.stdout).toMatch(new RegExp(`    ${origin.replace(/\./g, '\\.')}  2 pages, 0 blocked, 0 cut`));
  });
});
