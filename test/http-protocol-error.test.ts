// A server whose answers break HTTP/1.1 beyond what browsers read (a chunk size that is not hex, bytes
// that are not HTTP, a 101 nobody asked for) sends the same bytes on every try: the page is stored as an
// error after its two readings (undici's, then the lenient one of shared/http/lenient-fallback.ts), and a
// robots.txt answered so gives its host up after those two, instead of four tries over 14 s each. What
// browsers do read (a header line without a colon, a 100 Continue nobody asked for) is read.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { rawServer } from './support/raw-server.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-protocol-');

const ok = (type: string, body: string) => `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const OPTIONS = { delayMs: 0, useSitemaps: false, maxRetries: 3, backoffMs: 100, maxBackoffMs: 200 } as const;

describe('answers that break HTTP/1.1', () => {
  let pages: Map<string, PageRecord>;
  let summary: CrawlSummary;
  let site: Awaited<ReturnType<typeof rawServer>>;
  let robotsSite: Awaited<ReturnType<typeof rawServer>>;
  let robotsSummary: CrawlSummary;

  beforeAll(async () => {
    site = await rawServer({
      '/robots.txt': ok('text/plain', 'User-agent: *\nAllow: /\n'),
      '/': ok('text/html', '<title>Home</title><a href="/no-colon.html">a</a> <a href="/bad-chunk.html">b</a> <a href="/not-http.html">c</a> <a href="/fine.html">d</a> <a href="/upgrade.html">e</a> <a href="/continue.html">f</a>'),
      '/no-colon.html': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nThis line has no colon\r\nContent-Length: 2\r\n\r\nhi',
      '/bad-chunk.html': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
      '/not-http.html': 'GARBAGE, NOT HTTP AT ALL\r\n\r\n',
      // Interim answers nobody asked for: undici refuses them with words of its own.
      '/upgrade.html': 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
      '/continue.html': `HTTP/1.1 100 Continue\r\n\r\n${ok('text/html', '<title>After a 100</title>')}`,
      '/fine.html': ok('text/html', '<title>Fine</title><p>An ordinary page.</p>'),
    });
    const data = join(await dirs.make(), 'data');
    summary = await crawl({ dataDir: data, seeds: [`${site.origin}/`], ...OPTIONS });
    const store = await openStore(data, { mustExist: true });
    pages = new Map();
    for await (const p of store.pages()) pages.set(new URL(p.url).pathname, p);
    await store.close();

    robotsSite = await rawServer({ '/robots.txt': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nnot-hex\r\n', '/': ok('text/html', '<title>Never asked</title>') });
    robotsSummary = await crawl({ dataDir: join(await dirs.make(), 'data'), seeds: [`${robotsSite.origin}/`], ...OPTIONS });
  });
  afterAll(async () => {
    await site.close();
    await robotsSite.close();
    await dirs.removeAll();
  });

  it('stores each broken page as an error after its two readings, saying what broke', () => {
    expect(summary.stoppedBecause).toBe('done');
    for (const [path, why] of [['/bad-chunk.html', 'Invalid character in chunk size'], ['/not-http.html', 'Expected HTTP/'], ['/upgrade.html', 'a 101 Switching Protocols']] as const) {
      // Twice until a page of the host needed the lenient reading, once after (the host is remembered).
      expect(site.asked.filter((p) => p === path).length, path).toBeGreaterThanOrEqual(1);
      expect(site.asked.filter((p) => p === path).length, path).toBeLessThanOrEqual(2);
      expect(pages.get(path), path).toMatchObject({ state: 'error' });
      expect(pages.get(path)?.error, path).toContain(`Response does not match the HTTP/1.1 protocol (${why}`);
    }
    expect(pages.get('/fine.html')).toMatchObject({ state: 'ok', title: 'Fine' });
  });

  it('reads what browsers read: a header line without a colon skipped, an unasked 100 Continue passed over', () => {
    expect(pages.get('/no-colon.html')).toMatchObject({ state: 'ok' });
    expect(pages.get('/continue.html')).toMatchObject({ state: 'ok', title: 'After a 100' });
  });

  it('gives up a host whose robots.txt breaks HTTP/1.1 after its two readings, and asks none of its pages', () => {
    expect(robotsSite.asked).toEqual(['/robots.txt', '/robots.txt']);
    expect(robotsSummary.stoppedBecause).toBe('unreachable');
  });
});
