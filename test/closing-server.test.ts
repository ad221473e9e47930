// A server that closes its connection after every response without saying `Connection: close` (some
// embedded and CGI servers do; undici issues 1415 and 3492). undici may write the next request to the
// closing connection, which then fails with no answer. Read from the server's own log on a real crawl:
// every page is stored once as ok, with no retry, and a connection closed before any answer (a server
// that drops every request) is not asked again at once: only on the crawl's retry schedule
// (shared/http/stale-connection.ts).

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';

const PAGES = 30;

describe('a server that closes every connection after its response', () => {
  let server: Server;
  /** A second site, whose every page request is answered by closing the connection: none is reused. */
  let dropping: Server;
  let dir: string;
  /** Every request the server's handler saw, by path. */
  const asked: string[] = [];
  const pages = new Map<string, PageRecord>();
  let retries = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-closing-'));
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      asked.push(path);
      if (path === '/robots.txt') res.writeHead(404).end();
      else {
        const links = path === '/' ? [...Array.from({ length: PAGES }, (_, i) => `/p${String(i + 1)}`), dropUrl] : [];
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>page ${path}</title><p>words of ${path}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);
      }
      res.socket?.end();
    });
    dropping = createServer((req, res) => {
      asked.push(`dropping${req.url ?? '/'}`);
      if (req.url === '/robots.txt') return void res.writeHead(404, { connection: 'close' }).end();
      req.socket.destroy();
    });
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', r));
    const dropUrl = `http://127.0.0.1:${String((dropping.address() as AddressInfo).port)}/drop`;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
    await crawl({
      dataDir: dir,
      seeds: [url],
      delayMs: 0,
      backoffMs: 50,
      maxBackoffMs: 50,
      maxRetries: 2,
      useSitemaps: false,
    }, {
      log: (_level, msg) => {
        if (msg === 'will retry') retries++;
      },
    });
    const store = await openStore(dir, { mustExist: true });
    for await (const p of store.pages()) pages.set(p.url === dropUrl ? 'dropping/drop' : new URL(p.url).pathname, p);
    await store.close();
  }, 60_000);
  afterAll(async () => {
    for (const s of [server, dropping]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('stores every page as ok', () => {
    for (let i = 1; i <= PAGES; i++) expect(pages.get(`/p${String(i)}`)?.state, `/p${String(i)}`).toBe('ok');
  });

  it('retries no page: a request the closing connection lost is sent again at once on a new one', () => {
    // The dropping site's failures are the only retries: one for each try it is allowed.
    expect(retries).toBe(2);
    for (let i = 1; i <= PAGES; i++) expect(asked.filter((p) => p === `/p${String(i)}`).length, `/p${String(i)}`).toBeLessThanOrEqual(2);
  });

  it('asks a page whose every new connection closes unanswered once a try, as maxRetries allows, then stores it as an error', () => {
    expect(pages.get('dropping/drop')?.state).toBe('error');
    expect(asked.filter((p) => p === 'dropping/drop')).toHaveLength(3);
  });
});
