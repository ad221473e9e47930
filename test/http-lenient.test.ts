// Servers whose answers browsers, curl and wget read but undici's strict parser refuses (bare LF line
// ends, a space before a colon, folded headers, a control byte in a value, the same Content-Length
// twice, Transfer-Encoding beside Content-Length, chunk lines ended by a bare LF) are crawled as a
// browser reads them (shared/http/lenient-fallback.ts): their robots.txt is obeyed, their pages are
// stored, and once one answer of a host needed the lenient reading its other pages take one request
// each. The lenient reading is bounded as every request is: the deadline and Ctrl-C end it.

import { createServer as createTlsServer } from 'node:tls';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { forgetLenientOrigins, lenientRequest, readBody } from '../shared/http/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { rawServer, type RawAnswer } from './support/raw-server.js';
import { tempDirs } from './support/temp-dirs.js';
import { TEST_CERT_PEM, TEST_KEY_PEM } from './support/tls-fixture.js';

const dirs = tempDirs('gleaner-lenient-');

const page = (title: string) => `<title>${title}</title><p>Words of ${title.toLowerCase()}.</p>`;
const bareLf = (head: string, body: string | Buffer) => Buffer.concat([Buffer.from(head.replaceAll('\r\n', '\n'), 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
const gz = gzipSync(page('Gzip with bare LF'));

const ANSWERS: Record<string, RawAnswer> = {
  '/robots.txt': bareLf('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 38\r\n\r\n', 'User-agent: *\nDisallow: /private.html\n'),
  '/': bareLf(
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n',
    '<title>Home</title>' + ['space-colon', 'fold', 'control', 'two-lengths', 'te-and-length', 'chunked-lf', 'gzip', 'leading-crlf', 'no-status-line', 'private'].map((p) => `<a href="/${p}.html">${p}</a>`).join(' '),
  ),
  '/space-colon.html': `HTTP/1.1 200 OK\r\nContent-Type : text/html\r\nContent-Length: ${page('Space before colon').length}\r\n\r\n${page('Space before colon')}`,
  '/fold.html': `HTTP/1.1 200 OK\r\nContent-Type: text/html;\r\n charset=utf-8\r\nContent-Length: ${page('Folded').length}\r\n\r\n${page('Folded')}`,
  '/control.html': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Note: a\x01b\r\nContent-Length: ${page('Control byte').length}\r\n\r\n${page('Control byte')}`,
  '/two-lengths.html': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page('Two lengths').length}\r\nContent-Length: ${page('Two lengths').length}\r\n\r\n${page('Two lengths')}`,
  '/te-and-length.html': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n${page('Both framings').length.toString(16)}\r\n${page('Both framings')}\r\n0\r\n\r\n`,
  '/chunked-lf.html': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n${page('Chunked LF').length.toString(16)}\n${page('Chunked LF')}\n0\n\n`,
  '/gzip.html': bareLf(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: ${gz.length}\r\n\r\n`, gz),
  // Empty lines before the status line: llhttp skips them, and so must the lenient reader.
  '/leading-crlf.html': `\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page('Leading empty lines').length}\r\n\r\n${page('Leading empty lines')}`,
  // A body with no head at all (HTTP/0.9), then close: refused as not HTTP, once, not retried as a
  // connection closed early.
  '/no-status-line.html': page('No status line'),
  '/private.html': bareLf('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n', page('Private')),
};

describe('answers browsers read and undici refuses', () => {
  let site: Awaited<ReturnType<typeof rawServer>>;
  let summary: CrawlSummary;
  const pages = new Map<string, PageRecord>();

  beforeAll(async () => {
    forgetLenientOrigins();
    site = await rawServer(ANSWERS);
    const data = join(await dirs.make(), 'data');
    summary = await crawl({ dataDir: data, seeds: [`${site.origin}/`], delayMs: 0, useSitemaps: false, maxRetries: 3, backoffMs: 100, maxBackoffMs: 200 });
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) pages.set(new URL(p.url).pathname, p);
    await store.close();
  });
  afterAll(async () => {
    await site.close();
    await dirs.removeAll();
  });

  it('obeys a robots.txt whose lines end in a bare LF', () => {
    expect(summary.stoppedBecause).toBe('done');
    expect(site.asked).not.toContain('/private.html');
  });

  it('stores each page as a browser shows it', () => {
    const titles = Object.fromEntries([...pages].filter(([, p]) => p.state === 'ok').map(([path, p]) => [path, p.title]));
    expect(titles).toEqual({
      '/': 'Home',
      '/space-colon.html': 'Space before colon',
      '/fold.html': 'Folded',
      '/control.html': 'Control byte',
      '/two-lengths.html': 'Two lengths',
      '/te-and-length.html': 'Both framings',
      '/chunked-lf.html': 'Chunked LF',
      '/gzip.html': 'Gzip with bare LF',
      '/leading-crlf.html': 'Leading empty lines',
    });
  });

  it('refuses an answer with no status line as not HTTP, as undici does', () => {
    const refused = pages.get('/no-status-line.html');
    expect(refused?.state).toBe('error');
    expect(refused?.error).toContain('Expected HTTP/');
  });

  it('asks twice only until the host is known to need the lenient reading, then once a page', () => {
    // robots.txt is the host's first answer: undici's reading, then the lenient one; every later
    // request goes straight to the lenient reader.
    expect(site.asked.slice(0, 2)).toEqual(['/robots.txt', '/robots.txt']);
    const later = site.asked.slice(2);
    expect(later.length).toBe(new Set(later).size);
    expect(new Set(later)).toEqual(new Set(Object.keys(ANSWERS).filter((p) => p !== '/robots.txt' && p !== '/private.html')));
  });
});

describe('the lenient reading is bounded', () => {
  let site: Awaited<ReturnType<typeof rawServer>>;
  beforeAll(async () => {
    site = await rawServer({
      // A bare-LF head whose body then stops coming.
      '/stalls': (socket) => socket.write('HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: 100\n\nhalf'),
      // A head that never ends.
      '/endless-head': (socket) => {
        socket.write('HTTP/1.1 200 OK\n');
        const line = `X-Filler: ${'x'.repeat(1000)}\n`;
        const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(line.repeat(64))), 1);
      },
      '/short': 'HTTP/1.1 200 OK\nContent-Length: 100\n\ncut short',
    });
  });
  afterAll(() => site.close());

  it('ends a stalled body when the signal fires (the deadline, Ctrl-C), with its reason', async () => {
    const stop = new AbortController();
    const res = await lenientRequest(`${site.origin}/stalls`, { headers: {}, signal: stop.signal });
    expect(res.statusCode).toBe(200);
    setTimeout(() => stop.abort(new Error('deadline of 0.2 s exceeded')), 200);
    await expect(readBody(res.body, { maxBytes: 1000 })).rejects.toThrow('deadline of 0.2 s exceeded');
  });

  it('refuses a head larger than a browser reads', async () => {
    await expect(lenientRequest(`${site.origin}/endless-head`, { headers: {}, signal: new AbortController().signal, maxHeaderBytes: 64 * 1024 })).rejects.toThrow('headers larger than a browser reads');
  });

  it('fails a body that ends before its Content-Length', async () => {
    const res = await lenientRequest(`${site.origin}/short`, { headers: {}, signal: new AbortController().signal });
    await expect(readBody(res.body, { maxBytes: 1000 })).rejects.toThrow('91 bytes before its Content-Length');
  });

  it('never writes a header value holding a line end (a stored ETag read back leniently), so no header is smuggled in', async () => {
    const heads: string[] = [];
    const seen = createNetServer((socket) => {
      socket.on('data', (d) => {
        heads.push(d.toString('latin1'));
        socket.end('HTTP/1.1 204 No Content\n\n');
      });
    });
    await new Promise<void>((resolve) => seen.listen(0, '127.0.0.1', resolve));
    try {
      const res = await lenientRequest(`http://127.0.0.1:${(seen.address() as AddressInfo).port}/x`, { headers: { 'if-none-match': '"a"\rX-Injected: 1', accept: 'text/html' }, signal: new AbortController().signal });
      expect(res.statusCode).toBe(204);
      expect(heads.join('')).toContain('accept: text/html\r\n');
      expect(heads.join('')).not.toContain('X-Injected');
    } finally {
      await new Promise<void>((resolve) => seen.close(() => resolve()));
    }
  });

  it('fails at once when the signal has already fired', async () => {
    const stop = new AbortController();
    stop.abort(new Error('interrupted'));
    await expect(lenientRequest(`${site.origin}/short`, { headers: {}, signal: stop.signal })).rejects.toThrow('interrupted');
  });
});

describe('the lenient reading over https', () => {
  let origin: string;
  let server: ReturnType<typeof createTlsServer>;
  beforeAll(async () => {
    server = createTlsServer({ cert: TEST_CERT_PEM, key: TEST_KEY_PEM }, (socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 6\n\nsecure'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a bare-LF answer over TLS from a server whose certificate is trusted', async () => {
    const res = await lenientRequest(`${origin}/`, { headers: {}, signal: new AbortController().signal, ca: TEST_CERT_PEM });
    expect(res.statusCode).toBe(200);
    expect(Buffer.from((await readBody(res.body, { maxBytes: 100 })).body).toString()).toBe('secure');
  });

  it('verifies certificates as undici does: a self-signed one is refused', async () => {
    await expect(lenientRequest(`${origin}/`, { headers: {}, signal: new AbortController().signal })).rejects.toThrow(/self[- ]signed/);
  });
});
