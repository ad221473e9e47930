// fetchOnce against ordinary files served whole with their headers (test/sites/hostile-http.ts): the
// bodies it throws away must never surface as an error nobody listens to (issue 12, class 1: that killed
// the crawl once per image, favicon, feed or PDF link), and a repeated Content-Type is decided as
// browsers decide it.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTILE_CASES as C, startHostileHttp, type HostileHttpSite } from '../test/sites/hostile-http.js';
import { fetchOnce, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import { httpProtocolError } from '../shared/http/index.js';
import { refusingPort } from '../test/support/quiet-port.js';

let site: HostileHttpSite;
let client: Agent;
const uncaught: unknown[] = [];
const record = (e: unknown): void => {
  uncaught.push(e);
};

beforeAll(async () => {
  site = await startHostileHttp({ bigGzipBytes: 1024 * 1024 });
  client = new Agent({ connections: 1 });
});
afterAll(async () => {
  await client.close();
  await site.close();
});
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', record);
});
afterEach(() => {
  process.off('uncaughtException', record);
});

const LIMITS = { requestTimeoutMs: 10_000, minBytesPerSecond: 0, minRateWindowMs: 1_000 };
const get = (path: string, maxBodyBytes = 1 << 20): Promise<FetchOutcome> =>
  fetchOnce(client, { url: site.origin + path, headers: {}, maxBodyBytes, wantedTypes: PAGE_TYPES, limits: LIMITS });
/** Long enough for an abort error emitted after fetchOnce returned to reach the process. */
const settle = () => new Promise((r) => setTimeout(r, 50));
/** No error escaped the requests of the test, once any could have. */
async function expectNothingEscaped(): Promise<void> {
  await settle();
  expect(uncaught).toEqual([]);
}

