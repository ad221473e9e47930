// The page store in PostgreSQL, for crawls shared by several machines (issue 17): the same `Store` as
// LevelStore (store.ts), on the database a `postgres://` URL names. Pages are keyed by a fingerprint of
// their URL (SHA-1: a URL of any length fits a fixed-size key) and written by upsert, so a page fetched
// twice after a crash is stored once. Each commitFetch is one transaction: page, facts, new URLs, the
// fetched entry off the queue and the counters, all or nothing, as LevelDB's batch does.
//
// A connection lost under a write (PostgreSQL restarted) is retried until reconnectDeadlineMs: every
// write is idempotent (upserts, inserts of what is not there, deletes of what is), so doing one again is
// safe, and the crawl waits for the database instead of losing a page.

import { createHash } from 'node:crypto';
import pg from 'pg';
import { GleanerError } from '../errors.js';
import { decodePackedPage, decodePage, encodePage, type PackedPage } from './page-codec.js';
import { pageFact, type PageFact } from './page-facts.js';
import { decodeRawResponse, encodeRawResponse, type RawResponse } from './raw-response.js';
import { STORE_SCHEMA_VERSION, type Frontier, type PageWrite, type QueuedEntry, type Store } from './store.js';
import type { CrawlStats, FrontierEntry, PageRecord, RobotsCacheEntry } from './types.js';

export interface PgStoreOptions {
  /** How long opening waits for the server before saying it cannot be reached. */
  connectTimeoutMs: number;
  /** How long a write keeps retrying while the server is away (restarted, failing over). */
  reconnectDeadlineMs: number;
  /** How long a query waits for an answer (a server hung, a lock never let go) before it fails with
   * UNREACHABLE: a crawl stops in one line rather than wait for ever. */
  queryTimeoutMs: number;
  /** Rows read at a time by the iterations (pages, facts, seen URLs). */
  readBatchRows: number;
}

export const PG_STORE_DEFAULTS: Readonly<PgStoreOptions> = { connectTimeoutMs: 5_000, reconnectDeadlineMs: 120_000, queryTimeoutMs: 120_000, readBatchRows: 500 };

/** Whether `location` names a PostgreSQL database rather than a data dir. */
export const isPostgresUrl = (location: string): boolean => /^postgres(?:ql)?:\/\//i.test(location);

const CRAWL_STATS_KEY = 'crawlStats';
const SCHEMA_KEY = 'gleaner-schema';
/**
 * `n` pages, their seen rows and their refused URLs in one statement (atomic on its own): what a crawl on
 * a shared frontier stores, whose queue lives elsewhere. One round trip instead of the transaction's six;
 * the Rust docs crawled on the shared path spent more time sending statements than storing pages. Sent
 * as a named (prepared) statement, one per `n`: parsed and planned once per connection, not once per
 * page, which was half of PostgreSQL's CPU per page (3,000 Rust docs pages stored: 1.38-1.52 -> 0.73-0.83
 * s). Several pages to a statement (crawler/commit-batch.ts) share its commit and the commit's fsync.
 * Parameters: five per page (fingerprint, URL, record, fact, depth), then the refused URLs' fingerprints
 * and URLs as two arrays.
 */
function pagesOnly(n: number): string {
  const page = (i: number, columns: number[]) => `(${columns.map((c) => `$${String(5 * i + c)}`).join(', ')})`;
  const rows = (columns: number[]) => Array.from({ length: n }, (_, i) => page(i, columns)).join(', ');
  return `
WITH page AS (
  INSERT INTO gleaner_pages (fp, url, record, fact) VALUES ${rows([1, 2, 3, 4])}
  ON CONFLICT (fp) DO UPDATE SET record = EXCLUDED.record, fact = EXCLUDED.fact RETURNING 1
), seen AS (
  INSERT INTO gleaner_seen (fp, url, depth) VALUES ${rows([1, 2, 5])} ON CONFLICT (fp) DO NOTHING RETURNING 1
), refused AS (
  INSERT INTO gleaner_refused (fp, url) SELECT * FROM unnest($${String(5 * n + 1)}::bytea[], $${String(5 * n + 2)}::text[]) ON CONFLICT (fp) DO NOTHING RETURNING 1
)
SELECT (SELECT count(*) FROM page) AS pages`;
}

/** The advisory lock taken while the schema is checked and created (any constant of our own). */
const SCHEMA_LOCK = 0x676c6e72;

