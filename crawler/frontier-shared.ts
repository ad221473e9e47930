// The shared frontier: the crawl loop's frontier on Redis (frontier-redis.ts), for any number of crawler
// processes on any machines. A ticket is a lease on its host, so one request is in flight per host in the
// whole crawl. When the request ends the host is freed (`free`: it may be asked again after its delay,
// counted from the end of the response) and the URL stays pending under the lease's token; once the page
// is committed to the shared store, `finish` counts it and queues its links in one atomic step. A lease
// is extended while its page is being worked on, so only a process that died (or lost Redis for longer
// than the lease) loses it, and then its URL goes back to the queue.

import { GleanerError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { CrawlStats, FrontierEntry, PageRecord, QueuedEntry, RawResponse, Store } from '../shared/store/index.js';
import { markEnded, ticketFor, type CrawlFrontier, type FrontierHostState, type FrontierPick, type Ticket } from './frontier.js';
import { RedisFrontier, type FrontierCounts, type FrontierEntry as RedisEntry, type FrontierLease } from './frontier-redis.js';

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

/** A ticket's lease, and once its request is over, whether freeing the host went through. */
interface Held {
  lease: FrontierLease;
  /** Set at `ended`: resolves true once the host is free and the URL pending, false when the lease had expired. */
  freed?: Promise<boolean>;
}

export class SharedFrontier implements CrawlFrontier {
  readonly shared = true;
  private readonly held = new Map<Ticket, Held>();
  private readonly delays = new Map<string, number>();
  /** Leases taken in the same step as freeing a host with no delay left: handed out by next() first. */
  private readonly renewed: FrontierLease[] = [];
  /** Frees under way (a renewed lease may come from any of them). */
  private readonly freeing = new Set<Promise<boolean>>();
  private counts: FrontierCounts | undefined;
  private countsReadAt = 0;
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    private readonly redis: RedisFrontier,
    private readonly store: Store,
    private readonly options: SharedFrontierOptions,
  ) {
    // Extends every lease this process holds a few times per lease length, so a page that takes long to
    // parse or store (PostgreSQL restarting) keeps its place; a dead process stops extending.
    this.heartbeat = setInterval(() => void this.extendAll(), Math.max(100, Math.floor(options.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Opens the Redis frontier at `url` (one UNREACHABLE or BAD_ARGUMENT line when it cannot be used). */
  static async open(url: string, store: Store, options: SharedFrontierOptions): Promise<SharedFrontier> {
    const redis = await RedisFrontier.open(url, { hostOf: options.hostOf });
    return new SharedFrontier(redis, store, options);
  }

  private async extendAll(): Promise<void> {
    for (const [ticket, h] of this.held) {
      try {
        const r = h.freed && (await h.freed) ? await this.redis.extendPending(h.lease, this.options.leaseMs) : await this.redis.extend(h.lease, this.options.leaseMs);
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
    const r = await this.redis.lease(this.options.workerId, this.options.leaseMs);
    if (r.kind === 'empty') return { empty: true };
    if (r.kind === 'wait') return { waitMs: Math.min(r.waitMs, this.options.pollMs) };
    return { ticket: this.hold(r.lease) };
  }

  private hold(lease: FrontierLease): Ticket {
    const ticket = ticketFor(fromLease(lease), lease.host);
    this.held.set(ticket, { lease });
    return ticket;
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
    const wait = this.waitLeft(ticket);
    // No delay left: the host's next URL may be asked at once, so this process takes it in the same step.
    const renew = wait === 0 ? { workerId: this.options.workerId, leaseMs: this.options.leaseMs } : undefined;
    const freed = this.redis.free(h.lease, wait, renew).then(
      (r) => {
        if (r.kind === 'ok' && r.next) this.renewed.push(r.next);
        return r.kind === 'ok';
      },
      (e: unknown) => {
        this.options.log('warn', 'could not free a host in Redis; its lease runs to its deadline', { url: ticket.entry.url, error: String(e) });
        return false;
      },
    );
    this.freeing.add(freed);
    void freed.finally(() => this.freeing.delete(freed));
    h.freed = freed;
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

  async commit(ticket: Ticket, page: PageRecord, queue: FrontierEntry[], _stats: CrawlStats, refused: readonly string[], raw?: RawResponse): Promise<void> {
    // The page first, then the frontier: a process that dies between the two leaves a stored page whose
    // URL is asked again and upserted, never a finished URL whose page is lost. The crawl's counters are
    // not written with each page: every process has only its own share of them.
    try {
      await this.store.commitFetch(undefined, page, [], undefined, refused, raw);
    } catch (e) {
      await this.again(ticket).catch(() => undefined);
      throw e;
    }
    await this.finish(ticket, queue, page.state, 'stored');
  }

  /** Done: links queued and the URL counted, through `finish` (host freed already) or `complete`. */
  private async finish(ticket: Ticket, links: FrontierEntry[], outcome: string, what: string): Promise<void> {
    const { lease, pending } = await this.take(ticket);
    const newLinks = links.map(toRedis);
    const r = pending ? await this.redis.finish(lease, { newLinks, outcome }) : await this.redis.complete(lease, { delayMs: this.waitLeft(ticket), newLinks, outcome });
    if (r.kind === 'stale') this.stale(ticket, what);
  }

  async again(ticket: Ticket): Promise<void> {
    if (!this.held.has(ticket)) return; // a page that failed after its lease went back
    const { lease, pending } = await this.take(ticket);
    const r = pending ? await this.redis.requeue(lease) : await this.redis.release(lease, this.waitLeft(ticket));
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
    if (!h || h.freed) return [];
    const r = await this.redis.dropHost(h.lease);
    if (r.kind === 'stale') return [];
    return r.urls.map((url) => ({ url, depth: 0, via: 'link', id: '' }));
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
    clearInterval(this.heartbeat);
    // A lease still held (a stop mid-page) goes back, so no one waits for its deadline.
    await Promise.all(this.freeing);
    for (const lease of this.renewed.splice(0)) this.hold(lease);
    for (const ticket of [...this.held.keys()]) await this.leave(ticket).catch(() => undefined);
    await this.redis.close();
  }
}
