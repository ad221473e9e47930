import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GleanerError } from '../errors.js';
import { Level } from 'level';
import { LevelStore, openStore, STORE_SCHEMA_VERSION, storePath, type Store } from './store.js';
import { collect, expectBreadthFirstQueue, storedPage as page } from '../../test/support/store-records.js';
import { packLinks } from './links.js';


describe('LevelStore (real LevelDB in a temp dir)', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-store-'));
    store = await openStore(dir);
  });
  afterEach(async () => {
    await store.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  it('queues each URL once, breadth-first by depth then in the order queued', async () => {
    await expectBreadthFirstQueue(store);
  });

  it('commitFetch stores the page with its links and new URLs, and takes the entry off the queue at once', async () => {
    const [seed] = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }]);
    const added = await store.commitFetch(seed, page('http://a/', ['http://a/x', 'http://a/y']), [
      { url: 'http://a/x', depth: 1, via: 'link' },
      { url: 'http://a/y', depth: 1, via: 'link' },
      { url: 'http://a/', depth: 1, via: 'link' },
    ]);
    expect(added.map((e) => e.url)).toEqual(['http://a/x', 'http://a/y']);
    expect((await store.getPage('http://a/'))?.title).toBe('http://a/');
    expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/x', 'http://a/y']);
    expect((await store.getPage('http://a/'))?.links.map((l) => l.url)).toEqual(['http://a/x', 'http://a/y']);
  });

  it('two commits at once that find the same new URL queue it once', async () => {
    const found = [{ url: 'http://a/new', depth: 1, via: 'link' as const }];
    const [a, b] = await Promise.all([
      store.commitFetch(undefined, page('http://a/1', ['http://a/new']), found),
      store.commitFetch(undefined, page('http://a/2', ['http://a/new']), found),
    ]);
    expect([...a, ...b].map((e) => e.url)).toEqual(['http://a/new']);
    expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/new']);
  });

  it('a recrawled page replaces its old links', async () => {
    await store.commitFetch(undefined, page('http://a/', ['http://a/old']), []);
    await store.commitFetch(undefined, page('http://a/', ['http://a/new']), []);
    expect((await collect(store.pages())).flatMap((p) => p.links.map((l) => l.url))).toEqual(['http://a/new']);
  });

  it('a forced add requeues a fetched URL (recrawl) but not one still queued', async () => {
    const [e] = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }]);
    expect(await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }], { force: true })).toEqual([]);
    await store.commitFetch(e, page('http://a/'), []);
    const again = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }], { force: true });
    expect(again.map((x) => x.url)).toEqual(['http://a/']);
  });

  it('survives a reopen: queue order continues after the last sequence number', async () => {
    await store.frontier.add([{ url: 'http://a/1', depth: 1, via: 'link' }]);
    await store.close();
    store = await openStore(dir);
    await store.frontier.add([{ url: 'http://a/2', depth: 1, via: 'link' }]);
    expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/1', 'http://a/2']);
    expect(await store.frontier.seen('http://a/1')).toBe(true);
    expect(await store.frontier.seen('http://a/3')).toBe(false);
  });

  it('refuses a data dir written with another schema version, saying what to do', async () => {
    await store.putMeta('schema', { version: STORE_SCHEMA_VERSION + 1 });
    await store.close();
    const err = await LevelStore.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GleanerError);
    expect((err as GleanerError).code).toBe('SCHEMA_MISMATCH');
    expect((err as GleanerError).message).toMatch(/newer Gleaner/);
    store = await openStore(join(dir, 'other')); // so afterEach has something to close
  });

  it('upgrades a v2 store (link edges kept apart too) to v3 without losing a page or a queued URL', async () => {
    const [seed] = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }]);
    await store.commitFetch(seed, page('http://a/', ['http://a/x']), [{ url: 'http://a/x', depth: 1, via: 'link' }]);
    await store.close();
    // Write what a v2 Gleaner left: the schema key at 2 and an edge under the old links sublevel.
    const raw = new Level<string, unknown>(storePath(dir), { valueEncoding: 'json' });
    await raw.sublevel<string, unknown>('links', { valueEncoding: 'json' }).put('http://a/x\x00http://a/', { t: 'to x', n: false });
    await raw.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).put('schema', { version: 2 });
    await raw.close();

    store = await openStore(dir);
    expect(await store.getMeta('schema')).toEqual({ version: STORE_SCHEMA_VERSION });
    expect((await store.getPage('http://a/'))?.links.map((l) => l.url)).toEqual(['http://a/x']);
    expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/x']);
    await store.close();
    const check = new Level<string, unknown>(storePath(dir), { valueEncoding: 'json' });
    expect(await check.sublevel('links').keys().all()).toEqual([]);
    await check.close();
    store = await openStore(dir);
  });

  it('commitFetch keeps the raw response beside the page, in a sublevel of its own; a page without one has none', async () => {
    const bodyGzip = new Uint8Array([31, 139, 8, 0, 1, 2, 3]);
    const raw = { status: 200, headers: [['content-type', 'text/html'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']] as [string, string][], bodyGzip };
    await store.commitFetch(undefined, page('http://a/'), [], undefined, [], raw);
    await store.commitFetch(undefined, page('http://a/2', ['http://a/', 'http://b/']), []);
    expect(await store.getRawResponse('http://a/')).toEqual(raw);
    expect(await store.getRawResponse('http://a/2')).toBeUndefined();
    expect((await collect(store.pages())).map((p) => p.url)).toEqual(['http://a/', 'http://a/2']);
    // The same pages with their links as stored.
    expect((await collect(store.packedPages()))[1]!.links.url).toEqual(['http://a/', 'http://b/']);
    expect(await collect(store.packedPages())).toEqual((await collect(store.pages())).map((p) => ({ ...p, links: packLinks(p.links) })));
  });

  it('commitFetch writes the page fact and the refused URLs in the page batch; a recrawl replaces the fact', async () => {
    await store.commitFetch(undefined, page('http://a/', ['http://a/x', 'http://b/out']), [{ url: 'http://a/x', depth: 1, via: 'link' }], undefined, ['http://b/out']);
    await store.commitFetch(undefined, page('http://a/2', [], { text: '  ' }), []);
    expect(await collect(store.pageFacts())).toEqual([
      ['http://a/', { state: 'ok', status: 200, depth: 0, hash: 'http://a/' }],
      ['http://a/2', { state: 'ok', status: 200, depth: 0 }], // no text: never the first copy of anything
    ]);
    expect(await collect(store.refusedUrls())).toEqual(['http://b/out']);
    await store.commitFetch(undefined, page('http://a/', [], { state: 'error', status: 500 }), []);
    expect((await collect(store.pageFacts()))[0]).toEqual(['http://a/', { state: 'error', status: 500, depth: 0 }]);
    expect(await collect(store.seenUrls())).toEqual(['http://a/x']);
  });

  it('commitPages stores several pages with their facts and refused URLs in one batch, a URL given twice its last page, no queue touched', async () => {
    await store.commitPages([
      { page: page('http://g/1', []), refused: ['http://out/a'] },
      { page: page('http://g/2', []), refused: ['http://out/a', 'http://out/b'] },
      { page: { ...page('http://g/1', []), title: 'again' }, refused: [] },
    ]);
    expect((await collect(store.pages())).map((p) => [p.url, p.title])).toEqual([
      ['http://g/1', 'again'],
      ['http://g/2', page('http://g/2', []).title],
    ]);
    expect((await collect(store.pageFacts())).map(([url]) => url)).toEqual(['http://g/1', 'http://g/2']);
    expect(await collect(store.refusedUrls())).toEqual(['http://out/a', 'http://out/b']);
    expect(await collect(store.frontier.queued())).toEqual([]);
  });

  it('upgrades a v3 store (pages without facts) to v4: facts and refused URLs built once from the pages', async () => {
    const [seed] = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }]);
    await store.commitFetch(seed, page('http://a/', ['http://a/x', 'http://b/out']), [{ url: 'http://a/x', depth: 1, via: 'link' }]);
    await store.commitFetch(undefined, page('http://a/r', [], { state: 'redirect', status: 301, finalUrl: 'http://c/' }), []);
    await store.close();
    // What a v3 Gleaner left: no facts, no refused URLs, the schema key at 3.
    const raw = new Level<string, unknown>(storePath(dir), { valueEncoding: 'json' });
    await raw.sublevel('facts').clear();
    await raw.sublevel('refused').clear();
    await raw.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).put('schema', { version: 3 });
    await raw.close();

    store = await openStore(dir);
    expect(await store.getMeta('schema')).toEqual({ version: STORE_SCHEMA_VERSION });
    expect(await collect(store.pageFacts())).toEqual([
      ['http://a/', { state: 'ok', status: 200, depth: 0, hash: 'http://a/' }],
      ['http://a/r', { state: 'redirect', status: 301, depth: 0 }],
    ]);
    // Followed but never queued: refused by the v3 crawl (http://a/x was queued, so it is not).
    expect(await collect(store.refusedUrls())).toEqual(['http://b/out', 'http://c/']);
    expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/x']);
  });

  it('a second process-level open of the same dir is refused as locked', async () => {
    const err = await openStore(dir).catch((e: unknown) => e);
    expect((err as GleanerError).code).toBe('STORE_LOCKED');
  });

  it('a reader that needs a crawl gets NOT_FOUND for an empty dir', async () => {
    const err = await openStore(join(dir, 'nothing-here'), { mustExist: true }).catch((e: unknown) => e);
    expect((err as GleanerError).code).toBe('NOT_FOUND');
    expect((err as GleanerError).message).toMatch(/gleaner crawl/);
  });
});