/**
 * The tables. `recordCompression`: how PostgreSQL compresses a page record (~24 KB on the Rust docs)
 * when it stores it: lz4 where the server has it. Its default, pglz, cost PostgreSQL 7.3 CPU-seconds per
 * 6,000 Rust docs pages crawled on the shared path against lz4's 5.9 (two runs each, DESIGN.md).
 */
const schema = (recordCompression: 'lz4' | 'default') => `
CREATE TABLE IF NOT EXISTS gleaner_meta (key text PRIMARY KEY, value jsonb NOT NULL);
CREATE TABLE IF NOT EXISTS gleaner_pages (fp bytea PRIMARY KEY, url text NOT NULL, record text ${recordCompression === 'lz4' ? 'COMPRESSION lz4 ' : ''}NOT NULL, fact jsonb NOT NULL);
CREATE INDEX IF NOT EXISTS gleaner_pages_url ON gleaner_pages (url);
CREATE TABLE IF NOT EXISTS gleaner_seen (fp bytea PRIMARY KEY, url text NOT NULL, depth integer NOT NULL);
CREATE INDEX IF NOT EXISTS gleaner_seen_url ON gleaner_seen (url);
CREATE SEQUENCE IF NOT EXISTS gleaner_queue_seq;
CREATE TABLE IF NOT EXISTS gleaner_queue (depth integer NOT NULL, seq bigint NOT NULL, fp bytea NOT NULL UNIQUE, entry jsonb NOT NULL, PRIMARY KEY (depth, seq));
CREATE TABLE IF NOT EXISTS gleaner_robots (origin text PRIMARY KEY, entry jsonb NOT NULL);
CREATE TABLE IF NOT EXISTS gleaner_refused (fp bytea PRIMARY KEY, url text NOT NULL);
CREATE TABLE IF NOT EXISTS gleaner_raw (fp bytea PRIMARY KEY, data bytea NOT NULL);
`;

const fingerprint = (url: string): Buffer => createHash('sha1').update(url).digest();

/** `value` as JSON for a jsonb column. jsonb holds no NUL character and refuses the JSON that writes one
 * ("unsupported Unicode escape sequence"): a robots.txt with a NUL byte in it stopped a shared crawl. A
 * NUL becomes U+FFFD, as a decoder makes of a byte it cannot read; no URL, rule or word holds either. */
function jsonb(value: unknown): string {
  return JSON.stringify(value).replace(ESCAPED_NUL, '$1\\ufffd');
}
/** `\u0000` in JSON text, not preceded by an odd run of backslashes (an escaped backslash and "u0000"). */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** Errors that mean the server or the connection went away: worth another try. */
function connectionLost(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? '';
  const message = e instanceof Error ? e.message : '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004'].includes(code) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(message)
  );
}

/** Whether PostgreSQL refused for want of resources (SQLSTATE class 53: disk full, out of memory): the
 * server's own trouble to fix, not a bug here. */
function outOfRoom(e: unknown): boolean {
  return ['53100', '53200'].includes((e as { code?: string }).code ?? '');
}

type Query = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

