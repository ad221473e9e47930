// The page store: the one place where the crawler's output lives and the indexer's input comes from.
// `Store` is the small interface both stores implement: `LevelStore`, the embedded default (LevelDB in
// data/store), and `PgStore` (pg-store.ts), shared by crawlers on several machines. A shared crawl keeps
// its queue in Redis instead (crawler/frontier-shared.ts); `Frontier` here is the one-machine queue.
//
// Sublevels: pages (url -> PageRecord, its outgoing links inside), frontier (queue + seen),
// robots (origin -> RobotsCacheEntry), meta (schema version, crawl stats, anything small),
// facts (url -> PageFact: state, status, fingerprint) and refused (URLs a commit judged and did not queue):
// what a resumed crawl reads at start instead of decoding every page, written in each page's own batch.
// A page's links live in its record rather than as one key per edge: a page links 100-300 times, and one
// write per page instead of hundreds is what lets the store keep up with the crawler (issue 4's bench).
// The link graph is read from the records (shared/store/links.ts).

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Level } from 'level';
import type { AbstractSublevel } from 'abstract-level';
import { dataDirError, errnoCode } from '../data-dir.js';
import { GleanerError } from '../errors.js';
import { shellWord } from '../shell-word.js';
import { decodePackedPage, PAGE_ENCODING, type PackedPage } from './page-codec.js';
import { followedUrls, pageFact, type PageFact } from './page-facts.js';
import type { CrawlStats, FrontierEntry, PageRecord, RobotsCacheEntry } from './types.js';
import { decodeRawResponse, encodeRawResponse, type RawResponse } from './raw-response.js';

/** Bump when a record's shape or a key layout changes; `openStore` upgrades the versions it knows
 * (checkSchema) and refuses any other. v3: link edges no longer kept apart from page records.
 * v4: page facts and refused URLs kept beside the pages, so a crawl resumes without reading page bodies. */
export const STORE_SCHEMA_VERSION = 4;

/** A frontier entry with the store's handle on its place in the queue. */
export interface QueuedEntry extends FrontierEntry {
  /** Opaque to callers: pass it back to `commitFetch`. */
  id: string;
}

export interface Frontier {
  /** Queues the URLs never seen before (or all of them with `force`, for a recrawl); returns those queued. */
  add(entries: FrontierEntry[], options?: { force?: boolean }): Promise<QueuedEntry[]>;
  /** Every queued entry, lowest depth first, then in the order queued: what a resumed crawl starts from. */
  queued(): AsyncIterable<QueuedEntry>;
  /** Whether the URL was ever queued (whether or not it has been fetched since). */
  seen(url: string): Promise<boolean>;
  /** Takes an entry off the queue without a page (cut as a trap, blocked by robots, out of scope);
   * `stats`, when given, are written in the same atomic batch. */
  drop(entry: QueuedEntry, stats?: CrawlStats): Promise<void>;
}

/** A page for Store.commitPages, and the URLs found on it that the crawl judged and did not queue. */
export interface PageWrite {
  page: PageRecord;
  refused: readonly string[];
}

