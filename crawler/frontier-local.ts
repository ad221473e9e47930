// The one-machine frontier: the queue and the seen set in the data dir's store (LevelDB), the schedule
// in memory (scheduler.ts), rebuilt from the store when a crawl resumes. A host is freed the moment its
// request ends, so its next fetch can overlap this page's parsing and storing.

import type { CrawlStats, FrontierEntry, PageRecord, QueuedEntry, RawResponse, Store } from '../shared/store/index.js';
import { markEnded, ticketFor, type AgainPlace, type CrawlFrontier, type FrontierHostState, type FrontierPick, type Ticket } from './frontier.js';
import { HostScheduler } from './scheduler.js';

export class LocalFrontier implements CrawlFrontier {
  readonly shared = false;
  private readonly scheduler: HostScheduler;
  private parkedEntries: QueuedEntry[] = [];
  /** Tickets whose request ended and that are not yet committed, dropped or put back. */
  private readonly settling = new Set<Ticket>();

  constructor(
    private readonly store: Store,
    hostOf: (url: string) => string,
    delayMs: number,
    hostConnections: number,
  ) {
    this.scheduler = new HostScheduler(hostOf, delayMs, hostConnections);
  }

  async start(seeds: FrontierEntry[], again: FrontierEntry[], queued: (e: QueuedEntry) => void): Promise<QueuedEntry[]> {
    await this.store.frontier.add(seeds);
    const forced = await this.store.frontier.add(again, { force: true });
    for await (const entry of this.store.frontier.queued()) {
      this.scheduler.add(entry);
      queued(entry);
    }
    return forced;
  }

  next(): Promise<FrontierPick> {
    const pick = this.scheduler.next(performance.now());
    return Promise.resolve('entry' in pick ? { ticket: ticketFor(pick.entry, pick.host) } : pick);
  }

  async add(entries: FrontierEntry[]): Promise<void> {
    for (const e of await this.store.frontier.add(entries)) this.scheduler.add(e);
  }

  ended(ticket: Ticket, at: number, extraWaitMs = 0): void {
    if (!markEnded(ticket, at, extraWaitMs)) return;
    this.settling.add(ticket);
    this.scheduler.release(ticket.host, at, extraWaitMs);
  }

  /** Done with a ticket: one that made no request frees its host at once (no delay after nothing); one
   * whose request ended lets its host's retries go (HostScheduler.settled). */
  private free(ticket: Ticket): void {
    if (this.settling.delete(ticket)) this.scheduler.settled(ticket.host);
    if (ticket.endedAt !== undefined) return;
    ticket.endedAt = -Infinity;
    this.scheduler.releaseWithoutRequest(ticket.host);
  }

  async commit(ticket: Ticket, page: PageRecord, queue: FrontierEntry[], stats: CrawlStats, refused: readonly string[], raw?: RawResponse): Promise<void> {
    try {
      const added = await this.store.commitFetch(ticket.entry, page, queue, stats, refused, raw);
      for (const e of added) this.scheduler.add(e);
    } finally {
      this.free(ticket);
    }
  }

  again(ticket: Ticket, place: AgainPlace = 'its-place'): Promise<void> {
    this.free(ticket);
    this.scheduler.add(ticket.entry, place === 'last');
    return Promise.resolve();
  }

  async drop(ticket: Ticket, stats: CrawlStats, found: FrontierEntry[] = []): Promise<void> {
    try {
      if (found.length > 0) await this.add(found);
      await this.store.frontier.drop(ticket.entry, stats);
    } finally {
      this.free(ticket);
    }
  }

  /** One process holds every host: nothing to confirm. */
  confirm(): Promise<boolean> {
    return Promise.resolve(true);
  }

  leave(ticket: Ticket): Promise<void> {
    this.free(ticket);
    return Promise.resolve();
  }

  park(ticket: Ticket): Promise<boolean> {
    this.parkedEntries.push(ticket.entry);
    this.free(ticket);
    return Promise.resolve(true);
  }

  unpark(): void {
    for (const e of this.parkedEntries) this.scheduler.add(e);
    this.parkedEntries = [];
  }

  get parked(): number {
    return this.parkedEntries.length;
  }

  async dropHost(ticket: Ticket): Promise<QueuedEntry[]> {
    const dropped = this.scheduler.clearHost(ticket.host);
    for (const e of dropped) await this.store.frontier.drop(e);
    return dropped;
  }

  setDelay(host: string, delayMs: number): void {
    this.scheduler.setDelay(host, delayMs);
  }

  delayOf(host: string): number {
    return this.scheduler.delayOf(host);
  }

  get size(): number {
    return this.scheduler.size;
  }

  get hostCount(): number {
    return this.scheduler.hostCount;
  }

  slowestHost(): ReturnType<CrawlFrontier['slowestHost']> {
    return this.scheduler.slowestHost();
  }

  hostStates(): FrontierHostState[] {
    return this.scheduler.hostStates();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
