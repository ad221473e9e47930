// A recrawl during an outage: pages whose server fails for now (a 503, a dropped connection, a
// temporary redirect to a maintenance page, a 304 it was not asked for) keep the good copy stored
// before, so they stay searchable; a page the server says is gone or moved for good is replaced. The
// next recrawl, the outage over, asks every stored URL again, the redirects too.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-recrawl-outage-');
const TIMING = { delayMs: 0, useSitemaps: false, maxRetries: 1, backoffMs: 20, maxBackoffMs: 100 } as const;

describe('a recrawl while the server is in trouble', () => {
  let server: Server;
  let origin = '';
  let outage = false;
  let data = '';
  const before = new Map<string, PageRecord>();
  const after = new Map<string, PageRecord>();
  const recovered = new Map<string, PageRecord>();
  const asked: string[] = [];
  const logged: string[] = [];
  let kept = 0;

  const read = async (into: Map<string, PageRecord>) => {
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) into.set(new URL(p.url).pathname, p);
    await store.close();
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      asked.push(path);
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      if (outage && path === '/busy') return void res.writeHead(503).end('down for now');
      if (outage && path === '/dropped') return void res.socket?.destroy();
      if (outage && path === '/removed') return void res.writeHead(404).end();
      if (outage && path === '/for-now') return void res.writeHead(302, { location: '/maintenance' }).end();
      if (outage && path === '/for-good') return void res.writeHead(301, { location: '/new-home' }).end();
      // No ETag or Last-Modified is ever sent, so no recrawl request is conditional.
      if (outage && path === '/unasked') return void res.writeHead(304).end();
      const links = ['/busy', '/dropped', '/removed', '/for-now', '/for-good', '/unasked'].map((l) => `<a href="${l}">${l}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Page ${path}</title><p>The words of ${path.replace(/\W/g, ' ')} here.</p>${links}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...TIMING });
    await read(before);
    outage = true;
    const summary = await crawl({ dataDir: data, seeds: [`${origin}/`], ...TIMING, recrawl: true }, { log: (_level, msg, fields) => void logged.push(`${msg} ${JSON.stringify(fields ?? {})}`) });
    kept = summary.thisRun.kept;
    await read(after);
    outage = false;
    asked.length = 0;
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...TIMING, recrawl: true });
    await read(recovered);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dirs.removeAll();
  });

  it('keeps the stored copy of a page the server fails for now, and says so', () => {
    for (const path of ['/busy', '/dropped']) {
      expect(before.get(path)?.state, path).toBe('ok');
      expect(after.get(path), path).toMatchObject({ state: 'ok', text: before.get(path)!.text, fetchedAt: before.get(path)!.fetchedAt });
    }
    expect(logged.filter((l) => l.startsWith('recrawl failed for now; the stored copy stands'))).toHaveLength(4);
    expect(kept).toBe(4);
  });
  it('keeps it through a temporary redirect, and reads where the redirect leads', () => {
    expect(after.get('/for-now')).toMatchObject({ state: 'ok', text: before.get('/for-now')!.text });
    expect(logged.some((l) => l.startsWith('recrawl failed for now; the stored copy stands') && l.includes(`HTTP 302 to ${origin}/maintenance`))).toBe(true);
    expect(after.get('/maintenance')?.state).toBe('ok');
  });
  it('keeps it through a 304 the crawl did not ask for (no validators were sent)', () => {
    expect(after.get('/unasked')).toMatchObject({ state: 'ok', status: 200, text: before.get('/unasked')!.text });
    expect(logged.some((l) => l.includes('304 to a request that was not conditional'))).toBe(true);
  });
  it('replaces a page moved for good (301) with its redirect', () => {
    expect(after.get('/for-good')).toMatchObject({ state: 'redirect', status: 301 });
  });
  it('the next recrawl asks every stored URL again, redirects included, and restores the page that had moved', () => {
    for (const path of ['/', '/busy', '/dropped', '/removed', '/for-now', '/for-good', '/unasked', '/maintenance', '/new-home']) expect(asked, path).toContain(path);
    expect(recovered.get('/for-good')).toMatchObject({ state: 'ok', status: 200 });
    expect(recovered.get('/removed')).toMatchObject({ state: 'ok' });
  });
  it('replaces a page the server says is gone', () => {
    expect(before.get('/removed')?.state).toBe('ok');
    expect(after.get('/removed')).toMatchObject({ state: 'gone', status: 404 });
  });
});
