// The shared frontier: the crawl's URL queues, politeness schedule and per-host leases in one Redis, so
// any number of crawler processes on any machines cooperate on one crawl and hold each host's delay
// together. Every decision is one Lua script (frontier-redis-lua.ts) run atomically by Redis on Redis's
// clock. A worker takes a lease on a host (one live lease per host, so one request in flight per host),
// fetches the URL, and returns the lease with the delay it chose; the host is not leased again before
// that delay has passed, whichever worker asks. A lease carries a deadline (a dead worker's host comes
// back) and a fencing token (a worker whose lease expired changes nothing when it comes back).
// On a host whose last delay was 0, a lease may take a batch of its URLs, each pending from the start,
// which the worker asks one after another and frees the host after (see leaseHost in the Lua).
//
// Guarantees need Redis with `appendonly yes` and `appendfsync always`: with `everysec` a Redis crash
// loses up to a second of returned leases, and their pages are fetched again (no page is lost, but a
// host may be asked sooner than its delay after the restart). See DESIGN.md "Shared frontier in Redis".

import { createHash, randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { GleanerError } from '../shared/errors.js';
import { ADD_LUA, COMPLETE_LUA, COUNTS_LUA, DROP_HOST_LUA, EXTEND_LUA, EXTEND_PENDING_LUA, FINISH_LUA, FREE_LUA, REQUEUE_LUA, LEASE_LUA, OPEN_LUA, RELEASE_LUA } from './frontier-redis-lua.js';
import type { AgainPlace } from './frontier.js';

/** The marker value: a db marked otherwise was written by another version of the frontier's layout. */
const MARKER = 'gleaner-frontier 1';
/** Queue scores are depth * DEPTH_SCALE + order, so a URL's depth is its score / DEPTH_SCALE; a retry's
 * is (LAST_DEPTHS + depth) * DEPTH_SCALE + order, behind every depth (frontier-redis-lua.ts requeue). */
const DEPTH_SCALE = 1e12;
const LAST_DEPTHS = 4000;

export interface RedisFrontierOptions {
  /** Prefix of every key, so a db's keys say whose they are. */
  prefix: string;
  /** Give up connecting (and checking the db) after this long: an unreachable Redis is one clear error. */
  connectTimeoutMs: number;
  /** Once open, how long a command waits for Redis (reconnecting meanwhile) before it fails with
   * UNREACHABLE: a Redis restarted is waited for, one gone or hung for longer stops the crawl. */
  commandTimeoutMs: number;
  /** URLs per add script: one script blocks Redis while it runs, so a large add is cut into steps. */
  addBatchSize: number;
  /** The politeness unit of a URL; the crawler's is the origin (scheme, host, port), robots.txt's unit. */
  hostOf: (url: string) => string;
}

export const REDIS_FRONTIER_DEFAULTS: RedisFrontierOptions = {
  prefix: 'gleaner:',
  connectTimeoutMs: 5000,
  commandTimeoutMs: 120_000,
  addBatchSize: 1000,
  hostOf: (url) => new URL(url).origin,
};

/** A URL to queue, at its link distance from a seed: the store's FrontierEntry as Redis keeps it (the
 * rest of it in `data`, frontier-shared.ts). */
export interface RedisEntry {
  url: string;
  depth: number;
  /** The caller's own data about the URL (opaque here), given back with its lease. */
  data?: string;
}

/** The right to fetch one URL of one host, until `deadlineMs` (Redis time, ms since the epoch). */
export interface FrontierLease {
  host: string;
  url: string;
  depth: number;
  /** The data the URL was queued with, '' when none. */
  data: string;
  /** Fencing token: unique over the crawl; a lease is returned only with the token it was given. */
  token: string;
  deadlineMs: number;
  /** Redis time when the lease was taken: deadlineMs - nowMs is the lease's length on Redis's clock. */
  nowMs: number;
  /** A batch lease (asked for with batch > 1, on a host whose last delay was 0): the host's further URLs
   * it took, same token and deadline, to ask one after another. Every URL of a batch, this one too, is
   * pending from the start: each ends by finish or requeue, and the host by free. Undefined: a single lease. */
  more?: FrontierLease[];
}

export type LeaseResult =
  | { kind: 'lease'; lease: FrontierLease }
  /** Nothing may be asked now; the soonest host (or a lease's deadline) comes in waitMs. Another worker
   * returning a lease can make a host ready sooner, so a caller polls at least every few hundred ms. */
  | { kind: 'wait'; waitMs: number }
  /** No URL queued and no lease live: the crawl is over, unless a new add comes. */
  | { kind: 'empty' };

/** A lease returned late: it expired (and may be held by another worker now) or was returned already. */
export interface Stale {
  kind: 'stale';
}

export type CompleteResult = { kind: 'ok'; linksAdded: number; nextAllowedMs: number } | Stale;
export type ReleaseResult = { kind: 'ok'; nextAllowedMs: number } | Stale;
export type ExtendResult = { kind: 'ok'; deadlineMs: number } | Stale;

export interface FrontierCounts {
  /** URLs waiting in host queues (leased ones not included). */
  queued: number;
  /** Leases held, expired ones included until a lease call reclaims them. */
  leased: number;
  /** Pages completed (complete() calls that were not stale). */
  done: number;
  /** Distinct URLs ever queued. */
  seen: number;
  /** Leases (and pending pages) that expired and were taken back. */
  reclaimed: number;
  /** Pages whose request is over (host freed) but which are not finished yet. */
  pending: number;
}

interface Script {
  lua: string;
  sha: string;
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

const SCRIPTS = {
  open: script(OPEN_LUA),
  add: script(ADD_LUA),
  lease: script(LEASE_LUA),
  complete: script(COMPLETE_LUA),
  release: script(RELEASE_LUA),
  extend: script(EXTEND_LUA),
  dropHost: script(DROP_HOST_LUA),
  free: script(FREE_LUA),
  finish: script(FINISH_LUA),
  requeue: script(REQUEUE_LUA),
  extendPending: script(EXTEND_PENDING_LUA),
  counts: script(COUNTS_LUA),
};

/** ioredis options for a frontier URL: redis://[:password@]HOST:PORT/DB (rediss:// for TLS) or
 * unix:///path/to/redis.sock?db=N. Throws BAD_ARGUMENT for anything else. */
export function redisConnection(url: string): { options: RedisOptions; shown: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new GleanerError('BAD_ARGUMENT', `frontier "${url}" is not a URL: give redis://HOST:PORT/DB or unix:///path/to/redis.sock?db=N`);
  }
  const db = (text: string | null): number => {
    if (text === null || text === '') return 0;
    if (!/^\d+$/.test(text)) throw new GleanerError('BAD_ARGUMENT', `frontier "${url}": the database must be a number, not "${text}"`);
    return Number(text);
  };
  const auth = { username: decodeURIComponent(u.username) || undefined, password: decodeURIComponent(u.password) || undefined };
  if (u.protocol === 'unix:') {
    return { options: { ...auth, path: u.pathname, db: db(u.searchParams.get('db')) }, shown: `unix://${u.pathname}` };
  }
  if (u.protocol === 'redis:' || u.protocol === 'rediss:') {
    const options: RedisOptions = { ...auth, host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port === '' ? 6379 : Number(u.port), db: db(u.pathname.slice(1)) };
    if (u.protocol === 'rediss:') options.tls = {};
    return { options, shown: `${u.protocol}//${u.host}${u.pathname}` };
  }
  throw new GleanerError('BAD_ARGUMENT', `frontier "${url}": give redis://HOST:PORT/DB or unix:///path/to/redis.sock?db=N`);
}

/** A lease from a script's reply {'lease', host, url, score, token, deadline, now, data, batch, then url,
 * score, data of a batch's further URLs}. */
function leaseFrom(r: string[]): FrontierLease {
  const [, host, url, score, token, deadline, now, data, batch] = r as [string, string, string, string, string, string, string, string, string];
  const one = (u: string, s: string, d: string): FrontierLease => ({ host, url: u, depth: Math.floor(Number(s) / DEPTH_SCALE) % LAST_DEPTHS, data: d, token, deadlineMs: Number(deadline), nowMs: Number(now) });
  const lease = one(url, score, data);
  if (batch === '1') {
    lease.more = [];
    for (let i = 9; i + 2 < r.length; i += 3) lease.more.push(one(r[i]!, r[i + 1]!, r[i + 2]!));
  }
  return lease;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The crawl frontier shared through one Redis database. Open it with `RedisFrontier.open`. */
export class RedisFrontier {
  /** Set once a command went unanswered for commandTimeoutMs: the crawl stops on that error, so every
   * later call (the leases given back as it stops, the close) fails at once with it instead of each
   * waiting the whole timeout again (a crawl sent ~16 of them and took 232 s to exit, not 120). */
  private silent: GleanerError | undefined;

  private constructor(
    private readonly redis: Redis,
    private readonly options: RedisFrontierOptions,
    /** The server as error messages name it. */
    private readonly shown: string,
  ) {}

  /**
   * Connects to the Redis at `url` (see redisConnection) and claims its db for the frontier. Guarantees:
   * within connectTimeoutMs either an open frontier or one GleanerError (UNREACHABLE, with the address and
   * the reason); a db holding keys but no `<prefix>marker` is refused (BAD_ARGUMENT) and left untouched;
   * an empty db is marked. Once open, a lost connection is retried without end (commands wait), so a
   * Redis restart pauses the workers instead of failing them.
   */
  static async open(url: string, options: Partial<RedisFrontierOptions> = {}): Promise<RedisFrontier> {
    const opts = { ...REDIS_FRONTIER_DEFAULTS, ...options };
    const { options: connection, shown } = redisConnection(url);
    let opened = false;
    let lastError: unknown;
    const redis = new Redis({
      ...connection,
      lazyConnect: true,
      connectTimeout: opts.connectTimeoutMs,
      maxRetriesPerRequest: null,
      commandTimeout: opts.commandTimeoutMs,
      // Before open: no retry (one clear error). After: back off up to 2 s, for ever.
      retryStrategy: (times) => (opened ? Math.min(times * 100, 2000) : null),
    });
    // ioredis reports connection trouble as events; without a listener Node prints them as unhandled.
    redis.on('error', (e: unknown) => {
      lastError = e;
    });
    const unreachable = (why: string) => new GleanerError('UNREACHABLE', `cannot reach the Redis frontier at ${shown}: ${why}`, { cause: lastError });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(unreachable(`no answer within ${String(opts.connectTimeoutMs)} ms`));
      }, opts.connectTimeoutMs);
    });
    const frontier = new RedisFrontier(redis, opts, shown);
    try {
      const claim = await Promise.race([
        (async () => {
          try {
            await redis.connect();
          } catch (e) {
            throw unreachable(errorText(lastError ?? e));
          }
          // ioredis selects the db as it connects, but a SELECT the server refuses (a db number past its
          // `databases`) left the connection on db 0, where another crawl may live: asked again, it fails.
          const db = connection.db ?? 0;
          try {
            await redis.select(db);
          } catch (e) {
            throw new GleanerError('BAD_ARGUMENT', `the Redis at ${shown} has no database ${String(db)} (${errorText(e)}): give a db number below its \`databases\` setting (16 by default)`);
          }
          return frontier.run(SCRIPTS.open, [MARKER]);
        })(),
        timeout,
      ]);
      if (claim === 'foreign') {
        throw new GleanerError('BAD_ARGUMENT', `the Redis db at ${shown} holds keys of another program (no ${opts.prefix}marker key); Gleaner will not write into it: give an empty db (another /DB number) or empty this one yourself`);
      }
      if (typeof claim === 'string' && claim.startsWith('other:')) {
        throw new GleanerError('SCHEMA_MISMATCH', `the Redis db at ${shown} holds a frontier of another Gleaner version ("${claim.slice(6)}", this one writes "${MARKER}"): give an empty db`);
      }
      opened = true;
      return frontier;
    } catch (e) {
      redis.disconnect();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection (waits for replies to commands already sent). */
  async close(): Promise<void> {
    if (this.silent !== undefined) {
      // QUIT would wait the command timeout too: nothing sent is answered.
      this.redis.disconnect();
      return;
    }
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  /** Runs a script by its SHA1, loading it on NOSCRIPT (first use, or a Redis restarted since). */
  private async run(s: Script, args: (string | number)[]): Promise<unknown> {
    if (this.silent !== undefined) throw this.silent;
    const argv = [this.options.prefix, ...args.map(String)];
    try {
      try {
        return await this.redis.evalsha(s.sha, 0, ...argv);
      } catch (e) {
        if (!errorText(e).startsWith('NOSCRIPT')) throw e;
        return await this.redis.eval(s.lua, 0, ...argv);
      }
    } catch (e) {
      throw this.unanswered(e);
    }
  }

  /** A command that timed out as the crawl's UNREACHABLE error; a write refused for want of memory (Redis
   * at its `maxmemory` with no eviction, which a frontier must not have) as a full store, DATA_DIR: each
   * stops the crawl in one line with its pages kept, not as a bug. Any other error as it is. */
  private unanswered(e: unknown): unknown {
    const text = errorText(e);
    if (text.startsWith('OOM ')) {
      return new GleanerError('DATA_DIR', `the Redis frontier at ${this.shown} is full (${text}): raise its maxmemory or free memory`, { cause: e });
    }
    if (text !== 'Command timed out') return e;
    return (this.silent ??= new GleanerError('UNREACHABLE', `the Redis frontier at ${this.shown} did not answer for ${String(this.options.commandTimeoutMs / 1000)} s`, { cause: e }));
  }

  /** Runs a script once per argument list, all sent in one write (a pipeline: Redis wakes once for them);
   * each still runs atomically on its own. A call refused NOSCRIPT is run again through `run`. */
  private async runEach(s: Script, argsList: readonly (string | number)[][]): Promise<unknown[]> {
    if (this.silent !== undefined) throw this.silent;
    const pipeline = this.redis.pipeline();
    for (const args of argsList) pipeline.evalsha(s.sha, 0, this.options.prefix, ...args.map(String));
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await pipeline.exec();
    } catch (e) {
      throw this.unanswered(e);
    }
    if (replies === null) throw new Error('Redis answered a pipeline with nothing');
    return Promise.all(
      replies.map(([error, reply], i) => {
        if (error === null) return reply;
        if (errorText(error).startsWith('NOSCRIPT')) return this.run(s, argsList[i]!);
        throw this.unanswered(error);
      }),
    );
  }

  private quads(entries: readonly RedisEntry[]): string[] {
    return entries.flatMap((e) => [this.options.hostOf(e.url), e.url, String(Math.max(0, Math.floor(e.depth))), e.data ?? '']);
  }

  /**
   * Queues the URLs not seen before in this crawl (the seen set is exact: a URL is queued once, ever),
   * each at the back of its depth in its host's queue, so each host is crawled breadth-first. A host
   * with a new URL becomes ready at its next allowed time unless it is leased. Returns how many were new.
   */
  async add(entries: readonly RedisEntry[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < entries.length; i += this.options.addBatchSize) {
      added += Number(await this.run(SCRIPTS.add, this.quads(entries.slice(i, i + this.options.addBatchSize))));
    }
    return added;
  }

  /**
   * Takes the next URL of the first host whose next allowed time (Redis clock) has come and that has no
   * live lease, for `leaseMs`. At most one live lease per host exists at any time, whatever the number of
   * workers. Leases past their deadline are reclaimed first: the URL goes back to its place in its host's
   * queue (as release does) and the host may be asked again after its last delay, counted from the deadline
   * (the dead worker's request may have run until then). `leaseMs` must exceed the worker's whole fetch
   * deadline, so that a worker whose lease expired has stopped its request. A call sent again with the
   * same `requestId` (the client resends after a reconnect) answers with the lease the first one took.
   * With `batch` > 1, a host whose last delay was 0 is leased with up to that many URLs (`more`).
   */
  async lease(workerId: string, leaseMs: number, requestId = `r:${randomUUID()}`, batch = 1): Promise<LeaseResult> {
    const r = (await this.run(SCRIPTS.lease, [workerId, Math.ceil(leaseMs), requestId, batch])) as string[];
    if (r[0] === 'empty') return { kind: 'empty' };
    if (r[0] === 'wait') return { kind: 'wait', waitMs: Number(r[1]) };
    return { kind: 'lease', lease: leaseFrom(r) };
  }

  /**
   * Returns a live lease with the page done, in one atomic step: the host's next allowed time becomes
   * Redis's now + `delayMs` (the caller's choice: Crawl-delay, --delay, Retry-After or backoff), the
   * page's new links are queued (seen set checked) and the page counts as done. A lease that is no longer
   * live (past its deadline, re-leased, or returned already) changes nothing and gives `stale`: the
   * caller drops its work, which another worker does (or did) again.
   */
  async complete(lease: FrontierLease, done: { delayMs: number; newLinks?: readonly RedisEntry[]; outcome?: string }): Promise<CompleteResult> {
    const r = (await this.run(SCRIPTS.complete, [lease.host, lease.token, Math.ceil(done.delayMs), done.outcome ?? 'ok', ...this.quads(done.newLinks ?? [])])) as (string | number)[];
    if (r[0] === 'stale') return { kind: 'stale' };
    return { kind: 'ok', linksAdded: Number(r[1]), nextAllowedMs: Number(r[2]) };
  }

  /**
   * Returns a live lease without the page (to ask it again: a transient failure): the URL goes back to
   * its place in its host's queue, its old score, so it is next unless URLs of a lower depth came since
   * (breadth-first order holds), and the host waits `delayMs` from now. Not live: `stale`,
   * nothing changed.
   */
  async release(lease: FrontierLease, delayMs: number, place: AgainPlace = 'its-place'): Promise<ReleaseResult> {
    const r = (await this.run(SCRIPTS.release, [lease.host, lease.token, Math.ceil(delayMs), place === 'last' ? 'last' : ''])) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    return { kind: 'ok', nextAllowedMs: Number(r[1]) };
  }

  /**
   * The lease's request is over: the host may be asked again after `delayMs` (from Redis's now), by any
   * worker, while this worker parses and stores the page. The URL stays **pending** under the same token
   * and deadline until `finish` (done, links queued) or `requeue` (asked again later); a worker that dies
   * meanwhile loses it at the deadline and the URL goes back to its queue. Splitting the lease this way
   * keeps one request per host without holding the host through the page's parsing and storing.
   * A batch lease's URLs are pending already; `giveBack` names those not asked (the batch was cut
   * short), which go back to their queue. `renew`: see FREE_LUA.
   */
  async free(lease: FrontierLease, delayMs: number, renew?: { workerId: string; leaseMs: number; batch?: number }, giveBack: readonly string[] = []): Promise<ReleaseResult & { next?: FrontierLease }> {
    const args: (string | number)[] = [lease.host, lease.token, Math.ceil(delayMs), lease.url, renew?.workerId ?? '', Math.ceil(renew?.leaseMs ?? 0), renew?.batch ?? 1, ...giveBack];
    const r = (await this.run(SCRIPTS.free, args)) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    const freed = { kind: 'ok' as const, nextAllowedMs: Number(r[1]) };
    return r[2] === 'lease' ? { ...freed, next: leaseFrom(r.slice(2)) } : freed;
  }

  /** A pending page is done: counted, and its links queued, in one atomic step. Not live: `stale`. */
  async finish(lease: FrontierLease, done: { newLinks?: readonly RedisEntry[]; outcome?: string }): Promise<{ kind: 'ok'; linksAdded: number } | Stale> {
    const r = (await this.run(SCRIPTS.finish, [lease.url, lease.token, done.outcome ?? 'ok', ...this.quads(done.newLinks ?? [])])) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    return { kind: 'ok', linksAdded: Number(r[1]) };
  }

  /** `finish` for several pending pages, in one round trip; answers in the order given. */
  async finishAll(pages: readonly { lease: FrontierLease; done: { newLinks?: readonly RedisEntry[]; outcome?: string } }[]): Promise<({ kind: 'ok'; linksAdded: number } | Stale)[]> {
    if (pages.length === 1) return [await this.finish(pages[0]!.lease, pages[0]!.done)];
    const replies = (await this.runEach(
      SCRIPTS.finish,
      pages.map(({ lease, done }) => [lease.url, lease.token, done.outcome ?? 'ok', ...this.quads(done.newLinks ?? [])]),
    )) as string[][];
    return replies.map((r) => (r[0] === 'stale' ? { kind: 'stale' } : { kind: 'ok', linksAdded: Number(r[1]) }));
  }

  /** A pending URL back to its place in its host's queue, or `last`, behind every URL of its host (a
   * retry). Not live: `stale`. */
  async requeue(lease: FrontierLease, place: AgainPlace = 'its-place'): Promise<{ kind: 'ok' } | Stale> {
    const r = (await this.run(SCRIPTS.requeue, [lease.url, lease.token, place === 'last' ? 'last' : ''])) as string[];
    return r[0] === 'stale' ? { kind: 'stale' } : { kind: 'ok' };
  }

  /** Moves a pending page's deadline to Redis's now + `leaseMs`. Not live: `stale`. */
  async extendPending(lease: FrontierLease, leaseMs: number): Promise<ExtendResult> {
    const r = (await this.run(SCRIPTS.extendPending, [lease.url, lease.token, Math.ceil(leaseMs)])) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    lease.deadlineMs = Number(r[1]);
    return { kind: 'ok', deadlineMs: lease.deadlineMs };
  }

  /** Empties the queue of a host whose live lease this is (its site is given up); returns the URLs
   * dropped. The lease itself stays live, to be completed. Not live: `stale`, nothing changed. */
  async dropHost(lease: FrontierLease): Promise<{ kind: 'ok'; urls: string[] } | Stale> {
    const r = (await this.run(SCRIPTS.dropHost, [lease.host, lease.token])) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    return { kind: 'ok', urls: r.slice(1) };
  }

  /** Moves a live lease's deadline to Redis's now + `leaseMs` (a long download), in `lease.deadlineMs`
   * too; not live: `stale`, nothing changed. */
  async extend(lease: FrontierLease, leaseMs: number): Promise<ExtendResult> {
    const r = (await this.run(SCRIPTS.extend, [lease.host, lease.token, Math.ceil(leaseMs)])) as string[];
    if (r[0] === 'stale') return { kind: 'stale' };
    lease.deadlineMs = Number(r[1]);
    return { kind: 'ok', deadlineMs: lease.deadlineMs };
  }

  /** Queued, leased, done, seen and reclaimed, read in one atomic step (they add up at one instant). */
  async counts(): Promise<FrontierCounts> {
    const [queued, leased, done, seen, reclaimed, pending] = ((await this.run(SCRIPTS.counts, [])) as number[]).map(Number) as [number, number, number, number, number, number];
    return { queued, leased, done, seen, reclaimed, pending };
  }

  /** Redis's clock (ms since the epoch): the one clock every frontier decision reads. */
  async redisTimeMs(): Promise<number> {
    const [s, us] = await this.redis.time();
    return Number(s) * 1000 + Math.floor(Number(us) / 1000);
  }
}
