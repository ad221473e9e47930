// Exact duplicates as a site changes: a copy is stored as a duplicate of its first copy and left out of
// the index, but only while that first copy still says the text; recrawled and indexed incrementally,
// search answers what a fresh crawl of the changed site would.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { indexAndSearchPaths } from './support/search-paths.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-recrawl-duplicates-');
const OPTIONS = { delayMs: 0, useSitemaps: false } as const;

const TEXT = '<p>The zanzibar quokka is the one page of this text.</p>';

describe('exact duplicates on a changing site', () => {
  let server: Server;
  let origin = '';
  // Per path, its body, or undefined for a 404.
  const site = new Map<string, string | undefined>();

  const pageOf = async (data: string, path: string): Promise<PageRecord | undefined> => {
    const store = await openStore(data, { mustExist: true });
    try {
      return await store.getPage(`${origin}${path}`);
    } finally {
      await store.close();
    }
  };
  const found = indexAndSearchPaths;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = site.get(req.url ?? '');
      if (req.url === '/robots.txt' || body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dirs.removeAll();
  });

  it('a copy fetched while its first copy waits for its commit is a duplicate, found once', async () => {
    site.clear();
    site.set('/', '<title>Home</title><p>Welcome.</p><a href="/d">d</a> <a href="/e">e</a>');
    site.set('/d', `<title>Quokka</title>${TEXT}`);
    site.set('/e', `<title>Quokka</title>${TEXT}`);
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS });
    // Both were stored as originals: the first copy's fingerprint was noted only once its commit was done.
    expect([(await pageOf(data, '/d'))?.state, (await pageOf(data, '/e'))?.state].sort()).toEqual(['duplicate', 'ok']);
    expect(await found(data, 'zanzibar')).toHaveLength(1);
  });

  it('a first copy recrawled away from its text gives it up: a copy met later is the original', async () => {
    site.clear();
    site.set('/', '<title>Home</title><p>Welcome.</p><a href="/d">d</a> <a href="/e">e</a>');
    site.set('/d', `<title>Quokka</title>${TEXT}`);
    site.set('/e', '<title>Other</title><p>Something else entirely.</p>');
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS });
    // /d is recrawled first (the same depth, in URL order) and is gone; /e now says what /d said.
    site.set('/d', undefined);
    site.set('/e', `<title>Quokka</title>${TEXT}`);
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS, recrawl: true });
    expect((await pageOf(data, '/d'))?.state).toBe('gone');
    // It was stored as a duplicate of the page that had just said it was gone.
    expect((await pageOf(data, '/e'))?.state).toBe('ok');
    expect(await found(data, 'zanzibar')).toEqual(['/e']);
  });

  it('a copy recrawled before its first copy is gone is indexed in its place, as after a fresh crawl', async () => {
    site.clear();
    site.set('/', '<title>Home</title><p>Welcome.</p><a href="/c">c</a> <a href="/z">z</a>');
    site.set('/z', `<title>Quokka</title>${TEXT}<a href="/">xylophone hall</a>`);
    site.set('/c', '<title>Other</title><p>Something else entirely.</p>');
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS });
    // /c, recrawled before /z (URL order), now says what /z said while /z still says it...
    site.set('/c', site.get('/z'));
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS, recrawl: true });
    expect(await pageOf(data, '/c')).toMatchObject({ state: 'duplicate', duplicateOf: `${origin}/z` });
    expect(await found(data, 'xylophone')).toEqual(['/z', '/']);
    expect(await found(data, 'zanzibar')).toEqual(['/z']);
    // ... then /z is deleted: the next recrawl stores /c as a copy of /z before it finds /z gone. The
    // text is on the site, at /c, and was in no result until /c changed again.
    site.set('/z', undefined);
    await crawl({ dataDir: data, seeds: [`${origin}/`], ...OPTIONS, recrawl: true });
    expect((await pageOf(data, '/z'))?.state).toBe('gone');
    expect(await pageOf(data, '/c')).toMatchObject({ state: 'duplicate', duplicateOf: `${origin}/z` });
    expect(await found(data, 'zanzibar')).toEqual(['/c']);
    // Indexed in its original's place, its links count as its original's did (the home page is found by
    // the anchor text alone).
    expect(await found(data, 'xylophone')).toEqual(['/c', '/']);
  });
});