describe('fetchOnce and bodies it does not want', () => {
  it('small files sent whole with the headers: unwanted-type, and no error escapes', async () => {
    for (const [path, type] of Object.entries(C.binaries)) {
      expect(await get(path), path).toMatchObject({ kind: 'unwanted-type', status: 200, contentType: type });
    }
    await expectNothingEscaped();
  });

  it('the connection is still good afterwards: the next page on it is read whole', async () => {
    await get('/files/logo.png');
    expect(await get('/pages/one.html')).toMatchObject({ kind: 'body', status: 200, contentType: 'text/html', truncated: false });
    await expectNothingEscaped();
  });

  it('a repeated Content-Type is decided by its last valid value', async () => {
    const html = await get(C.typeClash.htmlLast);
    expect(html).toMatchObject({ kind: 'body', contentType: 'text/html' });
    expect(Buffer.from((html as { body: Uint8Array }).body).toString()).toContain('Two types, HTML last.');
    expect(await get(C.typeClash.jsonLast)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/json' });
    expect(await get(C.typeClash.invalidLast)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/zip' });
    await expectNothingEscaped();
  });

  it('a body with no Content-Type is what its first bytes say; a PNG sent as text/html is a PNG (WHATWG MIME Sniffing)', async () => {
    const page = await get(C.sniff.noTypeHtml);
    expect(page).toMatchObject({ kind: 'body', contentType: 'text/html' });
    expect(Buffer.from((page as { body: Uint8Array }).body).toString()).toContain('A page its server sent without a type.');
    expect(await get(C.sniff.noTypeText)).toMatchObject({ kind: 'body', contentType: 'text/plain' });
    expect(await get(C.sniff.noTypeBinary)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/octet-stream' });
    expect(await get(C.sniff.pngAsHtml)).toMatchObject({ kind: 'unwanted-type', contentType: 'image/png' });
    expect(await get(C.sniff.gifWords)).toMatchObject({ kind: 'body', contentType: 'text/plain' });
    // application/octet-stream is read at a URL that names a page, not at one that names a download.
    expect(await get(C.sniff.octetPage)).toMatchObject({ kind: 'body', contentType: 'text/html' });
    expect(await get(C.sniff.octetDownload)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/octet-stream' });
    await expectNothingEscaped();
  });

  it('a gzip body larger decoded than the cap is cut, and no error escapes', async () => {
    const outcome = await get(C.bigGzip, 16 * 1024);
    expect(outcome).toMatchObject({ kind: 'body', truncated: true });
    expect((outcome as { body: Uint8Array }).body.byteLength).toBe(16 * 1024);
    await expectNothingEscaped();
  });
});

/** A TCP server on loopback that answers each connection's first request as `answer` writes to the
 * socket (raw bytes, anything HTTP allows and more), started before and closed after the describe it
 * is called in. `origin()` is its http://127.0.0.1:PORT. */
function rawHttpServer(answer: (sock: Socket, path: string) => void): { origin: () => string } {
  let raw: Server;
  let origin = '';
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    raw = createServer((sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => {});
      sock.once('data', (d) => answer(sock, d.toString().split(' ')[1] ?? '/'));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const sock of sockets) sock.destroy();
    await new Promise((resolve) => raw.close(resolve));
  });
  return { origin: () => origin };
}

describe('informational answers without end (103 Early Hints every 50 ms)', () => {
  const server = rawHttpServer((sock, path) => {
    const hint = () => sock.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n');
    if (path === '/hints') {
      const timer = setInterval(hint, 50);
      sock.on('close', () => clearInterval(timer));
    } else {
      hint();
      sock.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 11\r\nConnection: close\r\n\r\n<p>fine</p>');
    }
  });
  const limits = { ...LIMITS, headersTimeoutMs: 400 };
  const fresh = () => new Agent({ connections: 1 });

  it('end at the headers deadline, not the request\u2019s (undici restarts its own at each one)', async () => {
    const agent = fresh();
    const outcome = await fetchOnce(agent, { url: `${server.origin()}/hints`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits });
    await agent.destroy();
    expect(outcome).toEqual({ kind: 'network-error', error: "no answer's headers within 0.4 s" });
    await expectNothingEscaped();
  });
  it('one early hint before the answer is read as any answer', async () => {
    const agent = fresh();
    // The short deadline is for /hints; a page that answers at once gets a loaded machine's margin.
    const outcome = await fetchOnce(agent, { url: `${server.origin()}/page`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: { ...limits, headersTimeoutMs: 5000 } });
    await agent.destroy();
    expect(outcome).toMatchObject({ kind: 'body', status: 200 });
    expect(new TextDecoder().decode((outcome as { body: Uint8Array }).body)).toBe('<p>fine</p>');
  });
});

describe('a failure after the headers', () => {
  const server = rawHttpServer((sock, path) => {
    const body = '<title>plain</title><p>not gzip at all</p>';
    if (path === '/says-gzip') {
      sock.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    } else {
      // Cut after a tenth of the body it announced.
      sock.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<p>the first hundred bytes'.padEnd(160, '.'), () => sock.destroy());
    }
  });
  const fetchFresh = async (path: string): Promise<FetchOutcome> => {
    const agent = new Agent({ connections: 1 });
    try {
      return await fetchOnce(agent, { url: server.origin() + path, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
    } finally {
      await agent.destroy();
    }
  };

  // The server answered: its status and type are the page's, not "no response" (status 0).
  it('keeps the status and type of a body that is not the Content-Encoding it says', async () => {
    const outcome = await fetchFresh('/says-gzip');
    expect(outcome).toMatchObject({ kind: 'network-error', status: 200, contentType: 'text/html' });
    expect((outcome as { error: string }).error).toMatch(/^the body is not the Content-Encoding it says \(gzip: /);
    await expectNothingEscaped();
  });

  it('keeps the status and type of a body cut short', async () => {
    const outcome = await fetchFresh('/cut');
    expect(outcome).toMatchObject({ kind: 'network-error', status: 200, contentType: 'text/html' });
    await expectNothingEscaped();
  });

  it('has no status when no answer came', async () => {
    const port = await refusingPort();
    const agent = new Agent({ connections: 1 });
    const outcome = await fetchOnce(agent, { url: `http://127.0.0.1:${port}/`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
    await agent.destroy();
    expect(outcome.kind).toBe('network-error');
    expect('status' in outcome).toBe(false);
  });
});

describe('redirect locations as browsers read them', () => {
  it('a Location of raw UTF-8 bytes points where its characters say; two differing Locations are no redirect', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((req, res) => {
      // Node writes header strings one byte per character: this sends the UTF-8 bytes of "/ünï".
      if (req.url === '/raw') res.writeHead(301, { location: Buffer.from('/ünï', 'utf8').toString('latin1') }).end();
      else res.writeHead(302, [['Location', '/a'], ['Location', '/b']]).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const raw = await fetchOnce(client, { url: `${origin}/raw`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
      expect(raw).toMatchObject({ kind: 'redirect', status: 301, location: '/ünï' });
      const two = await fetchOnce(client, { url: `${origin}/two`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
      expect(two).toMatchObject({ kind: 'status', status: 302 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('large response headers', () => {
  it('a 64 KB header (a cookie, a policy) is read, as browsers read it; past 256 KB the answer is refused', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const { createHttpClient } = await import('./fetch.js');
    const server = createHttpServer({ maxHeaderSize: 1 << 20 }, (req, res) => {
      const size = req.url === '/huge' ? 300 * 1024 : 64 * 1024;
      res.writeHead(200, { 'content-type': 'text/html', 'x-big': 'x'.repeat(size) }).end('<p>fine</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = createHttpClient({ hostConnections: 1, connectTimeoutMs: 5_000, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 });
    try {
      const big = await fetchOnce(agent, { url: `${origin}/big`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
      expect(big).toMatchObject({ kind: 'body', status: 200 });
      const huge = await fetchOnce(agent, { url: `${origin}/huge`, headers: {}, maxBodyBytes: 1 << 20, wantedTypes: PAGE_TYPES, limits: LIMITS });
      expect(huge).toMatchObject({ kind: 'network-error' });
      // The same headers come on every try: an answer that breaks HTTP, not asked again (politeness.ts).
      expect(huge.kind === 'network-error' && httpProtocolError(huge.error)).toBe('headers larger than a browser reads');
    } finally {
      await agent.close();
      await new Promise((r) => server.close(r));
    }
  });
});
