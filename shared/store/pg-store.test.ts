// PgStore against a real PostgreSQL 15 started in a temp dir (test/support/postgres-server.ts): the
// Store behaviours the crawler and indexer rely on, as LevelStore has them (store.test.ts), and what
// only a shared server brings: a page committed twice is stored once, a restart between commits loses
// nothing, a database of another program is refused untouched, and an unreachable server is one line.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { havePostgres, PostgresServer } from '../../test/support/postgres-server.js';
import { isGleanerError } from '../errors.js';
import { openStoreAt } from './open-store-at.js';
import { PgStore, type PgStoreOptions } from './pg-store.js';
import type { Store } from './store.js';
import { collect, expectBreadthFirstQueue, storedPage as page } from '../../test/support/store-records.js';
import { packLinks } from './links.js';


const run = havePostgres('the PostgreSQL store tests');
let server: PostgresServer | undefined;
let databases = 0;
/** A store on a database of its own. */
async function freshStore(): Promise<{ store: Store; url: string }> {
  const url = await server!.createDatabase(`store${++databases}`);
  return { store: await openStoreAt(url), url };
}
/** A PgStore with `options` on a database of its own. */
async function freshPgStore(options: Partial<PgStoreOptions>): Promise<{ store: PgStore; url: string }> {
  const url = await server!.createDatabase(`store${++databases}`);
  return { store: await PgStore.open(url, options), url };
}

