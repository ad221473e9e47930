// Issue 15, "fresh without a restart": `gleaner serve --recrawl-every` crawls the stored sites again in
// the background with conditional GET, rebuilds the index and serves it, all while answering; the real
// CLI against a site whose news page changes. Unchanged pages answer 304 and are said to be unchanged.

import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../bin/duration.js';
import { BUILT, runCli, startCli } from './support/run-cli.js';
import { tempDirs } from './support/temp-dirs.js';

const temp = tempDirs('gleaner-recrawl-');
let server: Server;
let origin = '';
let news = 'Nothing new yet.';
/** Whether the news page links to the archive: long pages of distinct words, more than a small heap indexes. */
let archive = false;
const ARCHIVE_PAGES = 20;
const archivePage = (i: number): string => Array.from({ length: 60_000 }, (_, w) => `w${(i * 7919 + w * 104729) % 200_000}x`).join(' ');
const conditional: string[] = [];
/** Every request: path and user agent. */
const requests: { path: string; agent: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
    const links = archive ? Array.from({ length: ARCHIVE_PAGES }, (_, i) => `<a href="/archive/${i}">${i}</a>`).join(' ') : '';
    const pages: Record<string, string> = {
      '/': '<title>Home</title><p>Welcome to the quay.</p><a href="/news">news</a> <a href="/about">about</a>',
      '/news': `<title>News</title><p>${news}</p><a href="/">home</a> ${links}`,
      ...(archive ? Object.fromEntries(Array.from({ length: ARCHIVE_PAGES }, (_, i) => [`/archive/${i}`, `<title>Archive ${i}</title><p>${archivePage(i)}</p>`])) : {}),
      '/about': '<title>About</title><p>About the harbour office.</p><a href="/">home</a>',
    };
    const body = pages[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      conditional.push(`${req.url} 304`);
      return void res.writeHead(304, { etag }).end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await temp.removeAll();
});

describe('durations', () => {
  it('as people write them, with a clear error otherwise', () => {
    expect([parseDuration('f', '90s'), parseDuration('f', '30m'), parseDuration('f', '6h'), parseDuration('f', '1d'), parseDuration('f', '2')]).toEqual([90_000, 1_800_000, 21_600_000, 86_400_000, 2000]);
    expect(() => parseDuration('serve: --recrawl-every', 'often')).toThrow('serve: --recrawl-every needs a duration such as 90s, 30m, 6h or 1d (at least 1 s, at most 24d), not "often"');
    expect(() => parseDuration('f', '10ms')).toThrow(/at least 1 s/);
    // Longer than a timer holds: it would fire at once, a recrawl without pause.
    expect(parseDuration('f', '24d')).toBe(24 * 86_400_000);
    expect(() => parseDuration('f', '30d')).toThrow(/at most 24d/);
  });
});

