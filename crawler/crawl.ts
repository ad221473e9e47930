// The crawl loop: take the shallowest URL of a host that may be asked now, ask robots.txt, fetch,
// turn the response into a page record, and commit page + discovered URLs + frontier update in one
// atomic store write. Everything a crawler decides lives in the modules this file calls:
// robots/ (may we?), politeness.ts and scheduler.ts (when?), fetch.ts (HTTP), page.ts (what did we get?),
// scope.ts and traps.ts (should this URL be queued?).

import { GleanerError, isGleanerError } from '../shared/errors.js';
import { openStore, type QueuedEntry, type Store, type CrawlStats, type FrontierEntry, type PageRecord } from '../shared/store/index.js';
import { canonicalizeUrl, originOf } from '../shared/url.js';
import { createHttpClient, fetchOnce, headerValue, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import { silentLogger, type Logger } from '../shared/log.js';
import type { CrawlOptions } from './options.js';
import { userAgentHeader } from '../shared/agent.js';
import { blankPage, bodyInput, pageFromOutcome, type PageContext } from './page.js';
import { createBodyAnalyzer, type BodyAnalyzer } from './analyze-pool.js';
import { backoffMs, effectiveDelayMs, retryAfterMs } from './politeness.js';
import type { HostRobots } from '../shared/robots/index.js';
import { robotsForOrigin } from './robots-cache.js';
import { RobotsWaits, type HostGivenUp, type RobotsWait } from './robots-waits.js';
import { HostScheduler } from './scheduler.js';
import { preferredHostUrl } from './host-directive.js';
import { shapeChain, TrapGuard, type TrapVerdict } from './traps.js';
import { countPage, followedUrls, newRunFigures, type RunFigures } from './crawl-counts.js';
import { prepareCrawl } from './prepare.js';
import { fetchSitemapUrls } from './sitemaps-fetch.js';
import type { Dispatcher } from 'undici';

/** Text that is not only whitespace: what dedup.ts's duplicateKey needs to give a key. */
const HAS_TEXT = /[^\s\u00a0]/;

/** Bound on the per-run cache of judged URLs (~100 bytes each); past it the cache starts again. */
const JUDGED_CACHE_LIMIT = 1_000_000;

export interface CrawlProgress {
  pages: number;
  pagesThisRun: number;
  queued: number;
  inFlight: number;
  hosts: number;
  errors: number;
  blocked: number;
  pagesPerSecond: number;
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
  const store = await openStore(options.dataDir);
  try {
    return await new CrawlRun(store, options, inScope, hooks).execute();
  } finally {
    await store.close();
  }
}

class CrawlRun {
  private readonly log: Logger;
  private readonly client: Dispatcher;
  private readonly analyzer: BodyAnalyzer;
  private readonly scheduler: HostScheduler;
  private readonly robots = new Map<string, Promise<HostRobots>>();
  private readonly robotsWaits: RobotsWaits;
  private readonly attempts = new Map<string, number>();
  private readonly hashes = new Map<string, string>();
  /** URLs already judged for the frontier in this run (queued or refused); the store dedupes across runs. */
  private readonly judged = new Set<string>();
  private readonly traps: TrapGuard;
  private readonly userAgent: string;
  private stats!: CrawlStats;
  private pagesStored = 0;
  /** Pages whose write reached the store: pagesStored counts a page before its write, to put the stats in its batch. */
  private pagesCommitted = 0;
  private pagesThisRun = 0;
  private readonly thisRun = newRunFigures();
  private requestsBefore = 0;
  /** In-flight entries that may store a new page: with pagesStored, never more than maxPages. */
  private slots = 0;
  /** Entries picked while every page slot was taken: back to the scheduler when one frees. */
  private parked: QueuedEntry[] = [];
  /** Stored URLs a recrawl fetches again: they re-store a page, so they take no page slot. */
  private readonly restoring = new Set<string>();
  private inFlight = 0;
  private stopLaunching = false;
  private stoppedBecause: CrawlSummary['stoppedBecause'] = 'done';
  /** The data dir failed under the crawl (disk full, gone read-only): the crawl stops once and throws it. */
  private dataDirFailure: GleanerError | undefined;
  private wake: () => void = () => {};
  private readonly started = Date.now();

  constructor(
    private readonly store: Store,
    private readonly options: CrawlOptions,
    private readonly inScope: (url: string) => boolean,
    private readonly hooks: CrawlHooks,
  ) {
    this.log = hooks.log ?? silentLogger;
    this.client = createHttpClient(options);
    this.analyzer = createBodyAnalyzer(options.parseThreads);
    this.scheduler = new HostScheduler(originOf, options.delayMs, options.hostConnections);
    this.userAgent = userAgentHeader(options.agent);
    this.robotsWaits = new RobotsWaits(options.robotsRetries);
    this.traps = new TrapGuard(options);
  }

  async execute(): Promise<CrawlSummary> {
    const { store, options } = this;
    this.stats = (await store.getCrawlStats()) ?? emptyStats(options.seeds);
    this.stats.finishedAt = undefined;
    this.stats.seeds = [...new Set([...this.stats.seeds, ...options.seeds])];
    // Per-page counts are recounted from the pages themselves: right whenever and however the last run ended.
    Object.assign(this.stats, { pagesByState: {}, pagesByStatus: {}, errors: 0, duplicates: 0 });
    this.requestsBefore = this.stats.requests;

    // What earlier runs stored: page counts, content fingerprints for duplicates, per-host and per-shape
    // counts for traps, and the links already judged (so a resumed crawl does not count a cut twice).
    for await (const page of store.pages()) {
      this.pagesStored++;
      countPage(this.stats, page, +1);
      this.rememberContent(page);
      this.traps.countPage(page.url, page.state === 'duplicate');
      for (const url of followedUrls(page)) this.judge(url);
    }
    this.pagesCommitted = this.pagesStored;
    const seedEntries: FrontierEntry[] = options.seeds.map((url) => ({ url, depth: 0, via: 'seed' }));
    await store.frontier.add(seedEntries);
    if (options.recrawl) {
      const again: FrontierEntry[] = [];
      for await (const page of store.pages()) if (page.state !== 'redirect') again.push({ url: page.url, depth: page.depth, via: 'link' });
      for (const e of await store.frontier.add(again, { force: true })) this.restoring.add(e.url);
    }
    for await (const entry of store.frontier.queued()) {
      this.scheduler.add(entry);
      this.traps.countQueued(entry.url);
    }
    this.log('info', 'crawl started', { seeds: options.seeds, queued: this.scheduler.size, storedBefore: this.pagesStored });

    const timer = this.hooks.onProgress
      ? setInterval(() => this.hooks.onProgress!(this.progress()), this.hooks.progressIntervalMs ?? 500)
      : undefined;
    try {
      await this.loop();
    } finally {
      if (timer) clearInterval(timer);
      // Stopped: whatever a server still holds open is dropped, not waited for.
      await (this.stoppedBecause === 'aborted' ? this.client.destroy() : this.client.close());
      await this.analyzer.close();
    }
    this.stats.finishedAt = new Date().toISOString();
    this.stats.hosts = Math.max(this.stats.hosts, this.scheduler.hostCount);
    if (!this.dataDirFailure) {
      await store.putCrawlStats(this.stats).catch((e: unknown) => {
        if (!this.failedOnDataDir(e)) throw e;
      });
    }
    if (this.dataDirFailure) {
      const f = this.dataDirFailure;
      throw new GleanerError('DATA_DIR', `crawl stopped: ${f.message}; the ${this.pagesCommitted} pages stored so far are kept (make room, then run again to resume)`, { cause: f });
    }
    if (this.stoppedBecause === 'done' && this.pagesThisRun === 0 && this.robotsWaits.allGivenUp(new Set(options.seeds.map(originOf)))) {
      this.stoppedBecause = 'unreachable';
    }
    this.hooks.onProgress?.(this.progress());
    for (const [reason, urls] of Object.entries(this.stats.trapsCut)) {
      this.log('info', 'trap rule total', { reason, urls, example: this.stats.trapExamples?.[reason] });
    }
    this.thisRun.requests = this.stats.requests - this.requestsBefore;
    const hostsGivenUp = this.robotsWaits.givenUpHosts;
    const summary = { stats: this.stats, pagesThisRun: this.pagesThisRun, thisRun: this.thisRun, seconds: (Date.now() - this.started) / 1000, stoppedBecause: this.stoppedBecause, hostsGivenUp };
    this.log('info', 'crawl finished', { pagesThisRun: this.pagesThisRun, seconds: summary.seconds, stoppedBecause: this.stoppedBecause });
    return summary;
  }

  private progress(): CrawlProgress {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    return {
      pages: this.pagesStored,
      pagesThisRun: this.pagesThisRun,
      queued: this.scheduler.size,
      inFlight: this.inFlight,
      hosts: this.scheduler.hostCount,
      errors: this.stats.errors,
      blocked: Object.values(this.stats.blockedByRule).reduce((a, b) => a + b, 0),
      pagesPerSecond: this.pagesThisRun / seconds,
      robotsWaiting: this.robotsWaits.waitingHosts,
      hostsGivenUp: this.robotsWaits.givenUpHosts,
    };
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
        if (!this.stopLaunching && this.pagesStored >= this.options.maxPages && this.restoring.size === 0) {
          this.stopLaunching = true;
          this.stoppedBecause = 'max-pages';
        }
        let waitMs = Infinity;
        if (!this.stopLaunching) {
          while (this.inFlight < this.options.concurrency) {
            const pick = this.scheduler.next(Date.now());
            if ('entry' in pick) {
              const slot = this.takesSlot(pick.entry);
              if (slot && this.pagesStored + this.slots >= this.options.maxPages) {
                // Every page left under --max-pages is being fetched: this one waits, queued, for one
                // that ends without storing a page (blocked, retried later), or for a later run.
                this.parked.push(pick.entry);
                this.scheduler.releaseWithoutRequest(pick.host);
                continue;
              }
              this.launch(pick.entry, pick.host, slot);
              continue;
            }
            if ('waitMs' in pick) waitMs = pick.waitMs;
            break;
          }
        }
        if (this.inFlight === 0 && (this.stopLaunching || waitMs === Infinity)) {
          if (this.parked.length > 0 && this.stoppedBecause === 'done') this.stoppedBecause = 'max-pages';
          return;
        }
        await new Promise<void>((resolve) => {
          const t = waitMs === Infinity ? undefined : setTimeout(resolve, waitMs);
          this.wake = () => {
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

  private launch(entry: QueuedEntry, host: string, slot: boolean): void {
    this.inFlight++;
    if (slot) this.slots++;
    this.process(entry, host)
      .catch((e: unknown) => {
        if (this.failedOnDataDir(e)) {
          this.freeHost(host, Date.now());
          return;
        }
        // A bug or a store failure: stop cleanly rather than crawl on with a broken store.
        this.log('error', 'crawl stopped by an unexpected error', { url: entry.url, error: String((e as Error)?.stack ?? e) });
        this.stopLaunching = true;
        this.stoppedBecause = 'aborted';
        this.freeHost(host, Date.now());
      })
      .finally(() => {
        this.inFlight--;
        if (slot) this.slots--;
        if (this.parked.length > 0 && this.pagesStored + this.slots < this.options.maxPages) {
          for (const e of this.parked) this.scheduler.add(e);
          this.parked = [];
        }
        this.wake();
      });
  }

  /**
   * A write the data dir refused (disk full, gone read-only) stops the crawl; every write after the first
   * fails the same way, so only the first is kept, for execute() to throw. False for any other error.
   */
  private failedOnDataDir(e: unknown): boolean {
    if (!isGleanerError(e) || e.code !== 'DATA_DIR') return false;
    this.dataDirFailure ??= e;
    this.stopLaunching = true;
    return true;
  }

  /** The request to `host` is over: the next may start after the delay. Wakes the loop so the next
   * fetch overlaps this page's parsing and storing instead of waiting for them. */
  private freeHost(host: string, now: number, extraWaitMs = 0): void {
    this.scheduler.release(host, now, extraWaitMs);
    this.wake();
  }

  /** No request was made (blocked, moved): the host is free at once. */
  private freeHostAtOnce(host: string): void {
    this.scheduler.releaseWithoutRequest(host);
    this.wake();
  }

  private robotsFor(origin: string): Promise<HostRobots> {
    let p = this.robots.get(origin);
    if (!p) {
      p = robotsForOrigin(origin, this.store, {
        agent: this.options.agent,
        mode: this.options.robotsMode,
        userAgentHeader: this.userAgent,
        from: this.options.from,
        maxCacheSeconds: this.options.robotsMaxCacheSeconds,
        // robots.txt is small: its whole fetch must come within the time to a page's headers, and never
        // past the deadline every request has.
        timeoutMs: Math.min(this.options.headersTimeoutMs, this.options.requestTimeoutMs),
        backoffMs: this.options.robotsBackoffMs,
        maxBackoffMs: this.options.maxBackoffMs,
        retryUnreachable: true,
        minRate: this.options,
        signal: this.hooks.signal,
        respect: this.options.sites[origin] ?? 'inherit',
        log: this.log,
      }).then((robots) => this.onRobotsLoaded(origin, robots));
      this.robots.set(origin, p);
    }
    return p;
  }

  private async onRobotsLoaded(origin: string, robots: HostRobots): Promise<HostRobots> {
    if (robots.outcome === 'unreachable') return robots;
    const { delayMs, capped } = effectiveDelayMs(this.options.delayMs, robots.crawlDelaySeconds, this.options.maxCrawlDelayMs);
    this.scheduler.setDelay(origin, delayMs);
    if (capped) this.log('warn', 'robots.txt Crawl-delay above the cap; using the cap', { origin, crawlDelaySeconds: robots.crawlDelaySeconds, capMs: this.options.maxCrawlDelayMs });
    if (this.options.useSitemaps) {
      const sitemaps = [...new Set([...robots.sitemaps, `${origin}/sitemap.xml`])];
      const entries: FrontierEntry[] = [];
      for (const url of sitemaps) {
        const canonical = canonicalizeUrl(url, undefined, { stripParams: this.options.stripParams });
        if (canonical && originOf(canonical) === origin) entries.push({ url: canonical, depth: 0, via: 'sitemap', sitemap: true });
      }
      for (const e of await this.store.frontier.add(entries)) this.scheduler.add(e);
    }
    return robots;
  }

  private respectsRobots(origin: string): boolean {
    const site = this.options.sites[origin] ?? 'inherit';
    return site === 'always' || (site === 'inherit' && this.options.respectRobots);
  }

  private async process(entry: QueuedEntry, host: string): Promise<void> {
    const origin = host; // the scheduler keys hosts by origin, the unit robots.txt applies to
    const robots = await this.robotsFor(origin);
    if (this.interrupted(host)) return;
    if (robots.outcome === 'unreachable' && this.respectsRobots(origin)) {
      await this.robotsUnreachable(entry, host, robots);
      return;
    }
    this.robotsWaits.ok(origin);
    if (this.respectsRobots(origin)) {
      const verdict = robots.check(entry.url);
      if (!verdict.allowed) {
        const rule = verdict.rule ? `line ${verdict.rule.line}: ${verdict.rule.type} ${verdict.rule.pattern}` : (verdict.reason ?? 'whole site');
        const key = `${origin} ${rule}`;
        this.stats.blockedByRule[key] = (this.stats.blockedByRule[key] ?? 0) + 1;
        await this.store.frontier.drop(entry, this.stats);
        this.freeHostAtOnce(host);
        return;
      }
    }

    if (entry.sitemap) {
      await this.readSitemap(entry, host);
      return;
    }
    // A recrawl fetches stored pages again whatever their shape; a new URL is checked once more here.
    const repeating = this.restoring.has(entry.url) ? undefined : this.traps.recheck(entry.url);
    if (repeating && !repeating.ok) {
      this.countCut(entry.url, repeating);
      await this.store.frontier.drop(entry, this.stats);
      this.freeHostAtOnce(host);
      return;
    }

    const preferred = this.options.useRobotsHost && robots.host ? preferredHostUrl(entry.url, robots.host) : undefined;
    if (preferred) {
      // Stored like a redirect, so the preferred URL goes through scope and robots like any other.
      const page: PageRecord = { ...blankPage(entry, new Date()), state: 'redirect', finalUrl: preferred };
      const follow: FrontierEntry[] = [{ url: preferred, depth: entry.depth, via: 'redirect', redirects: (entry.redirects ?? 0) + 1 }];
      const discovered = this.queueable(follow, entry);
      this.countStored(page, undefined);
      const added = await this.store.commitFetch(entry, page, discovered, this.stats);
      for (const e of added) this.scheduler.add(e);
      this.freeHostAtOnce(host);
      this.log('debug', 'moved to the robots.txt Host', { url: entry.url, to: preferred });
      this.afterCommit(page, true);
      return;
    }

    // Only a recrawl requeues stored pages; any other queued URL has no record yet (its commit is what
    // takes it off the queue), so the read is skipped on the hot path.
    const previous = this.options.recrawl ? ((await this.store.getPage(entry.url)) ?? null) : null;
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
    };
    if (this.options.from) headers.from = this.options.from;
    if (entry.referrer) headers.referer = entry.referrer;
    if (previous?.state === 'ok') {
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
    }
    const outcome = await fetchOnce(this.client, {
      url: entry.url,
      headers,
      maxBodyBytes: this.options.maxBodyBytes,
      wantedTypes: PAGE_TYPES,
      limits: this.options,
      signal: this.hooks.signal,
    });
    if (outcome.kind === 'network-error' && this.interrupted(host)) return;
    this.stats.requests++;
    if (outcome.kind === 'body') this.stats.bytes += outcome.body.byteLength;

    if (await this.retryLater(entry, host, outcome)) return;
    this.freeHost(host, Date.now());
    this.attempts.delete(entry.url);

    const context = this.context(entry, previous ?? undefined);
    let analysed: FetchOutcome = outcome;
    if (outcome.kind === 'body') {
      try {
        context.analysis = await this.analyzer.analyze(bodyInput(outcome, entry.url, context));
      } catch (e) {
        // A parse worker died on this page (out of memory on a monstrous page): the page is an error, the crawl goes on.
        analysed = { kind: 'network-error', error: `could not parse the page: ${(e as Error).message}` };
      }
    }
    const { page, follow } = pageFromOutcome(analysed, context);
    const discovered = this.queueable(follow, entry);
    // Counted before the write, in the same synchronous step, so the stats in the batch match the pages.
    this.countStored(page, previous ?? undefined);
    const added = await this.store.commitFetch(entry, page, discovered, this.stats);
    for (const e of added) this.scheduler.add(e);
    this.afterCommit(page, previous === null);
  }

  /** Stopped (Ctrl-C) while this URL's request was under way: it stays queued for the next run rather
   * than being stored as an error, and the host is let go. */
  private interrupted(host: string): boolean {
    if (!this.hooks.signal?.aborted) return false;
    this.freeHostAtOnce(host);
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

  /** 429/503 with Retry-After, other 5xx and network errors: back off and try again, a bounded number of times. */
  private async retryLater(entry: QueuedEntry, host: string, outcome: FetchOutcome): Promise<boolean> {
    const transient =
      outcome.kind === 'network-error' || (outcome.kind === 'status' && (outcome.status === 429 || outcome.status >= 500));
    if (!transient) return false;
    const attempt = (this.attempts.get(entry.url) ?? 0) + 1;
    this.attempts.set(entry.url, attempt);
    if (attempt > this.options.maxRetries) {
      this.freeHost(host, Date.now(), backoffMs(attempt, this.options.backoffMs, this.options.maxBackoffMs));
      this.attempts.delete(entry.url);
      return false; // stored as an error page by pageFromOutcome
    }
    const now = Date.now();
    const asked = outcome.kind === 'status' ? retryAfterMs(headerValue(outcome.headers, 'retry-after'), now) : undefined;
    const wait = asked ?? backoffMs(attempt, this.options.backoffMs, this.options.maxBackoffMs);
    this.log('info', 'will retry', {
      url: entry.url,
      attempt,
      waitMs: wait,
      reason: outcome.kind === 'status' ? `HTTP ${outcome.status}` : outcome.error,
    });
    this.freeHost(host, now, Math.min(wait, this.options.maxBackoffMs));
    this.scheduler.add(entry);
    return true;
  }

  private async robotsUnreachable(entry: QueuedEntry, host: string, robots: HostRobots): Promise<void> {
    const origin = host;
    const why = robots.unreachable ?? { reason: 'unreachable', cannotConnect: false };
    const step = this.robotsWaits.failed(origin, why);
    this.robots.delete(origin); // ask again after the backoff
    if (step.giveUp) {
      // RFC 9309 2.3.1.4: an unreachable robots.txt means the whole site is disallowed. A host that takes no
      // connection at all is given up at once: waiting for it would only hold the crawl.
      const dropped = [entry, ...this.scheduler.clearHost(host)];
      if (!why.cannotConnect) {
        const key = `${origin} robots.txt unreachable`;
        this.stats.blockedByRule[key] = (this.stats.blockedByRule[key] ?? 0) + dropped.length;
      }
      this.robotsWaits.givenUp(origin, why, dropped.length);
      this.log('warn', `robots.txt ${why.reason}; giving up the site (${step.failures} ${step.failures === 1 ? 'try' : 'tries'}, ${dropped.length} URL${dropped.length === 1 ? '' : 's'} skipped)`, { origin, reason: why.reason, urls: dropped.length });
      for (const e of dropped) await this.store.frontier.drop(e, this.stats);
      this.freeHostAtOnce(host);
      return;
    }
    const wait = backoffMs(step.failures, this.options.robotsBackoffMs, this.options.maxBackoffMs);
    this.robotsWaits.waitFor(origin, why, step, Date.now() + wait);
    // A warning, not info: when every seed's robots.txt is unreachable (a typo, a server down), this
    // line is all a user sees while the crawl waits, and RFC 9309 2.3.1.4 makes it wait.
    this.log('warn', `robots.txt ${why.reason}; asking again in ${Math.round(wait / 1000)} s (attempt ${step.failures} of ${step.attempts})`, { origin, reason: why.reason, failures: step.failures, waitMs: wait });
    this.freeHost(host, Date.now(), wait);
    this.scheduler.add(entry);
  }

  private async readSitemap(entry: QueuedEntry, host: string): Promise<void> {
    const found = await fetchSitemapUrls(this.client, entry.url, {
      userAgent: this.userAgent,
      maxBodyBytes: this.options.maxBodyBytes,
      limits: this.options,
      signal: this.hooks.signal,
    });
    if (found.error !== undefined && this.interrupted(host)) return;
    this.stats.requests++;
    this.freeHost(host, Date.now());
    const entries: FrontierEntry[] = [];
    for (const url of found.sitemaps) {
      const c = canonicalizeUrl(url, undefined, { stripParams: this.options.stripParams });
      if (c && originOf(c) === host) entries.push({ url: c, depth: entry.depth, via: 'sitemap', sitemap: true });
    }
    for (const url of found.urls) {
      const c = canonicalizeUrl(url, undefined, { stripParams: this.options.stripParams });
      if (c && this.admissible(c, 1, 0)) entries.push({ url: c, depth: 1, via: 'sitemap', referrer: entry.url });
    }
    this.log('debug', 'sitemap read', { url: entry.url, urls: found.urls.length, sitemaps: found.sitemaps.length, error: found.error });
    for (const e of await this.store.frontier.add(entries)) this.scheduler.add(e);
    await this.store.frontier.drop(entry, this.stats);
  }

  /** Marks the URL judged; false when it was already. */
  private judge(url: string): boolean {
    if (this.judged.has(url)) return false;
    if (this.judged.size >= JUDGED_CACHE_LIMIT) this.judged.clear();
    this.judged.add(url);
    return true;
  }

  /** In scope and not a trap: may this URL be queued at this depth, `chain` same-shape hops from a page of another shape? */
  private admissible(url: string, depth: number, chain: number): boolean {
    // A page links to the same navigation URLs as its neighbours: judge each URL once per crawl (stored
    // pages' links are judged again at start, uncounted). Breadth-first order means the first sighting is
    // (nearly always) the shallowest, so depth limits stay right.
    if (!this.judge(url)) return false;
    if (!this.inScope(url)) {
      this.stats.outOfScope++;
      return false;
    }
    const trap = this.traps.check(url, depth, chain);
    if (!trap.ok) {
      this.countCut(url, trap);
      return false;
    }
    return true;
  }

  private countCut(url: string, trap: Extract<TrapVerdict, { ok: false }>): void {
    this.stats.trapsCut[trap.reason] = (this.stats.trapsCut[trap.reason] ?? 0) + 1;
    this.stats.trapExamples ??= {};
    this.stats.trapExamples[trap.reason] ??= url;
    this.log('info', 'URL cut as a trap', { url, reason: trap.reason, detail: trap.detail });
  }

  /** The URLs found on `from`'s page that may be queued, each with its same-shape chain. */
  private queueable(follow: FrontierEntry[], from: QueuedEntry): FrontierEntry[] {
    const out: FrontierEntry[] = [];
    for (const e of follow) {
      const chain = shapeChain(e.url, from.url, from.shapeChain ?? 0);
      if (this.admissible(e.url, e.depth, chain)) out.push(chain > 0 ? { ...e, shapeChain: chain } : e);
    }
    return out;
  }

  /** A page about to be stored: counted for the crawl (moved from its old state when stored before) and this run. */
  private countStored(page: PageRecord, previous: PageRecord | undefined): void {
    if (previous) {
      countPage(this.stats, previous, -1);
      this.restoring.delete(page.url);
    } else {
      this.pagesStored++;
      this.traps.countPage(page.url, page.state === 'duplicate');
    }
    countPage(this.stats, page, +1);
    countPage(this.thisRun, page, +1);
    this.thisRun.pages++;
  }

  /** The first copy of each content fingerprint, so later copies are stored as duplicates of it. */
  private rememberContent(page: PageRecord): void {
    // A page with text has its duplicate key as contentHash (analyze.ts); testing for text is enough,
    // rather than hashing 30 KB again on the loop's thread.
    if (page.state === 'ok' && HAS_TEXT.test(page.text) && !this.hashes.has(page.contentHash)) this.hashes.set(page.contentHash, page.url);
  }

  /** `isNew`: the page was not in the store before this commit (a recrawl re-stores pages). */
  private afterCommit(page: PageRecord, isNew: boolean): void {
    this.pagesThisRun++;
    if (isNew) this.pagesCommitted++;
    this.rememberContent(page);
    this.log('debug', 'page stored', { url: page.url, state: page.state, status: page.status, links: page.links.length });
  }
}

function emptyStats(seeds: string[]): CrawlStats {
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