describe.runIf(run)('PgStore (real PostgreSQL 15 in a temp dir)', () => {
  beforeAll(async () => {
    server = await PostgresServer.create();
  }, 60_000);
  afterAll(async () => {
    if (server) await server.remove();
  });

  it('queues each URL once, breadth-first by depth then in the order queued', async () => {
    const { store } = await freshStore();
    try {
      await expectBreadthFirstQueue(store);
      expect(await store.frontier.seen('http://a/2')).toBe(true);
      expect(await store.frontier.seen('http://a/3')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('commitFetch stores the page, its facts and new URLs and takes the entry off the queue in one step; a second commit of it stores it once', async () => {
    const { store } = await freshStore();
    try {
      const [seed] = await store.frontier.add([{ url: 'http://a/', depth: 0, via: 'seed' }]);
      const p = page('http://a/', ['http://a/x', 'http://a/y']);
      const discovered = [
        { url: 'http://a/x', depth: 1, via: 'link' as const },
        { url: 'http://a/y', depth: 1, via: 'link' as const },
        { url: 'http://a/', depth: 1, via: 'link' as const },
      ];
      const stats = { startedAt: 'x', seeds: [], pagesByState: { ok: 1 }, pagesByStatus: { '200': 1 }, hosts: 1, requests: 1, bytes: 10, errors: 0, blockedByRule: {}, trapsCut: {}, duplicates: 0, outOfScope: 0 };
      const raw = { status: 200, headers: [['content-type', 'text/html']] as [string, string][], bodyGzip: new Uint8Array([31, 139, 8, 0]) };
      const added = await store.commitFetch(seed, p, discovered, stats, ['http://elsewhere/'], raw);
      expect(added.map((e) => e.url)).toEqual(['http://a/x', 'http://a/y']);
      // The same commit again, as after a crash between the commit and the lease's return.
      expect(await store.commitFetch(seed, p, discovered, stats)).toEqual([]);
      expect((await collect(store.pages())).map((x) => x.url)).toEqual(['http://a/']);
      expect((await store.getPage('http://a/'))?.links.map((l) => l.url)).toEqual(['http://a/x', 'http://a/y']);
      expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/x', 'http://a/y']);
      expect((await collect(store.pageFacts())).map(([url, f]) => [url, f.state])).toEqual([['http://a/', 'ok']]);
      expect(await collect(store.refusedUrls())).toEqual(['http://elsewhere/']);
      expect((await collect(store.seenUrls())).sort()).toEqual(['http://a/', 'http://a/x', 'http://a/y']);
      expect((await store.getCrawlStats())?.requests).toBe(1);
      expect(await store.getRawResponse('http://a/')).toEqual(raw);
    } finally {
      await store.close();
    }
  });

  it('stores a page with no queue work (a shared crawl) in one statement: upserted, seen, its refused URLs kept', async () => {
    const { store } = await freshStore();
    try {
      const p = page('http://a/', ['http://a/x']);
      expect(await store.commitFetch(undefined, p, [], undefined, ['http://elsewhere/'])).toEqual([]);
      const changed = { ...p, title: 'second fetch' };
      expect(await store.commitFetch(undefined, changed, [], undefined, ['http://elsewhere/', 'http://other/'])).toEqual([]);
      expect((await collect(store.pages())).map((x) => [x.url, x.title])).toEqual([['http://a/', 'second fetch']]);
      expect((await collect(store.pageFacts())).map(([url]) => url)).toEqual(['http://a/']);
      expect(await collect(store.seenUrls())).toEqual(['http://a/']);
      expect((await collect(store.refusedUrls())).sort()).toEqual(['http://elsewhere/', 'http://other/']);
      expect(await collect(store.frontier.queued())).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('stores pages committed at once, a page committed again once (its last record), and refused URLs of any length', async () => {
    const { store } = await freshPgStore({ readBatchRows: 7 });
    try {
      // Incompressible: PostgreSQL compresses a long value, so a repeated character would fit a B-tree row.
      const long = `http://elsewhere/${Array.from({ length: 60 }, (_, i) => createHash('sha512').update(String(i)).digest('base64url')).join('')}`;
      expect(long.length).toBeGreaterThan(2704);
      const refused = Array.from({ length: 20 }, (_, i) => `http://other/${String(i)}`);
      const writes = Array.from({ length: 30 }, (_, i) => store.commitFetch(undefined, page(`http://a/${String(i)}`, []), [], undefined, i === 0 ? [long] : refused));
      await Promise.all(writes);
      await store.commitFetch(undefined, { ...page('http://a/3', []), title: 'last' }, [], undefined, []);
      const pages = await collect(store.pages());
      expect(pages).toHaveLength(30);
      expect(pages.find((p) => p.url === 'http://a/3')?.title).toBe('last');
      expect(await collect(store.seenUrls())).toHaveLength(30);
      expect((await collect(store.refusedUrls())).sort()).toEqual([long, ...refused].sort());
    } finally {
      await store.close();
    }
  });

  it('stores several pages in one statement (a group commit): a URL given twice keeps its last page, a refused URL found twice is kept once', async () => {
    const { store } = await freshStore();
    try {
      await store.commitPages([
        { page: page('http://g/1', ['http://g/2']), refused: ['http://out/a', 'http://out/b'] },
        { page: page('http://g/2', []), refused: ['http://out/b'] },
        { page: { ...page('http://g/1', []), title: 'again' }, refused: [] },
      ]);
      // Groups of other sizes are statements of their own, prepared side by side.
      await store.commitPages([{ page: page('http://g/3', ['http://g/1', 'http://x/']), refused: [] }]);
      await store.commitPages([{ page: page('http://g/4', []), refused: [] }, { page: { ...page('http://g/2', []), title: 'later' }, refused: [] }]);
      const pages = await collect(store.pages());
      expect((await collect(store.packedPages()))[2]!.links.url).toEqual(['http://g/1', 'http://x/']);
      expect(await collect(store.packedPages())).toEqual(pages.map((p) => ({ ...p, links: packLinks(p.links) })));
      expect(pages.map((x) => [x.url, x.title])).toEqual([
        ['http://g/1', 'again'],
        ['http://g/2', 'later'],
        ['http://g/3', page('http://g/3', []).title],
        ['http://g/4', page('http://g/4', []).title],
      ]);
      expect(await collect(store.seenUrls())).toEqual(['http://g/1', 'http://g/2', 'http://g/3', 'http://g/4']);
      expect((await collect(store.refusedUrls())).sort()).toEqual(['http://out/a', 'http://out/b']);
      expect((await collect(store.pageFacts())).map(([url]) => url)).toEqual(['http://g/1', 'http://g/2', 'http://g/3', 'http://g/4']);
    } finally {
      await store.close();
    }
  });

  it('fails a write that gets no answer within queryTimeoutMs with one UNREACHABLE line, not a wait for ever', async () => {
    const fresh = await freshPgStore({ queryTimeoutMs: 1000 });
    const store = fresh.store;
    // Another session holds the table: to the store the server does not answer, as a hung one does.
    const holder = new pg.Client({ connectionString: fresh.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE gleaner_pages IN ACCESS EXCLUSIVE MODE');
      const err: unknown = await store.commitFetch(undefined, page('http://a/', []), [], undefined, []).catch((e: unknown) => e);
      expect(isGleanerError(err) && err.code).toBe('UNREACHABLE');
      expect((err as Error).message).toMatch(/^PostgreSQL at .+ did not answer for 1 s$/);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
      await store.close();
    }
  });

  it('fails a write the server has no room for (disk full) with one DATA_DIR line, so the crawl stops as on a full data dir', async () => {
    const fresh = await freshPgStore({});
    const store = fresh.store;
    // A full disk, as PostgreSQL reports it (SQLSTATE 53100, "could not extend file"), without filling one.
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    try {
      await admin.query(`CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$`);
      await admin.query('CREATE TRIGGER full_disk BEFORE INSERT ON gleaner_pages FOR EACH ROW EXECUTE FUNCTION full_disk()');
      const err: unknown = await store.commitPages([{ page: page('http://a/', []), refused: [] }]).catch((e: unknown) => e);
      expect(isGleanerError(err) && err.code).toBe('DATA_DIR');
      expect((err as Error).message).toMatch(/^PostgreSQL at .+ has no room to write \(could not extend file\)$/);
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it('compresses page records with lz4 where the server has it', async () => {
    const { store, url } = await freshStore();
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const has = (await client.query<{ lz4: boolean }>("SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'")).rows[0]!.lz4;
      const column = (await client.query<{ c: string }>("SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'gleaner_pages'::regclass AND attname = 'record'")).rows[0]!.c;
      expect(column).toBe(has ? 'l' : '');
      if (process.env.CI === 'true') expect(has, 'Debian PostgreSQL 15 is built with lz4').toBe(true);
    } finally {
      await client.end();
    }
  });

  it('drops entries, keeps robots.txt entries, meta and raw responses, and reads pages in URL order in batches', async () => {
    const { store, url } = await freshStore();
    await store.close();
    const small = await PgStore.open(url, { readBatchRows: 3 });
    try {
      const queued = await small.frontier.add(Array.from({ length: 8 }, (_, i) => ({ url: `http://b/${i}`, depth: 0, via: 'seed' as const })));
      await small.frontier.drop(queued[0]!);
      expect((await collect(small.frontier.queued())).length).toBe(7);
      for (const e of queued.slice(1)) await small.commitFetch(e, page(e.url), []);
      expect((await collect(small.pages())).map((p) => p.url)).toEqual(queued.slice(1).map((e) => e.url).sort());
      const robots = { origin: 'http://b', fetchedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-02T00:00:00.000Z', outcome: 'ok' as const, status: 200, body: 'User-agent: *', failures: 0 };
      await small.putRobots(robots);
      expect(await small.getRobots('http://b')).toEqual(robots);
      expect(await small.getRobots('http://c')).toBeUndefined();
      await small.putMeta('k', { a: 1 });
      expect(await small.getMeta('k')).toEqual({ a: 1 });
    } finally {
      await small.close();
    }
  });

  it('waits through a PostgreSQL restart: the commit made while it is down lands once it is back', async () => {
    const { store } = await freshStore();
    try {
      const [a, b] = await store.frontier.add([
        { url: 'http://c/a', depth: 0, via: 'seed' },
        { url: 'http://c/b', depth: 0, via: 'seed' },
      ]);
      await store.commitFetch(a, page('http://c/a'), []);
      await server!.stop();
      const pending = store.commitFetch(b, page('http://c/b'), [{ url: 'http://c/new', depth: 1, via: 'link' }]);
      await new Promise((r) => setTimeout(r, 1500));
      await server!.start();
      expect((await pending).map((e) => e.url)).toEqual(['http://c/new']);
      expect((await collect(store.pages())).map((p) => p.url)).toEqual(['http://c/a', 'http://c/b']);
      expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://c/new']);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('opens when eight crawlers open a new database at once (the schema is made once)', async () => {
    const url = await server!.createDatabase(`store${++databases}`);
    const stores = await Promise.all(Array.from({ length: 8 }, () => openStoreAt(url)));
    try {
      await stores[0]!.putMeta('k', 1);
      expect(await stores[7]!.getMeta('k')).toBe(1);
    } finally {
      for (const s of stores) await s.close();
    }
  }, 60_000);

  it("refuses a database holding another program's tables, and leaves them as they were", async () => {
    const url = await server!.createDatabase('other_app');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE invoices (id int)');
    try {
      const e = await openStoreAt(url).catch((x: unknown) => x);
      expect(isGleanerError(e) && e.code).toBe('BAD_ARGUMENT');
      expect((e as Error).message).toMatch(/holds other tables \(invoices\)/);
      const tables = (await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map((r: { tablename: string }) => r.tablename);
      expect(tables).toEqual(['invoices']);
    } finally {
      await client.end();
    }
  });

  it('says in one line that an unreachable server cannot be reached, within the connect timeout', async () => {
    const started = Date.now();
    const e = await PgStore.open(`postgres://postgres@localhost/x?host=${encodeURIComponent('/nonexistent-gleaner-socket-dir')}`, { connectTimeoutMs: 2000 }).catch((x: unknown) => x);
    expect(isGleanerError(e) && e.code).toBe('UNREACHABLE');
    expect((e as Error).message).toMatch(/^cannot reach PostgreSQL at \/nonexistent-gleaner-socket-dir\/x: /);
    expect((e as Error).message).not.toContain('\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