describe.runIf(BUILT)('serve --recrawl-every (real CLI)', () => {
  it('a changed page is searchable without a restart; unchanged pages come back 304', async () => {
    const data = await temp.make();
    expect((await runCli(['crawl', `${origin}/`, '--data', data, '--delay', '0', '--no-sitemaps'])).code).toBe(0);
    expect((await runCli(['index', '--data', data])).code).toBe(0);
    const serve = startCli(['serve', '--data', data, '--port', '0', '--recrawl-every', '1s', '--recrawl-delay', '0']);
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 20_000 }).toMatch(/Gleaner search: (http:\S+)/);
      const url = /Gleaner search: (http:\S+)/.exec(serve.output().stdout)![1]!;
      const hits = async (q: string) => ((await (await fetch(new URL(`/api/search?q=${q}`, url))).json()) as { total: number }).total;
      expect(await hits('lighthouse')).toBe(0);
      news = 'The new lighthouse opens on Monday.';
      await expect.poll(() => hits('lighthouse'), { timeout: 40_000, interval: 500 }).toBe(1);
      // The round that found it asked every page conditionally: two were unchanged.
      // The gateway may serve the new index a moment before the round's line is written.
      await expect.poll(() => serve.output().stdout, { timeout: 10_000 }).toMatch(/recrawl: 3 pages asked again in [\d.]+ s, 2 unchanged \(304\), 1 fetched anew; index rebuilt \(3 documents\), now served/);
      expect(conditional).toEqual(expect.arrayContaining([`/ 304`, `/about 304`]));
    } finally {
      serve.kill('SIGINT');
      // Ctrl-C ends serve promptly, a round under way included.
      expect(await serve.exited, JSON.stringify({ signal: serve.output().signal, stderr: serve.output().stderr.slice(-2000) })).toBe(0);
    }
  }, 90_000);

  it('crawls again under the crawl\'s own settings: what it excluded stays out, its agent is the one asked with', async () => {
    const data = await temp.make();
    requests.length = 0;
    expect((await runCli(['crawl', `${origin}/`, '--data', data, '--delay', '0', '--no-sitemaps', '--exclude', '/about', '--user-agent', 'HarbourBot'])).code).toBe(0);
    const agents = new Set(requests.map((r) => r.agent));
    expect([...agents]).toEqual([expect.stringMatching(/^HarbourBot\b/)]);
    expect((await runCli(['index', '--data', data])).code).toBe(0);
    requests.length = 0;
    const serve = startCli(['serve', '--data', data, '--port', '0', '--recrawl-every', '1s', '--recrawl-delay', '0']);
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 40_000, interval: 500 }).toMatch(/recrawl: 2 pages asked again in [\d.]+ s, .*index rebuilt \(2 documents\), now served/);
    } finally {
      serve.kill('SIGINT');
      expect(await serve.exited, JSON.stringify({ signal: serve.output().signal, stderr: serve.output().stderr.slice(-2000) })).toBe(0);
    }
    // Rounds fell back to the defaults: /about, excluded by the crawl, was fetched and indexed, and the
    // default agent asked.
    const pages = requests.filter((r) => r.path !== '/robots.txt');
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.map((r) => r.path)).not.toContain('/about');
    expect(new Set(requests.map((r) => r.agent))).toEqual(agents);
  }, 90_000);

  it('builds the index in a process of its own: a build that runs out of its heap is one line, and serve goes on with the index it has', async () => {
    const data = await temp.make();
    expect((await runCli(['crawl', `${origin}/`, '--data', data, '--delay', '0', '--no-sitemaps'])).code).toBe(0);
    expect((await runCli(['index', '--data', data])).code).toBe(0);
    // The heap of `gleaner index`, not of serve: serve's own process does not build.
    const serve = startCli(['serve', '--data', data, '--port', '0', '--recrawl-every', '1s', '--recrawl-delay', '0'], undefined, { env: { GLEANER_HEAP_MB: '48' } });
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 20_000 }).toMatch(/Gleaner search: (http:\S+)/);
      const url = /Gleaner search: (http:\S+)/.exec(serve.output().stdout)![1]!;
      const hits = async (q: string) => ((await (await fetch(new URL(`/api/search?q=${q}`, url))).json()) as { total: number }).total;
      archive = true;
      // A crawl, then a build that runs out of its heap: seconds on an idle machine, over 60 s under load.
      await expect.poll(() => serve.output().stdout, { timeout: 120_000, interval: 500 }).toMatch(/recrawl failed: /);
      expect(serve.output().stdout).toMatch(
        /recrawl failed: gleaner index: out of memory: the build needed more than its 48 MiB of heap \(or the machine ran out\); the index in place is unchanged\. Give it more with GLEANER_HEAP_MB=MiB, or index on a machine with more memory; trying again in 1 s\n/,
      );
      // No V8 report, no stack: the one line.
      expect(serve.output().stdout + serve.output().stderr).not.toMatch(/Last few GCs|FATAL ERROR|    at /);
      // Still serving, from the index it had.
      expect(await hits('quay')).toBe(1);
      expect(await hits('w0x')).toBe(0);
    } finally {
      archive = false;
      serve.kill('SIGINT');
      expect(await serve.exited, JSON.stringify({ signal: serve.output().signal, stderr: serve.output().stderr.slice(-2000) })).toBe(0);
    }
  }, 180_000);
});
