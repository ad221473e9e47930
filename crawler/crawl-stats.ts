// The crawl's counters: the whole crawl's CrawlStats (saved in the store with each page, so they survive
// any stop), this run's own figures, and the page tallies the loop needs for --max-pages. The loop calls
// one method per event; no I/O here.

import type { PageFact } from '../shared/store/index.js';
import type { CrawlStats, HostTally, PageRecord } from '../shared/store/index.js';
import { originOf } from '../shared/url.js';
import { bump, countPage, newRunFigures, type RunFigures } from './crawl-counts.js';
import { errorReason } from './error-reason.js';
import { shownTrapUrl, type TrapVerdict } from './traps.js';

export function emptyStats(seeds: string[]): CrawlStats {
  return {
    startedAt: new Date().toISOString(),
    seeds,
    pagesByState: {},
    pagesByStatus: {},
    hosts: 0,
    requests: 0,
    bytes: 0,
    errors: 0,
    blockedByRule: {},
    trapsCut: {},
    duplicates: 0,
    outOfScope: 0,
  };
}

export class CrawlCounters {
  readonly stats: CrawlStats;
  readonly thisRun: RunFigures = newRunFigures();
  /** Pages in the store, counted before their write (so the stats in its batch include it). */
  pagesStored = 0;
  /** Pages whose write reached the store. */
  pagesCommitted = 0;
  /** Pages this run stored, re-stored pages of a recrawl included. */
  pagesThisRun = 0;
  /** Per origin, the pages this run stored, re-stored pages of a recrawl included: what a host's rate
   * is made of (its tally in `stats.byHost` does not grow when a recrawl re-stores a page). */
  readonly hostPagesThisRun = new Map<string, number>();
  readonly #requestsBefore: number;

  /** `saved`: the stats an earlier run left, if any. Per-page counts start at zero: `storedBefore`
   * recounts them from the stored pages' facts, right however the last run ended. */
  constructor(saved: CrawlStats | undefined, seeds: readonly string[]) {
    const stats = saved ?? emptyStats([...seeds]);
    stats.finishedAt = undefined;
    stats.seeds = [...new Set([...stats.seeds, ...seeds])];
    Object.assign(stats, { pagesByState: {}, pagesByStatus: {}, errors: 0, duplicates: 0, errorsByReason: {} });
    // Pages and errors per host are recounted like the totals; cuts are judged once per crawl and kept.
    stats.byHost = Object.fromEntries(Object.entries(stats.byHost ?? {}).map(([origin, t]) => [origin, { pages: 0, errors: 0, cut: t.cut }]));
    this.stats = stats;
    this.#requestsBefore = stats.requests;
  }

  /** A page an earlier run stored, at `url`. */
  storedBefore(url: string, fact: Pick<PageFact, 'state' | 'status' | 'error'>): void {
    this.pagesStored++;
    this.pagesCommitted++;
    countPage(this.stats, fact, 1);
    this.#hostPage(url, fact, 1);
  }

  /** The tally of `url`'s origin, made on first use. */
  #host(url: string): HostTally {
    const byHost = (this.stats.byHost ??= {});
    const origin = originOf(url);
    return (byHost[origin] ??= { pages: 0, errors: 0, cut: 0 });
  }

  /** The page's share of the per-host and per-reason counts, added or taken away. */
  #hostPage(url: string, page: Pick<PageRecord, 'state'> & { error?: string | undefined }, sign: 1 | -1): void {
    const t = this.#host(url);
    t.pages += sign;
    if (page.state !== 'error') return;
    t.errors += sign;
    bump((this.stats.errorsByReason ??= {}), errorReason(page.error), sign);
  }

  /** One HTTP request for a page or a sitemap, with the body bytes it brought. */
  request(bytes = 0): void {
    this.stats.requests++;
    this.stats.bytes += bytes;
  }

  /** A page about to be stored: counted for the crawl (moved from its old state when stored before) and this run. */
  stored(page: Pick<PageRecord, 'url' | 'state' | 'status' | 'error'>, previous: Pick<PageRecord, 'state' | 'status' | 'error'> | undefined): void {
    if (previous) {
      countPage(this.stats, previous, -1);
      this.#hostPage(page.url, previous, -1);
    } else this.pagesStored++;
    countPage(this.stats, page, 1);
    this.#hostPage(page.url, page, 1);
    countPage(this.thisRun, page, 1);
    this.thisRun.pages++;
    const origin = originOf(page.url);
    this.hostPagesThisRun.set(origin, (this.hostPagesThisRun.get(origin) ?? 0) + 1);
  }

  /** A recrawled page whose server failed for now, stored as it was (counted by `stored` too). */
  kept(): void {
    this.thisRun.kept++;
  }

  /** The page's write reached the store; `isNew`: it was not stored before (a recrawl re-stores pages). */
  committed(isNew: boolean): void {
    this.pagesThisRun++;
    if (isNew) this.pagesCommitted++;
  }

  /** `n` URLs not fetched because of `rule` (`origin rule`, as the summary lists it). */
  blocked(rule: string, n = 1): void {
    this.stats.blockedByRule[rule] = (this.stats.blockedByRule[rule] ?? 0) + n;
  }

  /** A URL cut as a trap; the first of each reason is kept as its example. */
  cut(url: string, trap: Extract<TrapVerdict, { ok: false }>): void {
    this.stats.trapsCut[trap.reason] = (this.stats.trapsCut[trap.reason] ?? 0) + 1;
    this.stats.trapExamples ??= {};
    this.stats.trapExamples[trap.reason] ??= shownTrapUrl(url);
    this.#host(url).cut++;
  }

  outOfScope(): void {
    this.stats.outOfScope++;
  }

  get blockedTotal(): number {
    return Object.values(this.stats.blockedByRule).reduce((a, b) => a + b, 0);
  }

  /** The crawl ends: when, over how many hosts, and this run's share of the requests. */
  finish(hosts: number): void {
    this.stats.finishedAt = new Date().toISOString();
    this.stats.hosts = Math.max(this.stats.hosts, hosts);
    this.thisRun.requests = this.stats.requests - this.#requestsBefore;
  }
}
