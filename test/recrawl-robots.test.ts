// A recrawl after the site's robots.txt changed: a stored page the rules now disallow leaves the index
// (its copy replaced, the page not asked), and comes back when a later recrawl finds it allowed again.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPages } from '../bin/commands/export.js';
import { crawl } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { indexAndSearchPaths } from './support/search-paths.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-recrawl-robots-');
// robots.txt is read anew on every run (no cache), as it would be once its freshness ran out.
const OPTIONS = { delayMs: 0, useSitemaps: false, robotsMaxCacheSeconds: 0, keepRaw: true } as const;

describe('a recrawl after robots.txt changed', () => {
  let server: Server;
  let origin = '';
  let data = '';
  let rules = 'User-agent: *\nAllow: /\n';
  const asked: string[] = [];
  const logged: string[] = [];

  const pageOf = async (path: string): Promise<PageRecord | undefined> => {
    const store = await openStore(data, { mustExist: true });
    try {
      return await store.getPage(`${origin}${path}`);
    } finally {
      await store.close();
    }
  };
  const found = (q: string): Promise<string[]> => indexAndSearchPaths(data, q);
  const recrawl = () => crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS, recrawl: true }, { log: (_level, msg, fields) => void logged.push(`${msg} ${JSON.stringify(fields ?? {})}`) });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      asked.push(path);
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(rules);
      const body = path === '/' ? '<title>Home</title><p>Welcome.</p><a href="/private/plans">plans</a> <a href="/public">public</a>' : `<title>Page ${path}</title><p>The zanzibar words of ${path.replace(/\W/g, ' ')}.</p>`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dirs.removeAll();
  });

  it('a page the rules now disallow is not asked, its copy is replaced, and the index drops it', async () => {
    expect((await pageOf('/private/plans'))?.state).toBe('ok');
    expect(await found('zanzibar')).toEqual(expect.arrayContaining(['/private/plans', '/public']));

    rules = 'User-agent: *\nDisallow: /private/\n';
    asked.length = 0;
    const summary = await recrawl();
    expect(asked).not.toContain('/private/plans');
    expect(asked).toContain('/public');
    expect(await pageOf('/private/plans')).toMatchObject({ state: 'blocked', status: 0, text: '', links: [] });
    expect((await pageOf('/private/plans'))?.error).toMatch(/^robots.txt now disallows it \(line 2: /);
    expect(summary.thisRun.pagesByState.blocked).toBe(1);
    expect(logged.filter((l) => l.startsWith('robots.txt now disallows a stored page'))).toHaveLength(1);
    expect(await found('zanzibar')).toEqual(['/public']);
    // Nor does an export hand on the response kept from before.
    const store = await openStore(data, { mustExist: true });
    const written: string[] = [];
    try {
      const exported = await exportPages(store, 'warc', { write: (c) => Promise.resolve(void written.push(Buffer.from(c).toString('latin1'))), finish: () => Promise.resolve() }, { gzip: false });
      expect(exported).toMatchObject({ pages: 2, withdrawn: 1 });
    } finally {
      await store.close();
    }
    expect(written.join('')).toContain(`WARC-Target-URI: ${origin}/public`);
    expect(written.join('')).not.toContain(`WARC-Target-URI: ${origin}/private/plans`);
  });

  it('comes back when a later recrawl finds it allowed again', async () => {
    rules = 'User-agent: *\nAllow: /\n';
    asked.length = 0;
    await recrawl();
    expect(asked).toContain('/private/plans');
    expect((await pageOf('/private/plans'))?.state).toBe('ok');
    expect(await found('zanzibar')).toEqual(expect.arrayContaining(['/private/plans', '/public']));
  });
});
