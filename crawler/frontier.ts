// The frontier as the crawl loop sees it: which URL to ask next, and what became of it. Two
// implementations, so the loop (crawl.ts) does not know which it runs on:
// - frontier-local.ts: one process, the queue in the data dir's LevelDB store and the schedule in memory;
// - frontier-shared.ts: any number of processes on any machines, the queue, the schedule and one lease
//   per host in Redis (frontier-redis.ts), the pages in a shared store (PostgreSQL).
//
// Every URL handed out is a Ticket, and every ticket ends in exactly one of commit, again, drop or leave
// (park, for the --max-pages wait, is a leave that comes back). `ended` is said as soon as the request is
// over, before the page is parsed and stored: from then on the host's delay runs.

import type { CrawlStats, FrontierEntry, PageRecord, QueuedEntry, RawResponse } from '../shared/store/index.js';

/** One URL handed to the loop, and the host (origin) whose politeness it is under. */
export interface Ticket {
  readonly entry: QueuedEntry;
  readonly host: string;
  /** performance.now() when the ticket's request ended (undefined: no request made yet). */
  endedAt?: number;
  /** Wait after the request longer than the host's delay (Retry-After, backoff), ms. */
  extraWaitMs: number;
}

/** Where a URL asked again goes in its host's queue (CrawlFrontier.again). */
export type AgainPlace = 'its-place' | 'last';

export type FrontierPick = { ticket: Ticket } | { waitMs: number } | { empty: true };

/** What the loop shows of a host in the live status. */
export interface FrontierHostState {
  host: string;
  queued: number;
  inFlight: number;
  delayMs: number;
}

export interface CrawlFrontier {
  /** Whether other processes share this frontier (a count it gives is then the whole crawl's). */
  readonly shared: boolean;
  /** Queues the seeds and, with `force`, entries fetched before (a recrawl); calls `queued` with each
   * URL this process will ask first. Returns the forced entries that were queued. */
  start(seeds: FrontierEntry[], again: FrontierEntry[], queued: (e: QueuedEntry) => void): Promise<QueuedEntry[]>;
  /** The next URL a host may be asked for now, or how long until one may. */
  next(): Promise<FrontierPick>;
  /** Just before the ticket's request is sent: whether the ticket still holds its host. Always true on
   * one machine; a shared frontier's lease may have run out while this process stalled. */
  confirm(ticket: Ticket): Promise<boolean>;
  /** Queues URLs found outside a page (robots.txt's sitemaps). */
  add(entries: FrontierEntry[]): Promise<void>;
  /** The ticket's request is over at `at` (performance.now()): the host's next request waits its delay
   * from then, or `extraWaitMs` when longer. */
  ended(ticket: Ticket, at: number, extraWaitMs?: number): void;
  /** The page is stored and its links queued (`queue`), in the store's one atomic write; then the ticket ends. */
  commit(ticket: Ticket, page: PageRecord, queue: FrontierEntry[], stats: CrawlStats, refused: readonly string[], raw?: RawResponse): Promise<void>;
  /** The URL is to be asked again later (a retry, robots.txt not had yet): queued again, the ticket ends.
   * `place`: back at its place in its host's queue (the default), or `last`, behind every URL its host
   * has queued (a retry after a failure). */
  again(ticket: Ticket, place?: AgainPlace): Promise<void>;
  /** The URL leaves the queue without a page (disallowed, cut, a sitemap read); `found` is queued. */
  drop(ticket: Ticket, stats: CrawlStats, found?: FrontierEntry[]): Promise<void>;
  /** The URL stays queued for a later run (the crawl is stopping): the ticket ends without a page. */
  leave(ticket: Ticket): Promise<void>;
  /** Every page slot is taken (--max-pages): the URL waits until `unpark`. Returns whether next() may
   * go on to other URLs meanwhile (false when it would hand this one out again). */
  park(ticket: Ticket): Promise<boolean>;
  unpark(): void;
  /** How many URLs wait in park. */
  readonly parked: number;
  /** The host's site is given up (its robots.txt cannot be had): every URL queued for it leaves the
   * queue and is returned; the ticket itself still ends by drop. */
  dropHost(ticket: Ticket): Promise<QueuedEntry[]>;
  setDelay(host: string, delayMs: number): void;
  delayOf(host: string): number;
  /** URLs waiting (the whole crawl's when shared, as last read). */
  readonly size: number;
  readonly hostCount: number;
  slowestHost(): { host: string; queued: number; delayMs: number; ms: number } | undefined;
  hostStates(): FrontierHostState[];
  close(): Promise<void>;
}

/** A ticket for an entry just picked. */
export const ticketFor = (entry: QueuedEntry, host: string): Ticket => ({ entry, host, extraWaitMs: 0 });

/** Records that the ticket's request ended at `at`; false when it had ended already (said once). */
export function markEnded(ticket: Ticket, at: number, extraWaitMs: number): boolean {
  if (ticket.endedAt !== undefined) return false;
  ticket.endedAt = at;
  ticket.extraWaitMs = extraWaitMs;
  return true;
}
