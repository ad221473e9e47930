// The crawl loop: take the shallowest URL of a host that may be asked now, ask robots.txt, fetch, turn the
// response into a page record, and commit page + discovered URLs + frontier update through the frontier
// (one atomic store write on one machine, frontier-local.ts; the page to the shared store, then one Redis
// script, frontier-shared.ts). Everything a crawler decides lives in the modules this file calls: robots/
// and robots-give-up.ts (may we?), politeness.ts and frontier.ts (when? again? on one machine:
// frontier-local.ts and scheduler.ts; shared by many: frontier-shared.ts on Redis), request.ts and
// fetch.ts (HTTP), page.ts (what did we get?), scope.ts and traps.ts (should this URL be queued?),
// sitemaps.ts (what do sitemaps list?), crawl-stats.ts (the counters).

import { setMaxListeners } from 'node:events';
import { GleanerError, isGleanerError } from '../shared/errors.js';
import { openStoreAt, type QueuedEntry, type Store } from '../shared/store/index.js';
import type { CrawlStats, FrontierEntry, PageRecord } from '../shared/store/index.js';
import { makeCanonicalizer, originOf, type Canonicalizer } from '../shared/url.js';
import { recordCanonicalizer } from '../shared/store/index.js';
import { CRAWL_SETTINGS_KEY, crawlSettings } from './crawl-settings.js';
import { pageFact } from '../shared/store/index.js';
import { createHttpClient, fetchOnce, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import { silentLogger, type Logger } from '../shared/log.js';
import type { CrawlOptions } from './options.js';
import { userAgentHeader } from '../shared/agent.js';
import { blankPage, bodyInput, pageFromOutcome, type PageContext } from './page.js';
import { createBodyAnalyzer, type BodyAnalyzer } from './analyze-pool.js';
import { delaySource, effectiveDelayMs, FailureCounts, type DelaySource, holdsHost, hostGiveUp, retryStep, transientFailure } from './politeness.js';
import { rawResponse } from './raw-response.js';
import { analyzeDocument, isDocument } from './document-analysis.js';
import { whyUnreachable, type HostRobots, type Unreachable } from '../shared/robots/index.js';
import { robotsForOrigin } from './robots-cache.js';
import { blockingRule, crawlRobotsOptions, respectsRobots } from './robots-options.js';
import { inARowSuffix, RobotsWaits, type HostGivenUp, type RobotsWait } from './robots-waits.js';
import type { CrawlFrontier, FrontierPick, Ticket } from './frontier.js';
import { LocalFrontier } from './frontier-local.js';
import { SharedFrontier } from './frontier-shared.js';
import { DEFAULT_COMMIT_BATCH_OPTIONS } from './commit-batch.js';
import { hostname } from 'node:os';
import { preferredHostUrl } from './host-directive.js';
import { TrapGuard } from './traps.js';
import { Admission } from './admission.js';
import { NoopParams } from './noop-params.js';
import type { RunFigures } from './crawl-counts.js';
import { CrawlCounters } from './crawl-stats.js';
import { RecentRate, secondsLeft } from './eta.js';
import { LIVE_STATUS_HOSTS, writeCrawlStatus, type CrawlStatus, type HostStatus } from '../shared/crawl-status.js';
import { prepareCrawl } from './prepare.js';
import { pageRequestHeaders } from './request.js';
import { CrawlCookies, namesPageBack } from './cookies.js';
import { canonicalizeUrl } from '../shared/url.js';
import { DEFAULT_SITEMAP_OPTIONS, originSitemaps, sitemapFollowUps, sitemapMovedTo } from './sitemaps.js';
import { fetchSitemapUrls } from './sitemaps-fetch.js';
import { withSiteRules } from './site-rules.js';
import type { Dispatcher } from 'undici';

export interface CrawlProgress {
  pages: number;
  pagesThisRun: number;
  queued: number;
  inFlight: number;
  hosts: number;
  errors: number;
  blocked: number;
  pagesPerSecond: number;
  /** Pages stored plus those queued or under way: the work known so far (it grows as links are found),
   * at most --max-pages. A recrawl's queue holds the stored pages again: its known work is the pages
   * this run stored plus those queued or under way, each counted once. */
  known: number;
  /** The pages of the known work done: `pages`, or on a recrawl `pagesThisRun`. */
  done: number;
  /** Estimated seconds left for the known work (crawler/eta.ts), undefined before there is a rate or delay to go by. */
  secondsLeft: number | undefined;
  /** The host whose queue takes longest at its delay alone (its queue counted up to what --max-pages
   * leaves); `delaySource` says whether robots.txt's Crawl-delay, the site's own delay (config file
   * `sites`) or the crawl's `delayMs` sets it. */
  slowestHost?: { host: string; queued: number; delayMs: number; seconds: number; delaySource: DelaySource };
  /** Hosts waiting to ask for robots.txt again, and why. */
  robotsWaiting: RobotsWait[];
  /** Hosts given up because their robots.txt could not be had, and why. */
  hostsGivenUp: HostGivenUp[];
}

export interface CrawlHooks {
  log?: Logger;
  onProgress?: (p: CrawlProgress) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface CrawlSummary {
  /** Counters of the whole crawl, every run so far included. */
  stats: CrawlStats;
  pagesThisRun: number;
  /** This run's own figures (pages it stored, re-stored pages of a recrawl included). */
  thisRun: RunFigures;
  seconds: number;
  /** `unreachable`: every seed host was given up (robots.txt could not be had) and no page was fetched. */
  stoppedBecause: 'done' | 'max-pages' | 'aborted' | 'unreachable';
  hostsGivenUp: HostGivenUp[];
}

/** Crawls from `given.seeds` into the store in `given.dataDir`, resuming whatever an earlier run left queued. */
export async function crawl(given: Partial<CrawlOptions> & Pick<CrawlOptions, 'dataDir' | 'seeds'>, hooks: CrawlHooks = {}): Promise<CrawlSummary> {
  // Checked before the store opens, so a bad --include/--exclude pattern is a message, not a half-run crawl.
  const { options, inScope } = prepareCrawl(given);
  // Every request under way, robots.txt fetch and page analysis listens to the stop signal and lets go
  // when it ends (shared/http/transfer-guard.ts): Node warns past 10 listeners, which a crawl of 11
  // hosts reached (MaxListenersExceededWarning on the terminal, no leak behind it).
  if (hooks.signal !== undefined) setMaxListeners(0, hooks.signal);
  const store = await openStoreAt(options.store ?? options.dataDir);
  try {
    const frontier = await openFrontier(store, options, hooks.log ?? silentLogger);
    try {
      return await new CrawlRun(store, frontier, options, inScope, hooks).execute();
    } finally {
      await frontier.close();
    }
  } finally {
    await store.close();
  }
}

/** Redirects a page's answer leads through that are followed at once to see whether they come back to
 * it with a cookie (a cookie check on another URL: `/` -> `/check` -> `/` is two); wget follows 20. */
const MAX_DETOUR_HOPS = 3;
/** Detours of a site that did not come back before its redirects are left to the frontier alone: a
 * cookie check comes back on the first visit, an ordinary moved page never does. */
const MAX_FRUITLESS_DETOURS = 2;

/** The data dir's own frontier, or the one shared in Redis when options.frontier names it. */
async function openFrontier(store: Store, options: CrawlOptions, log: Logger): Promise<CrawlFrontier> {
  if (options.frontier === undefined) return new LocalFrontier(store, originOf, options.delayMs, options.hostConnections);
  return SharedFrontier.open(options.frontier, store, {
    workerId: `${hostname()}:${process.pid}`,
    // A request never outlives its lease: its whole deadline, and room to parse and store the page.
    leaseMs: options.requestTimeoutMs + options.leaseMarginMs,
    requestMs: options.requestTimeoutMs,
    batchUrls: options.leaseBatchUrls,
    redisTimeoutMs: options.frontierTimeoutMs,
    // Pages waiting for their group hold places among those under way: a group stays below the
    // concurrency, so fetching never stops for it (one place: every page written alone).
    commitBatch: { ...DEFAULT_COMMIT_BATCH_OPTIONS, maxPages: Math.max(1, Math.min(DEFAULT_COMMIT_BATCH_OPTIONS.maxPages, options.concurrency - 1)) },
    pollMs: 250,
    countsIntervalMs: 1000,
    delayMs: options.delayMs,
    hostOf: originOf,
    log,
  });
}

class CrawlRun {
  private readonly log: Logger;
  private readonly client: Dispatcher;
  private readonly analyzer: BodyAnalyzer;
  private readonly robots = new Map<string, Promise<HostRobots>>();
  /** When a robots.txt was fetched over the network, until the first page of its host has waited the delay after it. */
  private readonly robotsFetchedAt = new Map<string, number>();
  private readonly robotsWaits: RobotsWaits;
  /** Transient failures in a row per URL, for its retries. */
  private readonly attempts = new FailureCounts();
  /** Transient failures in a row per host (origin): politeness.ts holdsHost. */
  private readonly hostFailures = new FailureCounts();
  /** Per host, page requests in a row that could not connect at all (giveUpHostForPages). */
  private readonly connectFailures = new FailureCounts();
  private readonly hashes = new Map<string, string>();
  /** Query parameters learned, per host, to change nothing: dropped from found links (noop-params.ts). */
  private readonly noopParams = new NoopParams();
  /** Sitemap files queued per host this run, against DEFAULT_SITEMAP_OPTIONS.maxFilesPerHost. */
  private readonly sitemapFiles = new Map<string, number>();
  /** Hosts whose sitemaps were left unread because the crawl's budget was met (sitemapBeyondBudget). */
  private readonly sitemapsCut = new Set<string>();
  private admission!: Admission;
  private readonly traps: TrapGuard;
  private readonly userAgent: string;
  /** The one canonicalizer of the crawl, recorded in the store for the indexer. */
  private readonly canonicalizer: Canonicalizer;
  private counts!: CrawlCounters;
  /** In-flight entries that may store a new page: with pagesStored, never more than maxPages. */
  private slots = 0;
  /** Stored URLs a recrawl fetches again: they re-store a page, so they take no page slot. */
  private readonly restoring = new Set<string>();
  private readonly recentRate = new RecentRate();
  private readonly hostRates = new Map<string, RecentRate>();
  /** The run's cookies (cookies.ts), unless CrawlOptions.cookies is off. */
  private readonly cookies: CrawlCookies | undefined;
  /** Per origin, the redirects followed at once that did not lead back (fetchPage). */
  private readonly fruitlessDetours = new Map<string, number>();
  private statusWrite: Promise<void> | undefined;
  private inFlight = 0;
  private stopLaunching = false;
  private stoppedBecause: CrawlSummary['stoppedBecause'] = 'done';
  /** The data dir failed under the crawl (disk full, gone read-only), or a shared Redis stopped answering: the crawl stops once and throws it. */
  private storageFailure: GleanerError | undefined;
  /** Ends the loop's wait; `woken` remembers a wake that came while the loop was not waiting (asking
   * the frontier), so it is not lost. */
  private wakeWaiter: () => void = () => {};
  private woken = false;
  private wake(): void {
    this.woken = true;
    this.wakeWaiter();
  }
  private readonly started = Date.now();

  constructor(
    private readonly store: Store,
    private readonly frontier: CrawlFrontier,
    private readonly options: CrawlOptions,
    private readonly inScope: (url: string) => boolean,
    private readonly hooks: CrawlHooks,
  ) {
    this.log = hooks.log ?? silentLogger;
    this.client = createHttpClient(options);
    this.analyzer = createBodyAnalyzer(options.parseThreads);
    this.userAgent = userAgentHeader(options.agent);
    this.robotsWaits = new RobotsWaits(options);
    this.traps = new TrapGuard(options);
    this.canonicalizer = makeCanonicalizer(options);
    this.cookies = options.cookies ? new CrawlCookies() : undefined;
  }

  /** The whole crawl's stats, as the store keeps them. */
  private get stats(): CrawlStats {
    return this.counts.stats;
  }

  async execute(): Promise<CrawlSummary> {
    const { store, options } = this;
    this.counts = new CrawlCounters(await store.getCrawlStats(), options.seeds);
    this.admission = new Admission(this.inScope, this.traps, this.counts, this.log, (url) => this.noopParams.strip(url));
    await recordCanonicalizer(store, this.canonicalizer);
    await store.putMeta(CRAWL_SETTINGS_KEY, crawlSettings(options));

    // What earlier runs stored, from the pages' small facts (no page body read): per-page counts (right
    // whenever and however the last run ended: each fact is written with its page), content fingerprints
    // for duplicates, per-host and per-shape counts for traps; then the URLs already judged (so a resumed
    // crawl does not count a cut twice).
    const again: FrontierEntry[] = [];
    for await (const [url, fact] of store.pageFacts()) {
      this.counts.storedBefore(url, fact);
      if (fact.hash !== undefined && !this.hashes.has(fact.hash)) this.hashes.set(fact.hash, url);
      this.traps.countPage(url, fact.state === 'duplicate');
      // Redirects too: where one leads may change (a maintenance redirect ends, a moved page comes back).
      if (options.recrawl) again.push({ url, depth: fact.depth, via: 'link' });
    }
    for await (const url of store.refusedUrls()) this.admission.judge(url);
    for await (const url of store.seenUrls()) this.admission.judge(url);
    const seedEntries: FrontierEntry[] = options.seeds.map((url) => ({ url, depth: 0, via: 'seed' }));
    const forced = await this.frontier.start(seedEntries, again, (entry) => this.traps.countQueued(entry.url));
    for (const e of forced) this.restoring.add(e.url);
    this.log('info', 'crawl started', { seeds: options.seeds, queued: this.frontier.size, storedBefore: this.counts.pagesStored });

    const timer = this.hooks.onProgress
      ? setInterval(() => this.hooks.onProgress!(this.progress()), this.hooks.progressIntervalMs ?? 500)
      : undefined;
    const statusTimer = options.statusIntervalMs > 0 ? setInterval(() => this.writeStatus(true), options.statusIntervalMs) : undefined;
    this.writeStatus(true);
    try {
      await this.loop();
    } finally {
      if (timer) clearInterval(timer);
      if (statusTimer) clearInterval(statusTimer);
      // Stopped: whatever a server still holds open is dropped, not waited for.
      await (this.stoppedBecause === 'aborted' ? this.client.destroy() : this.client.close());
      await this.analyzer.close();
    }
    this.counts.finish(this.frontier.hostCount);
    if (!this.storageFailure) {
      await store.putCrawlStats(this.stats).catch((e: unknown) => {
        if (!this.failedOnStorage(e)) throw e;
      });
    }
    if (this.storageFailure) {
      const f = this.storageFailure;
      if (f.code === 'UNREACHABLE') throw new GleanerError('UNREACHABLE', `crawl stopped: ${f.message}; the ${this.counts.pagesCommitted} pages stored so far are kept (run the same command again to resume once it answers)`, { cause: f });
      throw new GleanerError('DATA_DIR', `crawl stopped: ${f.message}; the ${this.counts.pagesCommitted} pages stored so far are kept (make room, then run again to resume)`, { cause: f });
    }
    if (this.stoppedBecause === 'done' && this.counts.pagesThisRun === 0 && this.robotsWaits.allGivenUp(new Set(options.seeds.map(originOf)))) {
      this.stoppedBecause = 'unreachable';
    }
    this.hooks.onProgress?.(this.progress());
    await this.statusWrite;
    this.writeStatus(false);
    await this.statusWrite;
    for (const [reason, urls] of Object.entries(this.stats.trapsCut)) {
      this.log('info', 'trap rule total', { reason, urls, example: this.stats.trapExamples?.[reason] });
    }
    const hostsGivenUp = this.robotsWaits.givenUpHosts;
    const { pagesThisRun, thisRun } = this.counts;
    const summary = { stats: this.stats, pagesThisRun, thisRun, seconds: (Date.now() - this.started) / 1000, stoppedBecause: this.stoppedBecause, hostsGivenUp };
    this.log('info', 'crawl finished', { pagesThisRun, seconds: summary.seconds, stoppedBecause: this.stoppedBecause });
    return summary;
  }

  private progress(): CrawlProgress {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = this.recentRate.sample(now, this.counts.pagesThisRun);
    const queued = this.frontier.size;
    // The work left is what is queued, but never more than --max-pages still lets the store take: a
    // crawl of a large site with --max-pages 200 ends at 200, and its bar, time left and long-crawl
    // note say so. A recrawl's queue holds stored pages, which do not count against it, so it is not cut.
    const room = this.options.recrawl ? Infinity : Math.max(0, this.options.maxPages - this.counts.pagesStored);
    const remaining = Math.min(queued + this.inFlight, room);
    const known = this.options.recrawl ? Math.max(this.counts.pagesStored, this.counts.pagesThisRun + remaining) : this.counts.pagesStored + remaining;
    const queue = this.frontier.slowestHost();
    const slowest = queue && queue.queued > room ? { ...queue, queued: room, ms: (queue.ms * room) / queue.queued } : queue;
    return {
      known,
      done: this.options.recrawl ? Math.min(this.counts.pagesThisRun, known) : this.counts.pagesStored,
      secondsLeft: secondsLeft(remaining, rate, slowest?.ms),
      slowestHost: slowest && {
        host: slowest.host,
        queued: slowest.queued,
        delayMs: slowest.delayMs,
        seconds: slowest.ms / 1000,
        delaySource: delaySource(slowest.delayMs, this.options.delayMs, this.options.siteDelayMs[slowest.host]),
      },
      pages: this.counts.pagesStored,
      pagesThisRun: this.counts.pagesThisRun,
      queued,
      inFlight: this.inFlight,
      hosts: this.frontier.hostCount,
      errors: this.stats.errors,
      blocked: this.counts.blockedTotal,
      pagesPerSecond: this.counts.pagesThisRun / seconds,
      robotsWaiting: this.robotsWaits.waitingHosts,
      hostsGivenUp: this.robotsWaits.givenUpHosts,
    };
  }

  /** Writes the live status file (shared/crawl-status.ts) unless a write is under way; a failure is
   * logged and never stops the crawl (a full disk is caught where pages are written). */
  private writeStatus(running: boolean): void {
    if (this.options.statusIntervalMs === 0 || this.storageFailure) return;
    if (running && this.statusWrite) return;
    const write = writeCrawlStatus(this.options.dataDir, this.status(running))
      .catch((e: unknown) => this.log('debug', 'live status not written', { error: String(e) }))
      .finally(() => {
        if (this.statusWrite === write) this.statusWrite = undefined;
      });
    this.statusWrite = write;
  }

  private status(running: boolean): CrawlStatus {
    const p = this.progress();
    const now = Date.now();
    const byHost = this.stats.byHost ?? {};
    const blocked = new Map<string, number>();
    for (const [rule, n] of Object.entries(this.stats.blockedByRule)) {
      const origin = rule.split(' ', 1)[0]!;
      blocked.set(origin, (blocked.get(origin) ?? 0) + n);
    }
    const hosts: HostStatus[] = this.frontier.hostStates().map((h) => {
      const tally = byHost[h.host] ?? { pages: 0, errors: 0, cut: 0 };
      let rate = this.hostRates.get(h.host);
      if (!rate) this.hostRates.set(h.host, (rate = new RecentRate()));
      const perSecond = rate.sample(now, this.counts.hostPagesThisRun.get(h.host) ?? 0);
      return { origin: h.host, pages: tally.pages, errors: tally.errors, queued: h.queued, inFlight: h.inFlight, delayMs: h.delayMs, pagesPerMinute: Math.round(perSecond * 600) / 10, blocked: blocked.get(h.host) ?? 0, cut: tally.cut };
    });
    hosts.sort((a, b) => b.pages - a.pages || b.queued - a.queued || a.origin.localeCompare(b.origin));
    return {
      running,
      pid: process.pid,
      updatedAt: new Date(now).toISOString(),
      pages: p.pages,
      pagesThisRun: p.pagesThisRun,
      known: p.known,
      queued: p.queued,
      inFlight: p.inFlight,
      pagesPerSecond: p.pagesPerSecond,
      ...(p.secondsLeft !== undefined ? { secondsLeft: p.secondsLeft } : {}),
      errorsByReason: { ...this.stats.errorsByReason },
      hosts: hosts.slice(0, LIVE_STATUS_HOSTS),
      hostsTotal: hosts.length,
      stats: this.stats,
    };
  }

  /** Read through a call, so a check after an await is not narrowed away by one before it. */
  private stopping(): boolean {
    return this.stopLaunching;
  }

  private async loop(): Promise<void> {
    const signal = this.hooks.signal;
    const onAbort = () => {
      this.stopLaunching = true;
      this.stoppedBecause = 'aborted';
      this.wake();
    };
    signal?.addEventListener('abort', onAbort);
    if (signal?.aborted) onAbort();
    try {
      for (;;) {
        this.woken = false;
        if (!this.stopLaunching && this.counts.pagesStored >= this.options.maxPages && this.restoring.size === 0) {
          this.stopLaunching = true;
          this.stoppedBecause = 'max-pages';
        }
        let waitMs = Infinity;
        if (!this.stopLaunching) {
          while (this.inFlight < this.options.concurrency) {
            let pick: FrontierPick;
            try {
              pick = await this.frontier.next();
            } catch (e) {
              if (!this.failedOnStorage(e)) throw e;
              break;
            }
            if ('ticket' in pick && this.stopping()) {
              // Stopped while the frontier was asked (a shared one answers over the network).
              await this.frontier.leave(pick.ticket);
              break;
            }
            if ('ticket' in pick) {
              const slot = this.takesSlot(pick.ticket.entry);
              if (slot && this.counts.pagesStored + this.slots >= this.options.maxPages) {
                // Every page left under --max-pages is being fetched: this one waits, queued, for one
                // that ends without storing a page (blocked, retried later), or for a later run.
                if (await this.frontier.park(pick.ticket)) continue;
                waitMs = this.options.delayMs > 0 ? this.options.delayMs : 250;
                break;
              }
              this.launch(pick.ticket, slot);
              continue;
            }
            if ('waitMs' in pick) waitMs = pick.waitMs;
            break;
          }
        }
        if (this.inFlight === 0 && (this.stopLaunching || waitMs === Infinity)) {
          if (this.frontier.parked > 0 && this.stoppedBecause === 'done') this.stoppedBecause = 'max-pages';
          return;
        }
        await new Promise<void>((resolve) => {
          if (this.woken) {
            resolve();
            return;
          }
          const t = waitMs === Infinity ? undefined : setTimeout(resolve, waitMs);
          this.wakeWaiter = () => {
            if (t) clearTimeout(t);
            resolve();
          };
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Whether the entry may store a new page (a sitemap stores none, a recrawl re-stores a stored one). */
  private takesSlot(entry: QueuedEntry): boolean {
    return !entry.sitemap && !this.restoring.has(entry.url);
  }

  private launch(ticket: Ticket, slot: boolean): void {
    this.inFlight++;
    if (slot) this.slots++;
    this.process(ticket)
      .catch(async (e: unknown) => {
        if (!this.failedOnStorage(e)) {
          // A bug or a store failure: stop cleanly rather than crawl on with a broken store.
          this.log('error', 'crawl stopped by an unexpected error', { url: ticket.entry.url, error: String((e instanceof Error ? e.stack : undefined) ?? e) });
          this.stopLaunching = true;
          this.stoppedBecause = 'aborted';
        }
        // The URL stays queued; its host's delay runs from now, as after a request.
        this.frontier.ended(ticket, performance.now());
        await this.frontier.leave(ticket).catch(() => undefined);
      })
      .finally(() => {
        this.inFlight--;
        if (slot) this.slots--;
        if (this.frontier.parked > 0 && this.counts.pagesStored + this.slots < this.options.maxPages) this.frontier.unpark();
        this.wake();
      });
  }

  /**
   * A write the data dir refused (disk full, gone read-only), or a shared Redis or PostgreSQL that did
   * not answer in time, stops the crawl; every write after the first fails the same way, so only the
   * first is kept, for execute() to throw. False for any other error.
   */
  private failedOnStorage(e: unknown): boolean {
    if (!isGleanerError(e) || (e.code !== 'DATA_DIR' && e.code !== 'UNREACHABLE')) return false;
    this.storageFailure ??= e;
    this.stopLaunching = true;
    return true;
  }

  /** The ticket's request is over: the host's next may start after the delay. Wakes the loop so the
   * next fetch overlaps this page's parsing and storing instead of waiting for them.
   * `now`: performance.now(), the frontier's clock. */
  private requestEnded(ticket: Ticket, now: number, extraWaitMs = 0): void {
    this.frontier.ended(ticket, now, extraWaitMs);
    this.wake();
  }

  private robotsFor(origin: string): Promise<HostRobots> {
    let p = this.robots.get(origin);
    if (!p) {
      const robotsOptions = crawlRobotsOptions(this.options, origin, { userAgentHeader: this.userAgent, signal: this.hooks.signal, log: this.log });
      p = robotsForOrigin(origin, this.store, robotsOptions).then((robots) => this.onRobotsLoaded(origin, robots));
      this.robots.set(origin, p);
    }
    return p;
  }

  private async onRobotsLoaded(origin: string, robots: HostRobots): Promise<HostRobots> {
    if (robots.outcome === 'unreachable') return robots;
    if (!robots.fromCache) this.robotsFetchedAt.set(origin, performance.now());
    const { delayMs, capped } = effectiveDelayMs(this.options.siteDelayMs[origin] ?? this.options.delayMs, robots.crawlDelaySeconds, this.options.maxCrawlDelayMs);
    this.frontier.setDelay(origin, delayMs);
    if (capped) this.log('warn', 'robots.txt Crawl-delay above the cap; using the cap', { origin, crawlDelaySeconds: robots.crawlDelaySeconds, capMs: this.options.maxCrawlDelayMs });
    if (this.options.useSitemaps) {
      const listed = originSitemaps(origin, robots.sitemaps, this.canonicalizer.canonicalize).slice(0, DEFAULT_SITEMAP_OPTIONS.maxFilesPerHost);
      this.sitemapFiles.set(origin, (this.sitemapFiles.get(origin) ?? 0) + listed.length);
      await this.frontier.add(listed);
    }
    return robots;
  }

  private async process(ticket: Ticket): Promise<void> {
    const { entry, host } = ticket;
    const origin = host; // the frontier keys hosts by origin, the unit robots.txt applies to
    const gaveUp = respectsRobots(this.options, origin) ? this.robotsWaits.skipAfterGiveUp(origin) : undefined;
    if (gaveUp) {
      if (!gaveUp.cannotConnect && gaveUp.pages !== true) this.counts.blocked(`${origin} robots.txt unreachable`, 1);
      await this.frontier.drop(ticket, this.stats);
      return;
    }
    const robots = await this.robotsFor(origin);
    if (await this.interrupted(ticket)) return;
    const robotsAt = this.robotsFetchedAt.get(origin);
    if (robotsAt !== undefined && robots.outcome !== 'unreachable') {
      this.robotsFetchedAt.delete(origin);
      // Fetching robots.txt was a request to the site too: its first page waits the site's delay after
      // it, as after any other request.
      if (this.frontier.delayOf(host) > 0) {
        this.requestEnded(ticket, robotsAt);
        await this.frontier.again(ticket);
        return;
      }
    }
    // robots/fetch.ts gives every unreachable answer its reason, except the one of a stopped crawl, which
    // `interrupted` has just let go.
    if (robots.outcome === 'unreachable' && robots.unreachable && respectsRobots(this.options, origin)) {
      await this.robotsUnreachable(ticket, robots.unreachable);
      return;
    }
    this.robotsWaits.ok(origin);
    if (respectsRobots(this.options, origin)) {
      const verdict = robots.check(entry.url);
      if (!verdict.allowed) {
        this.counts.blocked(`${origin} ${blockingRule(verdict)}`);
        if (this.restoring.has(entry.url)) await this.disallowedNow(ticket, blockingRule(verdict));
        else await this.frontier.drop(ticket, this.stats);
        return;
      }
    }

    // Just before this ticket's request (a sitemap's or a page's).
    if (!(await this.frontier.confirm(ticket))) {
      // The lease ran out while this process stalled: the host may be another's now. The URL is asked
      // by whoever holds it (again() says so), never by two at once.
      await this.frontier.again(ticket);
      return;
    }
    if (entry.sitemap) {
      if (this.sitemapBeyondBudget(entry.url, host)) await this.frontier.drop(ticket, this.stats);
      else await this.readSitemap(ticket);
      return;
    }
    // A recrawl fetches stored pages again whatever their shape; a new URL is checked once more here.
    const repeating = this.restoring.has(entry.url) ? undefined : this.traps.recheck(entry.url);
    if (repeating && !repeating.ok) {
      this.admission.cut(entry.url, repeating);
      await this.frontier.drop(ticket, this.stats);
      return;
    }
    // Queued before its parameter was learned to change nothing: the page without it is known, not asked again.
    const stripped = this.restoring.has(entry.url) ? entry.url : this.noopParams.strip(entry.url);
    if (stripped !== entry.url && this.admission.judged(stripped)) {
      this.admission.cut(entry.url, { ok: false, reason: 'no-op-param', detail: `the page without the parameter is ${stripped}` });
      await this.frontier.drop(ticket, this.stats);
      return;
    }

    const preferred = this.options.useRobotsHost && robots.host ? preferredHostUrl(entry.url, robots.host, this.canonicalizer.canonicalize) : undefined;
    if (preferred) {
      // Stored like a redirect, so the preferred URL goes through scope and robots like any other.
      const page: PageRecord = { ...blankPage(entry, new Date()), state: 'redirect', finalUrl: preferred };
      const follow: FrontierEntry[] = [{ url: preferred, depth: entry.depth, via: 'redirect', redirects: (entry.redirects ?? 0) + 1 }];
      const { queue, refused } = this.admission.queueable(follow, entry);
      this.countStored(page, undefined);
      await this.frontier.commit(ticket, page, queue, this.stats, refused);
      this.log('debug', 'moved to the robots.txt Host', { url: entry.url, to: preferred });
      this.afterCommit(page, true);
      return;
    }

    // Only a recrawl requeues stored pages; any other queued URL has no record yet (its commit is what
    // takes it off the queue), so the read is skipped on the hot path.
    const previous = this.options.recrawl ? ((await this.store.getPage(entry.url)) ?? null) : null;
    const outcome = await this.fetchPage(entry, previous ?? undefined, robots);
    if (outcome.kind === 'network-error' && (await this.interrupted(ticket))) return;
    this.counts.request(outcome.kind === 'body' ? outcome.body.byteLength : 0);

    if (await this.retryLater(ticket, outcome)) return;

    const context = this.context(entry, previous ?? undefined);
    // Compressed while the page is parsed; awaited before the commit.
    const raw = this.options.keepRaw ? rawResponse(outcome) : undefined;
    let parseError: string | undefined;
    if (outcome.kind === 'body') {
      try {
        const input = bodyInput(outcome, entry.url, context);
        context.analysis = isDocument(input)
          ? await analyzeDocument(input, outcome.truncated, this.options, (msg, fields) => this.log('info', msg, fields), this.hooks.signal)
          : await this.analyzer.analyze(withSiteRules(input, this.options.extractRules));
      } catch (e) {
        // Stopped while a document was read: it stays queued, as a request cut by the stop does.
        if (await this.interrupted(ticket)) return;
        // A parse worker died on this page (out of memory on a monstrous page): the page is an error, the crawl goes on.
        parseError = `could not parse the page: ${(e as Error).message}`;
      }
    }
    // A page that could not be parsed is an error page (on a recrawl the good copy stands, as through an
    // outage) that keeps the answer's status and type: a broken PDF is a 200 that could not be read, and
    // was counted as "no response".
    const failed: FetchOutcome | undefined = parseError !== undefined && outcome.kind === 'body' ? { kind: 'network-error', error: parseError, status: outcome.status, contentType: outcome.contentType } : undefined;
    const { page, follow, kept } = pageFromOutcome(failed ?? outcome, context);
    if (kept !== undefined) {
      this.log('info', 'recrawl failed for now; the stored copy stands', { url: entry.url, reason: kept });
      this.counts.kept();
    }
    const { queue, refused } = this.admission.queueable(follow, entry);
    // Counted before the write, in the same synchronous step, so the stats in the batch match the pages.
    this.countStored(page, previous ?? undefined);
    // Its text's fingerprint too: a copy parsed while this page waits for its commit (the next page of
    // the host is fetched meanwhile) is then a duplicate, where both were stored as originals.
    this.noteContent(page, previous ?? undefined);
    // A kept copy keeps its kept response too: the failure's is not the page's.
    const response = await raw;
    await this.frontier.commit(ticket, page, queue, this.stats, refused, kept === undefined ? response : undefined);
    this.afterCommit(page, previous === null);
  }

  /** One page request with the run's cookies. A redirect that sets a cookie is often the server asking
   * for its cookie back (a session or cookie check, cookies.ts), which a browser follows at once:
   * - to the page itself: it is asked again at once, with the cookie; once, so a server that never
   *   accepts it is still one redirect to itself;
   * - to a check page of the same site (one the answer set a cookie with, or told where to send the
   *   client back, `/check?return=/wall/`): up to MAX_DETOUR_HOPS redirects are followed at once, as
   *   far as robots.txt allows them, and when they lead back to the page with a cookie it lacked, the
   *   page is asked again with it. A detour that does not (a moved page on a site that sets a session
   *   cookie on every answer) costs its first request once more, when the frontier reaches it; after
   *   MAX_FRUITLESS_DETOURS such a site's redirects are left to the frontier. */
  private async fetchPage(entry: QueuedEntry, previous: PageRecord | undefined, robots: HostRobots): Promise<FetchOutcome> {
    const ask = async (): Promise<{ outcome: FetchOutcome; sent: string | undefined }> => {
      const sent = this.cookies?.header(entry.url);
      const outcome = await this.askPage(entry.url, pageRequestHeaders({ userAgent: this.userAgent, from: this.options.from }, entry, previous, sent));
      if (outcome.kind !== 'network-error') this.cookies?.remember(entry.url, outcome.headers['set-cookie']);
      return { outcome, sent };
    };
    const first = await ask();
    const { outcome } = first;
    if (this.cookies === undefined || outcome.kind !== 'redirect') return outcome;
    const target = canonicalizeUrl(outcome.location, entry.url, { stripParams: this.options.stripParams });
    if (target === undefined) return outcome;
    if (target !== entry.url) {
      // A check page is one the page's answer set a cookie for, or one told where to send the client
      // back (`?return=/wall/`); an ordinary moved page is left to the frontier.
      const setCookie = outcome.headers['set-cookie'];
      const sets = Array.isArray(setCookie) ? setCookie.length > 0 : (setCookie ?? '') !== '';
      if (!sets && !namesPageBack(target, entry.url)) return outcome;
      if (!(await this.detourComesBack(entry.url, target, robots))) return outcome;
    }
    if (this.cookies.header(entry.url) === first.sent) {
      // Back without a cookie it lacked: a redirect loop, not a check.
      if (target !== entry.url) this.detourFruitless(entry.url);
      return outcome;
    }
    this.counts.request(0);
    this.log('debug', 'a redirect set a cookie and led back; asked again with it', { url: entry.url });
    return (await ask()).outcome;
  }

  /** Whether the redirects from `target` lead back to `url` within MAX_DETOUR_HOPS, each asked at once
   * with the run's cookies (fetchPage); only on `url`'s own site and where robots.txt allows. */
  private async detourComesBack(url: string, target: string, robots: HostRobots): Promise<boolean> {
    const origin = originOf(url);
    if ((this.fruitlessDetours.get(origin) ?? 0) >= MAX_FRUITLESS_DETOURS) return false;
    let at = target;
    for (let hop = 0; hop < MAX_DETOUR_HOPS; hop++) {
      if (originOf(at) !== origin) break;
      if (respectsRobots(this.options, origin) && !robots.check(at).allowed) break;
      const outcome = await this.askPage(at, pageRequestHeaders({ userAgent: this.userAgent, from: this.options.from }, { referrer: url }, undefined, this.cookies?.header(at)));
      this.counts.request(outcome.kind === 'body' ? outcome.body.byteLength : 0);
      if (outcome.kind !== 'network-error') this.cookies?.remember(at, outcome.headers['set-cookie']);
      if (outcome.kind !== 'redirect') break;
      const next = canonicalizeUrl(outcome.location, at, { stripParams: this.options.stripParams });
      if (next === url) return true;
      if (next === undefined || next === at) break;
      at = next;
    }
    this.detourFruitless(url);
    return false;
  }

  private askPage(url: string, headers: Record<string, string>): Promise<FetchOutcome> {
    const { maxBodyBytes, connectTimeoutMs } = this.options;
    return fetchOnce(this.client, { url, headers, maxBodyBytes, wantedTypes: PAGE_TYPES, limits: this.options, signal: this.hooks.signal, connectTimeoutMs });
  }

  private detourFruitless(url: string): void {
    const origin = originOf(url);
    this.fruitlessDetours.set(origin, (this.fruitlessDetours.get(origin) ?? 0) + 1);
  }

  /**
   * A stored page the site's robots.txt now disallows, come to by a recrawl: its copy is replaced by a
   * `blocked` record, unasked, so the next index drops it. The site owner has said not to crawl it, and
   * a search that kept showing what they withdrew would not be a crawler they welcome; Nutch marks such
   * pages gone and deletes them from its index the same way. A later recrawl the rules allow again
   * fetches the page as any other.
   */
  private async disallowedNow(ticket: Ticket, rule: string): Promise<void> {
    const { entry } = ticket;
    const previous = await this.store.getPage(entry.url);
    // One already withdrawn stays as it is.
    if (previous === undefined || previous.state === 'blocked') {
      await this.frontier.drop(ticket, this.stats);
      return;
    }
    const page: PageRecord = { ...blankPage(entry, new Date()), state: 'blocked', error: `robots.txt now disallows it (${rule})` };
    this.countStored(page, previous);
    await this.frontier.commit(ticket, page, [], this.stats, []);
    this.log('info', 'robots.txt now disallows a stored page; it leaves the index', { url: entry.url, rule });
    this.afterCommit(page, false);
  }

  /** Stopped (Ctrl-C) while this URL's request was under way: it stays queued for the next run rather
   * than being stored as an error, and the host is let go. */
  private async interrupted(ticket: Ticket): Promise<boolean> {
    if (!this.hooks.signal?.aborted) return false;
    // A request may have reached the site before it was cut: the host's delay runs from now, so a
    // crawler sharing the frontier does not ask the site again at once.
    this.frontier.ended(ticket, performance.now());
    await this.frontier.leave(ticket);
    this.wake();
    return true;
  }

  private context(entry: QueuedEntry, previous: PageRecord | undefined): PageContext {
    return {
      entry,
      previous,
      agent: this.options.agent,
      stripParams: this.options.stripParams,
      maxRedirects: this.options.maxRedirects,
      fetchedAt: new Date(),
      firstCopyOf: (hash) => this.hashes.get(hash),
    };
  }

  /** Frees the host; true when the outcome was transient (politeness.ts) and the entry is queued again
   * after a wait, false when the page is to be stored (a transient failure past maxRetries as an error). */
  private async retryLater(ticket: Ticket, outcome: FetchOutcome): Promise<boolean> {
    const { entry } = ticket;
    // Waits are kept on the monotonic clock, as the loop's timers are: a wall clock that the machine
    // slews can make a 1 s Retry-After end a few milliseconds early. The wall clock only reads an
    // HTTP-date Retry-After.
    const now = performance.now();
    const failure = transientFailure(outcome);
    if (!failure) {
      this.attempts.forget(entry.url);
      this.hostFailures.forget(ticket.host);
      this.connectFailures.forget(ticket.host);
      this.requestEnded(ticket, now);
      return false;
    }
    const attempt = this.attempts.failed(entry.url);
    const step = retryStep(attempt, failure, Date.now(), this.options);
    const inARow = this.hostFailures.failed(ticket.host);
    // Only failures to connect at all count toward giving the host up: an answer, even a 503, says
    // the server is there. A server that answers but is down or in maintenance is given up too, after
    // more tries.
    const why = outcome.kind === 'network-error' ? whyUnreachable({ kind: 'network-error', message: outcome.error }) : undefined;
    if (why?.cannotConnect !== true) this.connectFailures.forget(ticket.host);
    let givenUp: { why: Unreachable; failures: number } | undefined;
    if (why?.cannotConnect === true) {
      const cannotConnect = this.connectFailures.failed(ticket.host);
      if (cannotConnect >= this.options.maxConnectFailures) givenUp = { why, failures: cannotConnect };
    }
    if (givenUp === undefined) {
      const down = hostGiveUp(failure, inARow, Date.now(), this.options);
      if (down !== undefined) givenUp = { why: { reason: down.reason, cannotConnect: false }, failures: down.failures };
    }
    // The host waits the backoff or only its usual delay (holdsHost); the URL goes behind the host's
    // other queued URLs. A host given up waits nothing: a link to it found later (on a page fetched
    // before, still being parsed) is skipped when picked, and the backoff kept a finished crawl waiting
    // up to maxBackoffMs (5 minutes) to skip it.
    const hostWaitMs = givenUp === undefined && holdsHost(failure, inARow) ? step.waitMs : 0;
    this.requestEnded(ticket, now, hostWaitMs);
    if (givenUp !== undefined) {
      this.attempts.forget(entry.url);
      await this.giveUpHostForPages(ticket, givenUp.why, givenUp.failures);
      return false; // this page is stored as an error page, the host's other URLs are skipped
    }
    if (!step.retry) {
      this.attempts.forget(entry.url);
      return false; // stored as an error page by pageFromOutcome
    }
    this.log('info', 'will retry', { url: entry.url, attempt, waitMs: hostWaitMs, reason: failure.kind === 'status' ? `HTTP ${failure.status}` : 'error' in outcome ? outcome.error : '' });
    // Behind the host's other URLs: their answers, between the retries, tell a few broken URLs from a
    // host that is down.
    await this.frontier.again(ticket, 'last');
    return true;
  }

  /** Drops the rest of a host whose page requests cannot connect any more, or fail in a row, or ask for
   * a longer wait than the crawl waits (retryLater). */
  private async giveUpHostForPages(ticket: Ticket, why: Unreachable, failures: number): Promise<void> {
    // Marked given up before the queue is dropped, which may wait on a shared frontier: a URL of the
    // host picked meanwhile is skipped, not fetched.
    const host = this.robotsWaits.givenUpForPages(ticket.host, why, failures, 0);
    const dropped = await this.frontier.dropHost(ticket);
    host.urls += dropped.length;
    this.log('warn', `${why.reason}${inARowSuffix(failures)}; giving up the site for this run (${dropped.length} queued URL${dropped.length === 1 ? '' : 's'} skipped)`, { origin: ticket.host, reason: why.reason, urls: dropped.length });
  }

  private async robotsUnreachable(ticket: Ticket, why: NonNullable<HostRobots['unreachable']>): Promise<void> {
    const origin = ticket.host;
    const step = this.robotsWaits.failed(origin, why);
    this.robots.delete(origin); // ask again after the backoff
    if (step.giveUp) {
      // RFC 9309 2.3.1.4: an unreachable robots.txt means the whole site is disallowed. A host that takes no
      // connection at all is given up at once: waiting for it would only hold the crawl.
      const dropped = [ticket.entry, ...(await this.frontier.dropHost(ticket))];
      if (!why.cannotConnect) this.counts.blocked(`${origin} robots.txt unreachable`, dropped.length);
      this.robotsWaits.givenUp(origin, why, dropped.length);
      this.log('warn', `robots.txt ${why.reason}; giving up the site (${step.failures} ${step.failures === 1 ? 'try' : 'tries'}, ${dropped.length} URL${dropped.length === 1 ? '' : 's'} skipped)`, { origin, reason: why.reason, urls: dropped.length });
      await this.frontier.drop(ticket, this.stats);
      return;
    }
    const wait = step.waitMs;
    this.robotsWaits.waitFor(origin, why, step, Date.now() + wait);
    // A warning, not info: when every seed's robots.txt is unreachable (a typo, a server down), this
    // line is all a user sees while the crawl waits, and RFC 9309 2.3.1.4 makes it wait.
    this.log('warn', `robots.txt ${why.reason}; asking again in ${Math.round(wait / 1000)} s (attempt ${step.failures} of ${step.attempts})`, { origin, reason: why.reason, failures: step.failures, waitMs: wait });
    this.requestEnded(ticket, performance.now(), wait);
    await this.frontier.again(ticket);
  }

  private async readSitemap(ticket: Ticket): Promise<void> {
    const { entry, host } = ticket;
    const found = await fetchSitemapUrls(this.client, entry.url, {
      userAgent: this.userAgent,
      from: this.options.from,
      // A sitemap may be 50 MB (the protocol's own limit), ten times a page's cap: cut at the page
      // cap, a large site's sitemap lost every URL after its first 5 MB.
      maxBodyBytes: Math.max(this.options.maxBodyBytes, DEFAULT_SITEMAP_OPTIONS.maxBytes),
      limits: this.options,
      signal: this.hooks.signal,
    });
    if (found.error !== undefined && (await this.interrupted(ticket))) return;
    this.counts.request();
    this.requestEnded(ticket, performance.now());
    const read = this.sitemapFiles.get(host) ?? 0;
    const { maxNesting, maxFilesPerHost } = DEFAULT_SITEMAP_OPTIONS;
    const next = sitemapFollowUps(found, entry, host, this.canonicalizer.canonicalize, { maxNesting, sitemapsLeft: maxFilesPerHost - read });
    // A sitemap that moved is asked where it went, at its own depth, on the same host name (http to
    // https included): a sitemap speaks for its own site.
    const moved = sitemapMovedTo(found.movedTo, entry, this.canonicalizer.canonicalize);
    if (moved !== undefined && read + next.sitemaps.length < maxFilesPerHost) next.sitemaps.push(moved);
    this.sitemapFiles.set(host, read + next.sitemaps.length);
    const entries = [...next.sitemaps, ...next.pages.filter((e) => this.admission.admissible(e.url, e.depth, 0))];
    this.log('debug', 'sitemap read', { url: entry.url, urls: found.urls.length, sitemaps: found.sitemaps.length, error: found.error, movedTo: found.movedTo });
    if (next.dropped > 0) {
      const why = entry.depth >= maxNesting ? `nested deeper than ${maxNesting} levels` : `past ${maxFilesPerHost} sitemap files for the host`;
      this.log('info', `sitemap lists sitemaps left unread: ${why}`, { url: entry.url, dropped: next.dropped });
    }
    await this.frontier.drop(ticket, this.stats, entries);
  }

  /** Whether the host already has as many URLs (queued or stored) as the crawl may store, or as the
   * host may hold: a sitemap read then adds nothing the crawl will ask. Sitemaps are read before the
   * pages they list (they are queued shallowest), so `--max-pages 5` on a site listing 1,000 sitemaps
   * read all 1,000 first (17 minutes at the default delay), and one sitemap index of 100 children
   * of 50,000 URLs held a crawl of 20 pages for 84 s and 823 MB. Logged once a host. */
  private sitemapBeyondBudget(url: string, host: string): boolean {
    const known = this.traps.contextFor(url).hostPages;
    if (known < this.options.maxPages && known < this.options.maxPagesPerHost) return false;
    if (!this.sitemapsCut.has(host)) {
      this.sitemapsCut.add(host);
      this.log('info', 'sitemaps left unread: the host already has as many URLs as the crawl may store', { host, urls: known, maxPages: this.options.maxPages });
    }
    return true;
  }

  /** A page about to be stored: counted for the crawl (moved from its old state when stored before) and this run. */
  private countStored(page: PageRecord, previous: PageRecord | undefined): void {
    if (previous) this.restoring.delete(page.url);
    else {
      this.traps.countPage(page.url, page.state === 'duplicate', true);
      if (page.state === 'ok' || page.state === 'duplicate') {
        for (const name of this.noopParams.countPage(page.url, page.duplicateOf)) {
          this.log('info', 'a query parameter changes nothing on this host: dropped from its links', { origin: new URL(page.url).origin, param: name, evidence: page.url, duplicateOf: page.duplicateOf });
        }
      }
    }
    this.counts.stored(page, previous);
  }

  /** The first copy of each content fingerprint, so later copies are stored as duplicates of it. A page
   * recrawled away from the text it was the first copy of (changed, gone, moved) gives that text up: a
   * copy of it met later is then the original, not a duplicate of a page that no longer says it. */
  private noteContent(page: PageRecord, previous: PageRecord | undefined): void {
    const hash = pageFact(page).hash;
    const before = previous === undefined ? undefined : pageFact(previous).hash;
    if (before !== undefined && before !== hash && this.hashes.get(before) === page.url) this.hashes.delete(before);
    if (hash !== undefined && !this.hashes.has(hash)) this.hashes.set(hash, page.url);
  }

  /** `isNew`: the page was not in the store before this commit (a recrawl re-stores pages). */
  private afterCommit(page: PageRecord, isNew: boolean): void {
    this.counts.committed(isNew);
    this.log('debug', 'page stored', { url: page.url, state: page.state, status: page.status, links: page.links.length });
  }
}