export interface Store {
  readonly frontier: Frontier;
  getPage(url: string): Promise<PageRecord | undefined>;
  /** Every stored page, in URL order; each carries its outgoing links (shared/store/links.ts makes the edges). */
  pages(): AsyncIterable<PageRecord>;
  /** pages() with each page's links as stored (PackedLinks): for readers that need no object per link. */
  packedPages(): AsyncIterable<PackedPage>;
  /** Every stored page's fact (shared/store/page-facts.ts), in URL order: small, no page body decoded. */
  pageFacts(): AsyncIterable<[string, PageFact]>;
  /** URLs a commit judged and did not queue (out of scope, cut as a trap). */
  refusedUrls(): AsyncIterable<string>;
  /** Every URL ever queued, fetched or not. */
  seenUrls(): AsyncIterable<string>;
  /**
   * Stores a fetched page with its outgoing links, queues the URLs it led to, and takes the fetched
   * entry off the queue, all in one atomic write: after a crash either all of it is there or none,
   * so no page is lost and none is stored twice. Returns the discovered entries that were new.
   * `stats`, when given, are written in the same batch: counters that cannot be recounted from the pages
   * (requests, traps cut) then match the pages stored, whenever the process dies. `refused`: the URLs
   * found on the page that the crawl judged and did not queue, remembered so a resumed crawl judges them once.
   */
  commitFetch(done: QueuedEntry | undefined, page: PageRecord, discovered: FrontierEntry[], stats?: CrawlStats, refused?: readonly string[], raw?: RawResponse): Promise<QueuedEntry[]>;
  /**
   * Stores several fetched pages in one atomic write, each with its refused URLs, touching no queue: a
   * shared crawl's pages, whose queue is in Redis (crawler/commit-batch.ts writes them in groups). A
   * URL given twice keeps its last page.
   */
  commitPages(pages: readonly PageWrite[]): Promise<void>;
  /** The response a page was made from (raw-response.ts), when the crawl kept it (CrawlOptions.keepRaw). */
  getRawResponse(url: string): Promise<RawResponse | undefined>;
  getRobots(origin: string): Promise<RobotsCacheEntry | undefined>;
  putRobots(entry: RobotsCacheEntry): Promise<void>;
  getMeta<T>(key: string): Promise<T | undefined>;
  putMeta(key: string, value: unknown): Promise<void>;
  getCrawlStats(): Promise<CrawlStats | undefined>;
  putCrawlStats(stats: CrawlStats): Promise<void>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Open without creating: for readers such as the indexer, which need a crawl to exist. */
  mustExist?: boolean;
}

/** Where the LevelDB store lives inside a data dir. */
export function storePath(dataDir: string): string {
  return join(dataDir, 'store');
}

// Key layout. Depth and sequence are zero-padded so LevelDB's byte order is breadth-first order.
const DEPTH_WIDTH = 4;
const SEQ_WIDTH = 12;
const SEP = '\x00';
const queueKey = (depth: number, seq: number) =>
  `${String(depth).padStart(DEPTH_WIDTH, '0')}${SEP}${String(seq).padStart(SEQ_WIDTH, '0')}`;

interface SeenRecord {
  depth: number;
  /** queue key while queued, '' once fetched or dropped */
  id: string;
}

type Json = Record<string, unknown>;

const CRAWL_STATS_KEY = 'crawlStats';

/** Bytes of pages an iterator over all of them fetches from LevelDB at a time. classic-level's default
 * (16 KiB) is one or two page records (about 11 KB each), so each record cost a trip to LevelDB's thread
 * and back: reading the 106,170 pages of the Rust docs copied five times took 5.8-6.0 s at the
 * default, 3.1-3.4 s at 1 MiB, 4.2-4.6 s at 4 MiB and 3.6-4.1 s at 256 KiB (/tmp/nd/iter.mjs). */
const PAGE_READ_AHEAD_BYTES = 2 ** 20;
// In key order (URL order), with classic-level's own option, which a sublevel hands on to it:
// abstract-level's types do not name it.
const READ_AHEAD = { reverse: false, highWaterMarkBytes: PAGE_READ_AHEAD_BYTES };

export class LevelStore implements Store {
  readonly frontier: Frontier;
  private readonly db: Level<string, Json>;
  private readonly pagesDb;
  private readonly queueDb;
  private readonly seenDb;
  private readonly robotsDb;
  private readonly metaDb;
  private readonly factsDb;
  private readonly refusedDb;
  private readonly rawDb;
  private seq = 0;
  private frontierWrites: Promise<unknown> = Promise.resolve();

  private constructor(
    db: Level<string, Json>,
    private readonly dataDir: string,
  ) {
    this.db = db;
    const json = { valueEncoding: 'json' } as const;
    this.pagesDb = db.sublevel<string, PageRecord>('pages', { valueEncoding: PAGE_ENCODING });
    // The frontier is one sublevel with two key spaces: `q` (the queue, breadth-first) and `s` (seen URLs).
    const frontierDb = db.sublevel<string, Json>('frontier', json);
    this.queueDb = frontierDb.sublevel<string, FrontierEntry>('q', json);
    this.seenDb = frontierDb.sublevel<string, SeenRecord>('s', json);
    this.robotsDb = db.sublevel<string, RobotsCacheEntry>('robots', json);
    this.metaDb = db.sublevel<string, unknown>('meta', json);
    this.factsDb = db.sublevel<string, PageFact>('facts', json);
    this.refusedDb = db.sublevel('refused', { valueEncoding: 'utf8' });
    this.rawDb = db.sublevel<string, Uint8Array>('raw', { valueEncoding: 'view' });
    this.frontier = {
      add: (entries, options) => this.addToFrontier(entries, options?.force ?? false),
      queued: () => this.iterateQueue(),
      seen: async (url) => (await this.read(this.seenDb.get(url))) !== undefined,
      // In line with commits, so the stats a drop writes never run ahead of the pages written.
      drop: (entry, stats) => this.serially(() => this.dropEntry(entry, stats)),
    };
  }

