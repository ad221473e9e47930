// The shared frontier: the crawl loop's frontier on Redis (frontier-redis.ts), for any number of crawler
// processes on any machines. A ticket is a lease on its host, so one request is in flight per host in the
// whole crawl. When the request ends the host is freed (`free`: it may be asked again after its delay,
// counted from the end of the response) and the URL stays pending under the lease's token; once the page
// is committed to the shared store, `finish` counts it and queues its links in one atomic step. A lease
// is extended while its page is being worked on, so only a process that died (or lost Redis for longer
// than the lease) loses it, and then its URL goes back to the queue.
//
// A host with no delay is leased in batches: one lease takes several of its URLs, which this process asks
// one after another (still one request at a time) with no round trip to Redis between them; the host is
// freed after the last. Freeing the host after each page put a Redis round trip (~2 ms, an fsync in it)
// between every two requests, which on the Rust docs at --delay 0 was half the time per page.
//
// Pages are committed in groups (commit-batch.ts): those that finish within a few milliseconds of each
// other are written to PostgreSQL in one statement, then finished in Redis in one round trip.

import { GleanerError, isGleanerError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { CrawlStats, FrontierEntry, PageRecord, QueuedEntry, RawResponse, Store } from '../shared/store/index.js';
import { CommitBatch, type CommitBatchOptions } from './commit-batch.js';
import { markEnded, ticketFor, type AgainPlace, type CrawlFrontier, type FrontierHostState, type FrontierPick, type Ticket } from './frontier.js';
import { RedisFrontier, type FrontierCounts, type RedisEntry, type FrontierLease } from './frontier-redis.js';

export interface SharedFrontierOptions {
  /** Names this process in its leases (shown to whoever reads Redis). */
  workerId: string;
  /** A lease's length: longer than a request's whole deadline, so a request never outlives its lease. */
  leaseMs: number;
  /** Longest wait between two lease calls while nothing is ready: another process returning a lease
   * can make a host ready sooner than the wait Redis gives. */
  pollMs: number;
  /** How often the live status reads the whole crawl's counts from Redis. */
  countsIntervalMs: number;
  /** The crawl's default pause between two requests to one host, until robots.txt says otherwise. */
  delayMs: number;
  /** A request's whole deadline: a batch's next URL is asked only while its lease has that long left. */
  requestMs: number;
  /** URLs one lease takes on a host whose delay is 0 (a batch); 1: one URL per lease. */
  batchUrls: number;
  /** How long a Redis call waits for an answer before the crawl stops (RedisFrontierOptions.commandTimeoutMs). */
  redisTimeoutMs: number;
  /** Pages committed together (commit-batch.ts). */
  commitBatch: CommitBatchOptions;
  hostOf: (url: string) => string;
  log: Logger;
}

/** What a queued URL carries beyond its URL and depth, kept beside it in Redis. */
type EntryData = Omit<FrontierEntry, 'url' | 'depth'>;

function toRedis(e: FrontierEntry): RedisEntry {
  const { url, depth, ...rest } = e;
  const data: EntryData = rest;
  if ('id' in data) delete (data as { id?: string }).id;
  return { url, depth, data: JSON.stringify(data) };
}

function fromLease(lease: FrontierLease): QueuedEntry {
  let data: EntryData = { via: 'link' };
  if (lease.data !== '') data = JSON.parse(lease.data) as EntryData;
  return { ...data, url: lease.url, depth: lease.depth, id: lease.token };
}

/** A batch lease as this process works through it. */
interface Batch {
  /** The host's lease (its first URL's): extended, and freed after the last URL. */
  readonly lease: FrontierLease;
  /** Its URLs not handed out yet, in queue order. */
  readonly rest: FrontierLease[];
  /** performance.now() until which the lease surely lives (measured from before the call that took or
   * extended it): a URL is asked only if its request ends before then. */
  validUntil: number;
  /** The ticket holding the host: handed out, its request not over. */
  current?: Ticket;
  /** The host was freed: the batch's tickets still being stored are plain pending pages. */
  done: boolean;
}

/** A lease to hand out, and the batch it is part of. */
interface Leased {
  lease: FrontierLease;
  batch?: Batch;
  /** performance.now() until which a lease of its own (not a batch's) surely lives, as Batch.validUntil. */
  validUntil: number;
}

/** A ticket's lease, and once its request is over, whether freeing the host went through. */
interface Held {
  lease: FrontierLease;
  /** As Leased.validUntil; a batch's ticket reads its batch's. */
  validUntil: number;
  /** Set at `ended`: resolves true once the host is free and the URL pending, false when the lease had
   * expired. A batch's URL is pending from the start. */
  freed?: Promise<boolean>;
  batch?: Batch;
}

const PENDING = Promise.resolve(true);

/** A page waiting in its group to be stored and finished. */
interface ToCommit {
  ticket: Ticket;
  page: PageRecord;
  links: FrontierEntry[];
  refused: readonly string[];
}

export class SharedFrontier implements CrawlFrontier {
  readonly shared = true;
  private readonly held = new Map<Ticket, Held>();
  private readonly delays = new Map<string, number>();
  /** Leases taken in the same step as freeing a host with no delay left, and a batch's next URL:
   * handed out by next() first. */
  private readonly renewed: Leased[] = [];
  /** Batches whose host is still leased to this process. */
  private readonly batches = new Set<Batch>();
  /** Frees under way (a renewed lease may come from any of them). */
  private readonly freeing = new Set<Promise<boolean>>();
  /** performance.now() until which Redis said no host may be asked (at most pollMs ahead): next()
   * answers the rest of that wait itself. The loop asks after every page it ends, and on one leased
   * host each of those lease calls (a script scanning the schedule) found nothing: one per page. */
  private waitUntil = 0;
  private counts: FrontierCounts | undefined;
  private countsReadAt = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly commits: CommitBatch<ToCommit>;

  private constructor(
    private readonly redis: RedisFrontier,
    private readonly store: Store,
    private readonly options: SharedFrontierOptions,
  ) {
    // Extends every lease this process holds a few times per lease length, so a page that takes long to
    // parse or store (PostgreSQL restarting) keeps its place; a dead process stops extending.
    this.heartbeat = setInterval(() => void this.extendAll(), Math.max(100, Math.floor(options.leaseMs / 3)));
    this.heartbeat.unref();
    this.commits = new CommitBatch((group) => this.commitGroup(group), options.commitBatch);
  }

  /** Opens the Redis frontier at `url` (one UNREACHABLE or BAD_ARGUMENT line when it cannot be used). */
  static async open(url: string, store: Store, options: SharedFrontierOptions): Promise<SharedFrontier> {
    const redis = await RedisFrontier.open(url, { hostOf: options.hostOf, commandTimeoutMs: options.redisTimeoutMs });
    return new SharedFrontier(redis, store, options);
  }

  private async extendAll(): Promise<void> {
    for (const b of this.batches) {
      const sentAt = performance.now();
      try {
        const r = await this.redis.extend(b.lease, this.options.leaseMs);
        if (r.kind === 'ok') b.validUntil = sentAt + this.options.leaseMs;
        else if (!b.done) this.options.log('warn', 'batch lease lost; another process will ask its URLs again', { host: b.lease.host });
      } catch {
        // Redis away: as below.
      }
    }
    for (const [ticket, h] of this.held) {
      if (h.batch && !h.batch.done) continue; // extended with its batch
      try {
        const sentAt = performance.now();
        const r = h.freed && (await h.freed) ? await this.redis.extendPending(h.lease, this.options.leaseMs) : await this.redis.extend(h.lease, this.options.leaseMs);
        if (r.kind === 'ok') h.validUntil = sentAt + this.options.leaseMs;
        if (r.kind === 'stale' && this.held.has(ticket)) this.options.log('warn', 'lease lost; another process will ask this URL again', { url: ticket.entry.url });
      } catch {
        // Redis away: the next beat tries again; the lease runs to its deadline meanwhile.
      }
    }
  }

  async start(seeds: FrontierEntry[], again: FrontierEntry[]): Promise<QueuedEntry[]> {
    if (again.length > 0) throw new GleanerError('BAD_ARGUMENT', 'a recrawl (--recrawl) runs on one machine: it is not available with --frontier');
    await this.redis.add(seeds.map(toRedis));
    return [];
  }

  async next(): Promise<FrontierPick> {
    // A free under way may bring the host's next URL: waiting for it (one round trip) is quicker
    // than a lease call that finds the host still leased.
    if (this.renewed.length === 0 && this.freeing.size > 0) await Promise.race(this.freeing);
    const renewed = this.renewed.shift();
    if (renewed) return { ticket: this.hold(renewed) };
    const sentAt = performance.now();
    if (this.waitUntil > sentAt) return { waitMs: this.waitUntil - sentAt };
    const r = await this.redis.lease(this.options.workerId, this.options.leaseMs, undefined, this.options.batchUrls);
    if (r.kind === 'empty') return { empty: true };
    if (r.kind === 'wait') {
      const waitMs = Math.min(r.waitMs, this.options.pollMs);
      this.waitUntil = sentAt + waitMs;
      return { waitMs };
    }
    return { ticket: this.hold(this.accept(r.lease, sentAt)) };
  }

  /** A lease Redis gave (to a call sent at `sentAt`), with its batch when it is one. */
  private accept(lease: FrontierLease, sentAt: number): Leased {
    const validUntil = sentAt + lease.deadlineMs - lease.nowMs;
    if (!lease.more) return { lease, validUntil };
    const batch: Batch = { lease, rest: lease.more, validUntil, done: false };
    this.batches.add(batch);
    return { lease, batch, validUntil };
  }

  private hold({ lease, batch, validUntil }: Leased): Ticket {
    const ticket = ticketFor(fromLease(lease), lease.host);
    if (batch) {
      batch.current = ticket;
      this.held.set(ticket, { lease, batch, freed: PENDING, validUntil });
    } else {
      this.held.set(ticket, { lease, validUntil });
    }
    return ticket;
  }

  /**
   * Whether the ticket's lease still covers a whole request, asked just before the request is sent. A
   * live process extends its leases on every heartbeat, so this is a look at the clock; a process that
   * stalled (a machine asleep, a VM paused, a debugger) may find its lease run out and its host another
   * process's: it then extends the lease in Redis and, if the lease is gone, must not ask the site.
   */
  async confirm(ticket: Ticket): Promise<boolean> {
    const h = this.held.get(ticket);
    if (!h) return false;
    const b = h.batch;
    const sentAt = performance.now();
    if (sentAt + this.options.requestMs < (b ? b.validUntil : h.validUntil)) return true;
    const r = await this.redis.extend(b ? b.lease : h.lease, this.options.leaseMs);
    if (r.kind !== 'ok') return false;
    if (b) b.validUntil = sentAt + this.options.leaseMs;
    else h.validUntil = sentAt + this.options.leaseMs;
    return true;
  }

  async add(entries: FrontierEntry[]): Promise<void> {
    await this.redis.add(entries.map(toRedis));
  }

  /** The request is over: the host is freed in Redis at once (its delay from now), so the next request
   * to it, from any process, need not wait for this page's parsing and storing. */
  ended(ticket: Ticket, at: number, extraWaitMs = 0): void {
    if (!markEnded(ticket, at, extraWaitMs)) return;
    const h = this.held.get(ticket);
    if (!h) return;
    if (h.batch) {
      this.step(h.batch, ticket);
      return;
    }
    h.freed = this.free(h.lease, this.waitLeft(ticket), true, []);
  }

  /**
   * Frees the lease's host in Redis, its delay `wait` from now (see RedisFrontier.free); `giveBack`: a
   * batch's URLs not asked. With no wait left and `renew`, the host's next URL (or batch) is taken for
   * this process in the same step and handed out by next(). Resolves whether the lease was still live.
   */
  private free(lease: FrontierLease, wait: number, renew: boolean, giveBack: readonly string[]): Promise<boolean> {
    const sentAt = performance.now();
    this.waitUntil = 0; // the schedule changed: the next lease call sees it
    const again = renew && wait === 0 ? { workerId: this.options.workerId, leaseMs: this.options.leaseMs, batch: this.options.batchUrls } : undefined;
    const freed = this.redis.free(lease, wait, again, giveBack).then(
      (r) => {
        if (r.kind === 'ok' && r.next) this.renewed.push(this.accept(r.next, sentAt));
        return r.kind === 'ok';
      },
      (e: unknown) => {
        // Redis not answering is the crawl's to report: it stops in one line naming it, or, once
        // Redis answers again, the lease merely runs to its deadline. Any other failure is a warning.
        const unanswered = isGleanerError(e) && e.code === 'UNREACHABLE';
        this.options.log(unanswered ? 'info' : 'warn', 'could not free a host in Redis; its lease runs to its deadline', { url: lease.url, error: String(e) });
        return false;
      },
    );
    this.freeing.add(freed);
    void freed.finally(() => this.freeing.delete(freed));
    return freed;
  }

  /** The batch's ticket that holds the host is over (its request ended, or it ends without one): the
   * batch's next URL is handed out when no wait is left and its request ends inside the lease; else the
   * host is freed and the URLs not asked go back to the queue. */
  private step(b: Batch, ticket: Ticket): void {
    if (b.done || b.current !== ticket) return;
    b.current = undefined;
    const wait = this.waitLeft(ticket);
    const next = b.rest[0];
    if (next && wait === 0 && performance.now() + this.options.requestMs < b.validUntil) {
      b.rest.shift();
      this.renewed.push({ lease: next, batch: b, validUntil: b.validUntil });
      return;
    }
    void this.endBatch(b, wait, true, []);
  }

  /** Frees a batch's host; `alsoBack`, with the URLs not handed out, go back to the queue. */
  private endBatch(b: Batch, wait: number, renew: boolean, alsoBack: readonly string[]): Promise<boolean> {
    b.done = true;
    this.batches.delete(b);
    return this.free(b.lease, wait, renew, [...alsoBack, ...b.rest.splice(0).map((l) => l.url)]);
  }

  /** What is left of the host's wait after the ticket's request: its delay (or the longer wait asked)
   * from the request's end, less the time since. */
  private waitLeft(ticket: Ticket): number {
    if (ticket.endedAt === undefined) return 0;
    const wait = Math.max(this.delayOf(ticket.host), ticket.extraWaitMs);
    return Math.max(0, wait - (performance.now() - ticket.endedAt));
  }

  /** The ticket's lease, no longer held, and whether its host was freed (the URL is then pending). */
  private async take(ticket: Ticket): Promise<{ lease: FrontierLease; pending: boolean }> {
    const h = this.held.get(ticket);
    if (!h) throw new Error(`no lease for ${ticket.entry.url}`);
    this.held.delete(ticket);
    return { lease: h.lease, pending: h.freed !== undefined && (await h.freed) };
  }

  private stale(ticket: Ticket, what: string): void {
    this.options.log('warn', `lease expired before the URL was ${what}; another process asks it again`, { url: ticket.entry.url });
  }

  commit(ticket: Ticket, page: PageRecord, queue: FrontierEntry[], _stats: CrawlStats, refused: readonly string[], raw?: RawResponse): Promise<void> {
    // The crawl's counters are not written with each page: every process has only its own share of them.
    if (raw === undefined) return this.commits.add({ ticket, page, links: queue, refused });
    return this.commitGroup([{ ticket, page, links: queue, refused }], raw);
  }

  /**
   * Stores the pages, then finishes them. The pages first, then the frontier: a process that dies between
   * the two leaves stored pages whose URLs are asked again and upserted, never a finished URL whose page
   * is lost. `raw`: the one page's response, kept beside it (a transaction of its own).
   */
  private async commitGroup(group: readonly ToCommit[], raw?: RawResponse): Promise<void> {
    try {
      if (raw === undefined) await this.store.commitPages(group.map(({ page, refused }) => ({ page, refused })));
      else await this.store.commitFetch(undefined, group[0]!.page, [], undefined, group[0]!.refused, raw);
    } catch (e) {
      for (const { ticket } of group) await this.again(ticket).catch(() => undefined);
      throw e;
    }
    await this.finishAll(
      group.map(({ ticket, page, links }) => ({ ticket, links, outcome: page.state })),
      'stored',
    );
  }

  /** Done: links queued and the URL counted, through `finish` (host freed already) or `complete`. */
  private finish(ticket: Ticket, links: FrontierEntry[], outcome: string, what: string): Promise<void> {
    return this.finishAll([{ ticket, links, outcome }], what);
  }

  /** `finish` for several tickets: the pending ones (most) in one round trip to Redis. */
  private async finishAll(done: readonly { ticket: Ticket; links: FrontierEntry[]; outcome: string }[], what: string): Promise<void> {
    for (const { ticket } of done) {
      const batch = this.held.get(ticket)?.batch;
      if (batch) this.step(batch, ticket); // a URL that ends without a request (disallowed) hands the host on
    }
    const taken = await Promise.all(done.map(async (d) => ({ ...d, ...(await this.take(d.ticket)) })));
    const pending = taken.filter((t) => t.pending);
    const finished = pending.length === 0 ? [] : await this.redis.finishAll(pending.map(({ lease, links, outcome }) => ({ lease, done: { newLinks: links.map(toRedis), outcome } })));
    pending.forEach(({ ticket }, i) => {
      if (finished[i]!.kind === 'stale') this.stale(ticket, what);
    });
    for (const { ticket, lease, links, outcome } of taken.filter((t) => !t.pending)) {
      const r = await this.redis.complete(lease, { delayMs: this.waitLeft(ticket), newLinks: links.map(toRedis), outcome });
      this.waitUntil = 0; // complete freed the host
      if (r.kind === 'stale') this.stale(ticket, what);
    }
  }

  async again(ticket: Ticket, place: AgainPlace = 'its-place'): Promise<void> {
    const h = this.held.get(ticket);
    if (!h) return; // a page that failed after its lease went back
    if (h.batch && !h.batch.done && h.batch.current === ticket) {
      // The ticket holds its batch's host: the batch ends here; this URL and those not asked go back.
      // Every URL of a batch is pending from the start: one going last is requeued once the host is free.
      this.held.delete(ticket);
      const last = place === 'last';
      const live = (await this.endBatch(h.batch, this.waitLeft(ticket), false, last ? [] : [ticket.entry.url])) && (!last || (await this.redis.requeue(h.lease, place)).kind === 'ok');
      if (!live) this.stale(ticket, 'queued again');
      return;
    }
    const { lease, pending } = await this.take(ticket);
    const r = pending ? await this.redis.requeue(lease, place) : await this.redis.release(lease, this.waitLeft(ticket), place);
    this.waitUntil = 0; // a URL back in its queue
    if (r.kind === 'stale') this.stale(ticket, 'queued again');
  }

  async drop(ticket: Ticket, _stats: CrawlStats, found: FrontierEntry[] = []): Promise<void> {
    await this.finish(ticket, found, 'dropped', 'dropped');
  }

  leave(ticket: Ticket): Promise<void> {
    return this.again(ticket);
  }

  async park(ticket: Ticket): Promise<boolean> {
    await this.leave(ticket);
    return false;
  }

  unpark(): void {}

  get parked(): number {
    return 0;
  }

  async dropHost(ticket: Ticket): Promise<QueuedEntry[]> {
    const h = this.held.get(ticket);
    const batch = h?.batch && !h.batch.done ? h.batch : undefined;
    if (!h || (h.freed && !batch)) return [];
    const r = await this.redis.dropHost(batch?.lease ?? h.lease);
    if (r.kind === 'stale') return [];
    // A batch's URLs not asked are pending under its lease: dropped with the queue.
    const rest = batch ? batch.rest.splice(0) : [];
    for (const l of rest) await this.redis.finish(l, { outcome: 'dropped' });
    return [...r.urls, ...rest.map((l) => l.url)].map((url) => ({ url, depth: 0, via: 'link', id: '' }));
  }

  setDelay(host: string, delayMs: number): void {
    this.delays.set(host, delayMs);
  }

  delayOf(host: string): number {
    return this.delays.get(host) ?? this.options.delayMs;
  }

  /** The whole crawl's queued URLs, as last read (read again at most every countsIntervalMs). */
  get size(): number {
    const now = performance.now();
    if (now - this.countsReadAt >= this.options.countsIntervalMs) {
      this.countsReadAt = now;
      this.redis.counts().then(
        (c) => (this.counts = c),
        () => undefined,
      );
    }
    return this.counts?.queued ?? 0;
  }

  /** Hosts this process has asked so far. */
  get hostCount(): number {
    return this.delays.size;
  }

  slowestHost(): undefined {
    return undefined;
  }

  hostStates(): FrontierHostState[] {
    const inFlight = new Map<string, number>();
    for (const t of this.held.keys()) inFlight.set(t.host, (inFlight.get(t.host) ?? 0) + 1);
    return [...this.delays].map(([host, delayMs]) => ({ host, queued: 0, inFlight: inFlight.get(host) ?? 0, delayMs }));
  }

  async close(): Promise<void> {
    // Pages waiting in a group are stored and finished before the leases go.
    await this.commits.drain().catch(() => undefined);
    clearInterval(this.heartbeat);
    // A lease still held (a stop mid-page) goes back, so no one waits for its deadline.
    await Promise.all(this.freeing);
    for (const leased of this.renewed.splice(0)) this.hold(leased);
    for (const ticket of [...this.held.keys()]) await this.leave(ticket).catch(() => undefined);
    await this.redis.close();
  }
}