export class PgStore implements Store {
  readonly frontier: Frontier;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgStoreOptions,
    /** The server as messages name it. */
    private readonly where: string,
  ) {
    this.frontier = {
      add: (entries, o) => this.transaction((q) => this.addEntries(q, entries, o?.force ?? false)),
      queued: () => this.queuedEntries(),
      seen: async (url) => (await this.retrying(() => this.pool.query({ name: 'gleaner_seen', text: 'SELECT 1 FROM gleaner_seen WHERE fp = $1', values: [fingerprint(url)] }))).rowCount! > 0,
      drop: (entry, stats) =>
        this.transaction(async (q) => {
          await this.unqueue(q, entry);
          if (stats) await this.putMetaWith(q, CRAWL_STATS_KEY, stats);
        }),
    };
  }

  /** Connects and checks (or creates) the schema; a database holding other tables is refused, untouched. */
  static async open(url: string, given: Partial<PgStoreOptions> = {}): Promise<PgStore> {
    const options = { ...PG_STORE_DEFAULTS, ...given };
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: options.connectTimeoutMs, query_timeout: options.queryTimeoutMs });
    // An idle client whose server went away must not crash the process: the next query reconnects.
    pool.on('error', () => {});
    const where = describe(url);
    try {
      await pool.query('SELECT 1');
    } catch (e) {
      await pool.end().catch(() => {});
      throw new GleanerError('UNREACHABLE', `cannot reach PostgreSQL at ${where}: ${(e as Error).message || (e as { code?: string }).code || 'no answer'}`, { cause: e });
    }
    const store = new PgStore(pool, options, where);
    try {
      await store.checkSchema(where);
    } catch (e) {
      await pool.end().catch(() => {});
      throw e;
    }
    return store;
  }

  private async checkSchema(where: string): Promise<void> {
    // Crawlers of a shared crawl open the store at once: the look and the create are one step under a
    // lock, or two of them find no tables and both create them (PostgreSQL's CREATE ... IF NOT EXISTS
    // is not safe against itself).
    await this.transaction(async (q) => {
      await q('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      const tables = (await q("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")).rows.map((r) => (r as { tablename: string }).tablename);
      if (tables.includes('gleaner_meta')) {
        const row = (await q('SELECT value FROM gleaner_meta WHERE key = $1', [SCHEMA_KEY])).rows[0] as { value: number } | undefined;
        if (row?.value !== STORE_SCHEMA_VERSION) {
          throw new GleanerError('SCHEMA_MISMATCH', `the Gleaner store in PostgreSQL at ${where} has schema ${String(row?.value)}, this Gleaner writes ${STORE_SCHEMA_VERSION}: use another database or this store's Gleaner`);
        }
        // Stores made before refused URLs were read in fingerprint order have an index that fails on a long URL.
        await q('DROP INDEX IF EXISTS gleaner_refused_url');
        return;
      }
      if (tables.length > 0) {
        throw new GleanerError('BAD_ARGUMENT', `the PostgreSQL database at ${where} holds other tables (${tables.slice(0, 3).join(', ')}${tables.length > 3 ? ', ...' : ''}) and no Gleaner store: give Gleaner a database of its own (createdb gleaner)`);
      }
      const lz4 = (await q("SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'")).rows[0] as { lz4: boolean } | undefined;
      await q(schema(lz4?.lz4 === true ? 'lz4' : 'default'));
      await q('INSERT INTO gleaner_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [SCHEMA_KEY, jsonb(STORE_SCHEMA_VERSION)]);
    });
  }

  /** Runs `work` again while the connection is lost, up to reconnectDeadlineMs. */
  private async retrying<T>(work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.options.reconnectDeadlineMs;
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        return await work();
      } catch (e) {
        if (e instanceof Error && e.message === 'Query read timeout') {
          throw new GleanerError('UNREACHABLE', `PostgreSQL at ${this.where} did not answer for ${String(this.options.queryTimeoutMs / 1000)} s`, { cause: e });
        }
        if (outOfRoom(e)) {
          // The server's disk (or memory) is full: the crawl stops as on a full data dir, in one line
          // and with what is stored kept, rather than as a bug with a stack in the log.
          throw new GleanerError('DATA_DIR', `PostgreSQL at ${this.where} has no room to write (${(e as Error).message})`, { cause: e });
        }
        if (!connectionLost(e) || Date.now() + wait > deadline) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** `work` in one transaction on one connection, the whole of it done again when the connection is lost. */
  private transaction<T>(work: (q: Query) => Promise<T>): Promise<T> {
    return this.retrying(async () => {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work((text, values) => client.query(text, values));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        broken = connectionLost(e);
        if (!broken) await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release(broken);
      }
    });
  }

  /** Queues the entries never seen (all not queued, with `force`), in the order given; returns those queued. */
  private async addEntries(q: Query, entries: readonly FrontierEntry[], force: boolean): Promise<QueuedEntry[]> {
    const unique = new Map<string, FrontierEntry>();
    for (const e of entries) if (!unique.has(e.url)) unique.set(e.url, e);
    if (unique.size === 0) return [];
    const list = [...unique.values()];
    const fps = list.map((e) => fingerprint(e.url));
    const seen = await q(
      `INSERT INTO gleaner_seen (fp, url, depth) SELECT * FROM unnest($1::bytea[], $2::text[], $3::int[])
       ON CONFLICT (fp) DO ${force ? 'UPDATE SET depth = gleaner_seen.depth' : 'NOTHING'} RETURNING url`,
      [fps, list.map((e) => e.url), list.map((e) => e.depth)],
    );
    const fresh = new Set((seen.rows as { url: string }[]).map((r) => r.url));
    const out: QueuedEntry[] = [];
    // One at a time, in the order given: the sequence numbers are the breadth-first order within a depth.
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (!fresh.has(e.url)) continue;
      const r = await q(
        `INSERT INTO gleaner_queue (depth, seq, fp, entry) VALUES ($1, nextval('gleaner_queue_seq'), $2, $3)
         ON CONFLICT (fp) DO NOTHING RETURNING seq`,
        [e.depth, fps[i], jsonb(e)],
      );
      const row = r.rows[0] as { seq: string } | undefined;
      if (row !== undefined) out.push({ ...e, id: `${e.depth}:${row.seq}` });
    }
    return out;
  }

  private async unqueue(q: Query, entry: QueuedEntry): Promise<void> {
    const [depth, seq] = entry.id.split(':');
    await q('DELETE FROM gleaner_queue WHERE depth = $1 AND seq = $2', [Number(depth), seq]);
  }

  private async *queuedEntries(): AsyncIterable<QueuedEntry> {
    let after: [number, string] = [-1, '0'];
    for (;;) {
      const r = await this.retrying(() =>
        this.pool.query('SELECT depth, seq, entry FROM gleaner_queue WHERE (depth, seq) > ($1, $2) ORDER BY depth, seq LIMIT $3', [after[0], after[1], this.options.readBatchRows]),
      );
      for (const row of r.rows as { depth: number; seq: string; entry: FrontierEntry }[]) yield { ...row.entry, id: `${row.depth}:${row.seq}` };
      if (r.rows.length < this.options.readBatchRows) return;
      const last = r.rows[r.rows.length - 1] as { depth: number; seq: string };
      after = [last.depth, last.seq];
    }
  }

  /** Rows of `table` in URL order, a batch at a time (keyset: no offset scans). */
  private byUrl<T>(table: string, columns: string, row: (r: Record<string, unknown>) => T): AsyncIterable<T> {
    return this.inOrder(table, 'url', columns, row);
  }

  /** Rows of `table` in the order of `key` (url, or fp where the order does not matter), a batch at a time. */
  private async *inOrder<T>(table: string, key: 'url' | 'fp', columns: string, row: (r: Record<string, unknown>) => T): AsyncIterable<T> {
    let after: unknown;
    for (;;) {
      const r = await this.retrying(() =>
        after === undefined
          ? this.pool.query(`SELECT url, ${key} AS key, ${columns} FROM ${table} ORDER BY ${key} LIMIT $1`, [this.options.readBatchRows])
          : this.pool.query(`SELECT url, ${key} AS key, ${columns} FROM ${table} WHERE ${key} > $1 ORDER BY ${key} LIMIT $2`, [after, this.options.readBatchRows]),
      );
      for (const x of r.rows as Record<string, unknown>[]) yield row(x);
      if (r.rows.length < this.options.readBatchRows) return;
      after = (r.rows[r.rows.length - 1] as { key: unknown }).key;
    }
  }

  async getPage(url: string): Promise<PageRecord | undefined> {
    const r = await this.retrying(() => this.pool.query('SELECT record FROM gleaner_pages WHERE fp = $1', [fingerprint(url)]));
    const row = r.rows[0] as { record: string } | undefined;
    return row === undefined ? undefined : decodePage(row.record);
  }

  pages(): AsyncIterable<PageRecord> {
    return this.byUrl('gleaner_pages', 'record', (r) => decodePage(r.record as string));
  }

  packedPages(): AsyncIterable<PackedPage> {
    return this.byUrl('gleaner_pages', 'record', (r) => decodePackedPage(r.record as string));
  }

  pageFacts(): AsyncIterable<[string, PageFact]> {
    return this.byUrl('gleaner_pages', 'fact', (r) => [r.url as string, r.fact as PageFact]);
  }

  refusedUrls(): AsyncIterable<string> {
    // In fingerprint order: a refused URL is any link a page had, of any length, and a B-tree on url
    // cannot hold one past ~2,700 bytes (the write failed and stopped the crawl).
    return this.inOrder('gleaner_refused', 'fp', '1 AS one', (r) => r.url as string);
  }

  seenUrls(): AsyncIterable<string> {
    return this.byUrl('gleaner_seen', '1 AS one', (r) => r.url as string);
  }

  async commitPages(pages: readonly PageWrite[]): Promise<void> {
    // One row per URL: PostgreSQL refuses a statement that upserts one row twice.
    const last = new Map<string, PageRecord>();
    const refused = new Set<string>();
    for (const w of pages) {
      last.set(w.page.url, w.page);
      for (const url of w.refused) refused.add(url);
    }
    if (last.size === 0) return;
    const values: unknown[] = [];
    for (const page of last.values()) values.push(fingerprint(page.url), page.url, encodePage(page), jsonb(pageFact(page)), page.depth);
    values.push([...refused].map(fingerprint), [...refused]);
    const n = last.size;
    await this.retrying(() => this.pool.query({ name: `gleaner_pages_${String(n)}`, text: pagesOnly(n), values }));
  }

  commitFetch(done: QueuedEntry | undefined, page: PageRecord, discovered: FrontierEntry[], stats?: CrawlStats, refused: readonly string[] = [], raw?: RawResponse): Promise<QueuedEntry[]> {
    if (done === undefined && discovered.length === 0 && stats === undefined && raw === undefined) {
      return this.commitPages([{ page, refused }]).then(() => []);
    }
    const record = encodePage(page);
    const fact = jsonb(pageFact(page));
    return this.transaction(async (q) => {
      await q(
        `INSERT INTO gleaner_pages (fp, url, record, fact) VALUES ($1, $2, $3, $4)
         ON CONFLICT (fp) DO UPDATE SET record = EXCLUDED.record, fact = EXCLUDED.fact`,
        [fingerprint(page.url), page.url, record, fact],
      );
      // A page is seen once stored, whether or not it came from the queue (a redirect's target).
      await q('INSERT INTO gleaner_seen (fp, url, depth) VALUES ($1, $2, $3) ON CONFLICT (fp) DO NOTHING', [fingerprint(page.url), page.url, page.depth]);
      const added = await this.addEntries(q, discovered, false);
      if (done) await this.unqueue(q, done);
      if (refused.length > 0) {
        await q('INSERT INTO gleaner_refused (fp, url) SELECT * FROM unnest($1::bytea[], $2::text[]) ON CONFLICT (fp) DO NOTHING', [refused.map(fingerprint), [...refused]]);
      }
      if (raw) await q('INSERT INTO gleaner_raw (fp, data) VALUES ($1, $2) ON CONFLICT (fp) DO UPDATE SET data = EXCLUDED.data', [fingerprint(page.url), Buffer.from(encodeRawResponse(raw))]);
      if (stats) await this.putMetaWith(q, CRAWL_STATS_KEY, stats);
      return added;
    });
  }

  async getRawResponse(url: string): Promise<RawResponse | undefined> {
    const r = await this.retrying(() => this.pool.query('SELECT data FROM gleaner_raw WHERE fp = $1', [fingerprint(url)]));
    const row = r.rows[0] as { data: Buffer } | undefined;
    return row === undefined ? undefined : decodeRawResponse(row.data);
  }

  async getRobots(origin: string): Promise<RobotsCacheEntry | undefined> {
    const r = await this.retrying(() => this.pool.query('SELECT entry FROM gleaner_robots WHERE origin = $1', [origin]));
    return (r.rows[0] as { entry: RobotsCacheEntry } | undefined)?.entry;
  }

  async putRobots(entry: RobotsCacheEntry): Promise<void> {
    await this.retrying(() =>
      this.pool.query('INSERT INTO gleaner_robots (origin, entry) VALUES ($1, $2) ON CONFLICT (origin) DO UPDATE SET entry = EXCLUDED.entry', [entry.origin, jsonb(entry)]),
    );
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    const r = await this.retrying(() => this.pool.query('SELECT value FROM gleaner_meta WHERE key = $1', [key]));
    return (r.rows[0] as { value: T } | undefined)?.value;
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    await this.retrying(() => this.putMetaWith((text, values) => this.pool.query(text, values), key, value));
  }

  private async putMetaWith(q: Query, key: string, value: unknown): Promise<void> {
    await q('INSERT INTO gleaner_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, jsonb(value)]);
  }

  getCrawlStats(): Promise<CrawlStats | undefined> {
    return this.getMeta<CrawlStats>(CRAWL_STATS_KEY);
  }

  putCrawlStats(stats: CrawlStats): Promise<void> {
    return this.putMeta(CRAWL_STATS_KEY, stats);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** The server and database of a URL, without its password: what messages name. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    const socket = u.searchParams.get('host');
    return `${socket ?? u.host}${u.pathname}`;
  } catch {
    return 'the given URL';
  }
}