  static async open(dataDir: string, options: OpenStoreOptions = {}): Promise<LevelStore> {
    const path = storePath(dataDir);
    if (!options.mustExist) await mkdir(path, { recursive: true });
    const db = new Level<string, Json>(path, { valueEncoding: 'json', createIfMissing: !options.mustExist });
    try {
      await db.open();
    } catch (e) {
      throw openError(e, dataDir);
    }
    const store = new LevelStore(db, dataDir);
    try {
      await store.checkSchema(dataDir);
      store.seq = await store.lastSeq();
    } catch (e) {
      await db.close();
      throw storeDamageError(e, dataDir) ?? e;
    }
    return store;
  }

  private async checkSchema(dataDir: string): Promise<void> {
    const found = await this.metaDb.get('schema');
    if (found === undefined) {
      // A store with pages but no schema key was not written by Gleaner: refuse rather than guess.
      for await (const _key of this.pagesDb.keys({ limit: 1 })) {
        throw new GleanerError('SCHEMA_MISMATCH', `${dataDir} holds a store without a schema version; use a new --data dir`);
      }
      await this.metaDb.put('schema', { version: STORE_SCHEMA_VERSION });
      return;
    }
    const version = (found as { version?: unknown }).version;
    if (version === 2 || version === 3) {
      // v2 kept each link edge under its own key as well; the page records hold the same links, so
      // dropping the copies loses nothing. Safe to repeat if interrupted: the version moves last.
      if (version === 2) await this.db.sublevel('links').clear();
      await this.buildFacts();
      await this.metaDb.put('schema', { version: STORE_SCHEMA_VERSION });
      return;
    }
    if (version !== STORE_SCHEMA_VERSION) {
      const hint =
        typeof version === 'number' && version > STORE_SCHEMA_VERSION
          ? 'it was written by a newer Gleaner: upgrade Gleaner'
          : 'it was written by an older Gleaner: crawl again into a new --data dir';
      throw new GleanerError(
        'SCHEMA_MISMATCH',
        `${dataDir} has store schema v${String(version)} but this Gleaner reads v${STORE_SCHEMA_VERSION}; ${hint}`,
      );
    }
  }

  /** v3 -> v4: the facts and refused URLs of the pages stored so far, read once from the pages. */
  private async buildFacts(): Promise<void> {
    let ops: BatchOp[] = [];
    const flush = async () => {
      if (ops.length > 0) await this.written(this.db.batch(ops as never));
      ops = [];
    };
    for await (const page of this.pagesDb.values()) {
      ops.push({ type: 'put', sublevel: this.factsDb, key: page.url, value: pageFact(page) });
      const followed = followedUrls(page);
      const seen = followed.length > 0 ? await this.seenDb.getMany(followed) : [];
      followed.forEach((url, i) => {
        if (seen[i] === undefined) ops.push({ type: 'put', sublevel: this.refusedDb, key: url, value: '' });
      });
      if (ops.length >= 1000) await flush();
    }
    await flush();
  }

  private async lastSeq(): Promise<number> {
    let max = 0;
    for await (const key of this.queueDb.keys()) {
      const seq = Number(key.slice(DEPTH_WIDTH + 1));
      if (seq > max) max = seq;
    }
    return max;
  }

  getPage(url: string): Promise<PageRecord | undefined> {
    return this.read(this.pagesDb.get(url));
  }

  pages(): AsyncIterable<PageRecord> {
    return this.readAll(this.pagesDb.values(READ_AHEAD));
  }

  async *packedPages(): AsyncIterable<PackedPage> {
    const utf8 = { ...READ_AHEAD, valueEncoding: 'utf8' };
    const texts = this.pagesDb.values(utf8);
    for await (const text of this.readAll(texts)) yield decodePackedPage(text as unknown as string);
  }

  pageFacts(): AsyncIterable<[string, PageFact]> {
    return this.readAll(this.factsDb.iterator());
  }

