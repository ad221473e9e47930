// A recrawl during an outage: pages whose server fails for now (a 503, a dropped connection) keep the
// good copy stored before, so they stay searchable; a page the server says is gone is replaced.

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
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      if (outage && path === '/busy') return void res.writeHead(503).end('down for now');
      if (outage && path === '/dropped') return void res.socket?.destroy();
      if (outage && path === '/removed') return void res.writeHead(404).end();
      const links = '<a href="/busy">b</a> <a href="/dropped">d</a> <a href="/removed">r</a>';
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
    expect(logged.filter((l) => l.startsWith('recrawl failed for now; the stored copy stands'))).toHaveLength(2);
    expect(kept).toBe(2);
  });
  it('replaces a page the server says is gone', () => {
    expect(before.get('/removed')?.state).toBe('ok');
    expect(after.get('/removed')).toMatchObject({ state: 'gone', status: 404 });
  });
});