  refusedUrls(): AsyncIterable<string> {
    return this.readAll(this.refusedDb.keys());
  }

  seenUrls(): AsyncIterable<string> {
    return this.readAll(this.seenDb.keys());
  }

  private addToFrontier(entries: FrontierEntry[], force: boolean): Promise<QueuedEntry[]> {
    return this.serially(() => this.addToFrontierNow(entries, force));
  }

  private async addToFrontierNow(entries: FrontierEntry[], force: boolean): Promise<QueuedEntry[]> {
    const ops: BatchOp[] = [];
    const added = await this.planAdd(entries, force, ops);
    if (ops.length > 0) await this.written(this.db.batch(ops as never));
    return added;
  }

  /** Appends the writes that queue `entries` to `ops`; returns the entries that will be queued. */
  private async planAdd(entries: FrontierEntry[], force: boolean, ops: BatchOp[]): Promise<QueuedEntry[]> {
    const unique = new Map<string, FrontierEntry>();
    for (const e of entries) if (!unique.has(e.url)) unique.set(e.url, e);
    const urls = [...unique.keys()];
    const seen = urls.length > 0 ? await this.read(this.seenDb.getMany(urls)) : [];
    const added: QueuedEntry[] = [];
    urls.forEach((url, i) => {
      const prior = seen[i];
      if (prior !== undefined && (!force || prior.id !== '')) return; // already queued, or seen and not forced
      const entry = unique.get(url)!;
      const id = queueKey(entry.depth, ++this.seq);
      ops.push({ type: 'put', sublevel: this.queueDb, key: id, value: entry });
      ops.push({ type: 'put', sublevel: this.seenDb, key: url, value: { depth: entry.depth, id } });
      added.push({ ...entry, id });
    });
    return added;
  }

  private async *iterateQueue(): AsyncIterable<QueuedEntry> {
    for await (const [id, entry] of this.readAll(this.queueDb.iterator())) yield { ...entry, id };
  }

  private async dropEntry(entry: QueuedEntry, stats: CrawlStats | undefined): Promise<void> {
    const ops: BatchOp[] = [
      { type: 'del', sublevel: this.queueDb, key: entry.id },
      { type: 'put', sublevel: this.seenDb, key: entry.url, value: { depth: entry.depth, id: '' } },
    ];
    if (stats) ops.push(this.statsOp(stats));
    await this.written(this.db.batch(ops as never));
  }

  /** The write of the crawl stats, for a batch: encoded now, so later changes of `stats` stay out of it
   * (JSON.stringify takes a few µs; the structuredClone it replaces took ~30 µs a page). */
  private statsOp(stats: CrawlStats): BatchOp {
    return { type: 'put', sublevel: this.metaDb, key: CRAWL_STATS_KEY, value: JSON.stringify(stats), valueEncoding: 'utf8' };
  }

  async commitFetch(done: QueuedEntry | undefined, page: PageRecord, discovered: FrontierEntry[], stats?: CrawlStats, refused: readonly string[] = [], raw?: RawResponse): Promise<QueuedEntry[]> {
    const ops: BatchOp[] = [
      { type: 'put', sublevel: this.pagesDb, key: page.url, value: page },
      { type: 'put', sublevel: this.factsDb, key: page.url, value: pageFact(page) },
    ];
    if (raw) ops.push({ type: 'put', sublevel: this.rawDb, key: page.url, value: encodeRawResponse(raw) });
    for (const url of refused) ops.push({ type: 'put', sublevel: this.refusedDb, key: url, value: '' });
    if (stats) ops.push(this.statsOp(stats));
    if (done) {
      ops.push({ type: 'del', sublevel: this.queueDb, key: done.id });
      ops.push({ type: 'put', sublevel: this.seenDb, key: done.url, value: { depth: done.depth, id: '' } });
    }
    return this.serially(async () => {
      const added = await this.planAdd(discovered, false, ops);
      await this.written(this.db.batch(ops as never));
      return added;
    });
  }

  async commitPages(pages: readonly PageWrite[]): Promise<void> {
    const ops: BatchOp[] = [];
    for (const { page, refused } of pages) {
      ops.push({ type: 'put', sublevel: this.pagesDb, key: page.url, value: page });
      ops.push({ type: 'put', sublevel: this.factsDb, key: page.url, value: pageFact(page) });
      for (const url of refused) ops.push({ type: 'put', sublevel: this.refusedDb, key: url, value: '' });
    }
    await this.written(this.db.batch(ops as never));
  }

  /**
   * Runs read-the-seen-set-then-write sections one at a time, so two commits that find the same new URL
   * cannot both queue it (each would read "not seen" before the other's write).
   */
  private serially<T>(section: () => Promise<T>): Promise<T> {
    const run = this.frontierWrites.then(section, section);
    this.frontierWrites = run.catch(() => undefined);
    return run;
  }

  async getRawResponse(url: string): Promise<RawResponse | undefined> {
    const bytes = await this.read(this.rawDb.get(url));
    return bytes === undefined ? undefined : decodeRawResponse(bytes);
  }

  getRobots(origin: string): Promise<RobotsCacheEntry | undefined> {
    return this.read(this.robotsDb.get(origin));
  }

  async putRobots(entry: RobotsCacheEntry): Promise<void> {
    await this.written(this.robotsDb.put(entry.origin, entry));
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.read(this.metaDb.get(key))) as T | undefined;
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    await this.written(this.metaDb.put(key, value));
  }

  getCrawlStats(): Promise<CrawlStats | undefined> {
    return this.getMeta<CrawlStats>(CRAWL_STATS_KEY);
  }

  putCrawlStats(stats: CrawlStats): Promise<void> {
    return this.putMeta(CRAWL_STATS_KEY, stats);
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /**
   * After a repair (repairStore), puts the store's parts back in agreement: a fact for exactly each page
   * kept and, when `requeue` (files were lost), every URL seen but neither stored nor still queued (its
   * page or its queue entry may have been in a lost file) queued again at its depth, so a resumed crawl
   * fetches it. URLs the crawl had dropped (robots.txt, trap rules) look the same and are queued too:
   * the resumed crawl drops them again by the same rules.
   */
  async reconcile(requeue: boolean): Promise<ReconcileSummary> {
    const summary: ReconcileSummary = { pages: 0, factsAdded: 0, factsDropped: 0, requeued: 0 };
    let ops: BatchOp[] = [];
    const flush = async (): Promise<void> => {
      if (ops.length > 0) await this.written(this.db.batch(ops as never));
      ops = [];
    };
    for await (const page of this.readAll(this.pagesDb.values())) {
      summary.pages++;
      if ((await this.read(this.factsDb.get(page.url))) !== undefined) continue;
      ops.push({ type: 'put', sublevel: this.factsDb, key: page.url, value: pageFact(page) });
      summary.factsAdded++;
      if (ops.length >= 1000) await flush();
    }
    for await (const url of this.readAll(this.factsDb.keys())) {
      if ((await this.read(this.pagesDb.get(url))) !== undefined) continue;
      ops.push({ type: 'del', sublevel: this.factsDb, key: url });
      summary.factsDropped++;
      if (ops.length >= 1000) await flush();
    }
    await flush();
    if (!requeue) return summary;
    const queued = new Set<string>();
    for await (const id of this.readAll(this.queueDb.keys())) queued.add(id);
    for await (const [url, seen] of this.readAll(this.seenDb.iterator())) {
      const lost = seen.id === '' ? (await this.read(this.pagesDb.get(url))) === undefined : !queued.has(seen.id);
      if (!lost) continue;
      const id = queueKey(seen.depth, ++this.seq);
      ops.push({ type: 'put', sublevel: this.queueDb, key: id, value: { url, depth: seen.depth, via: 'link' } satisfies FrontierEntry });
      ops.push({ type: 'put', sublevel: this.seenDb, key: url, value: { depth: seen.depth, id } });
      summary.requeued++;
      if (ops.length >= 1000) await flush();
    }
    await flush();
    return summary;
  }

  /** A failed write as a DATA_DIR error ("the disk holding DIR is full") when the disk is the cause. */
  private async written<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (e) {
      throw dataDirError(e, this.dataDir) ?? storeDamageError(e, this.dataDir) ?? e;
    }
  }

  /** A failed read as the error that says how to repair the store, when LevelDB finds it damaged. */
  private async read<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (e) {
      throw storeDamageError(e, this.dataDir) ?? e;
    }
  }

  private async *readAll<T>(items: AsyncIterable<T>): AsyncIterable<T> {
    try {
      for await (const item of items) yield item;
    } catch (e) {
      throw storeDamageError(e, this.dataDir) ?? e;
    }
  }
}

// One batch writes to sublevels of different value types; abstract-level types each op by its sublevel,
// so the ops are typed loosely here and checked where they are built.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySublevel = AbstractSublevel<any, any, string, any>;
type BatchOp = { type: 'put'; sublevel: AnySublevel; key: string; value: unknown; valueEncoding?: 'utf8' } | { type: 'del'; sublevel: AnySublevel; key: string };

/** What LevelStore.reconcile put right. */
export interface ReconcileSummary {
  /** Pages readable. */
  pages: number;
  /** Page facts written for pages that had lost theirs, and dropped for pages that were lost. */
  factsAdded: number;
  factsDropped: number;
  /** URLs queued again: seen, but neither stored nor queued. */
  requeued: number;
}

/** What a failed open means, as a Gleaner error: locked, a disk problem, damaged, or no store there. */
export function openError(e: unknown, dataDir: string): GleanerError {
  const code = (e as { code?: string; cause?: { code?: string } }).cause?.code ?? (e as { code?: string }).code;
  if (code === 'LEVEL_LOCKED') {
    return new GleanerError('STORE_LOCKED', `${dataDir} is in use by another Gleaner process (a crawl or index running?)`, { cause: e });
  }
  const disk = dataDirError(e, dataDir);
  if (disk && errnoCode(e) !== 'ENOENT') return disk;
  // A store whose CURRENT file is there but whose tables or manifest are not readable is damaged, not missing.
  const damage = existsSync(join(storePath(dataDir), 'CURRENT')) ? storeDamageError(e, dataDir) : undefined;
  if (damage) return damage;
  if (code === 'LEVEL_DATABASE_NOT_OPEN' || code === 'LEVEL_IO_ERROR') {
    return new GleanerError('NOT_FOUND', `no crawl store in ${dataDir}: run \`gleaner crawl\` first`, { cause: e });
  }
  return new GleanerError('NOT_FOUND', `cannot open the store in ${dataDir}: ${(e as Error).message}`, { cause: e });
}

/** LevelDB's words for a store it cannot read back: a table cut short or overwritten ("Corruption:
 * checksum mismatch", "IO error: 000007.ldb: Invalid argument"), a file gone ("1 missing files"). */
const LEVEL_DAMAGE_CODES = new Set(['LEVEL_CORRUPTION', 'LEVEL_IO_ERROR']);
/** I/O errors that are the machine's limits, not the store's damage: a repair would not help. */
const MACHINE_LIMITS = /Too many open files|Cannot allocate memory|Interrupted system call/i;

/**
 * `e` as a DATA_DIR error that says the store is damaged and how to keep what is left, when LevelDB
 * reports damage (after power loss on a disk that lied about its writes, or a file edited by hand);
 * undefined otherwise. A full or read-only disk is dataDirError's: repair would not help.
 */
/** The most of LevelDB's message a damage line quotes: it quotes a damaged CURRENT whole (a CLI probe
 * saw a line of 100 KB), bytes a terminal would act on included. */
const MAX_LEVEL_MESSAGE_CHARS = 200;

/** LevelDB's message as one short line a terminal shows as it is: its first line, controls as `?`, cut. */
function levelMessage(message: string): string {
  const line = (message.split('\n')[0] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return line.length > MAX_LEVEL_MESSAGE_CHARS ? `${line.slice(0, MAX_LEVEL_MESSAGE_CHARS)}…` : line;
}

export function storeDamageError(e: unknown, dataDir: string): GleanerError | undefined {
  if (e instanceof GleanerError || dataDirError(e, dataDir) !== undefined) return undefined;
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && LEVEL_DAMAGE_CODES.has(code) && typeof message === 'string' && !MACHINE_LIMITS.test(message)) {
      return new GleanerError(
        'DATA_DIR',
        `the page store in ${dataDir} is damaged (LevelDB: ${levelMessage(message)}): \`gleaner repair --data ${shellWord(dataDir)}\` keeps every page it can still read`,
        { cause: e },
      );
    }
  }
  return undefined;
}

/** Opens the embedded default store. */
export function openStore(dataDir: string, options: OpenStoreOptions = {}): Promise<Store> {
  return LevelStore.open(dataDir, options);
}
