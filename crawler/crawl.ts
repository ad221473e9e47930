// The crawl loop: take the shallowest URL of a host that may be asked now, ask robots.txt, fetch,
// turn the response into a page record, and commit page + discovered URLs + frontier update in one
// atomic store write. Everything a crawler decides lives in the modules this file calls:
// robots/ (may we?), politeness.ts and scheduler.ts (when?), fetch.ts (HTTP), page.ts (what did we get?),
// scope.ts and traps.ts (should this URL be queued?).

import { GleanerError } from '../shared/errors.js';
import { openStore, type QueuedEntry, type Store } from '../shared/store.js';
import type { CrawlStats, FrontierEntry, PageRecord } from '../shared/types.js';
import { canonicalizeUrl, originOf } from '../shared/url.js';
import { createHttpClient, fetchOnce, headerValue, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import { silentLogger, type Logger } from './log.js';
import { resolveCrawlOptions, userAgentHeader, type CrawlOptions } from './options.js';
import { blankPage, bodyInput, pageFromOutcome, type PageContext } from './page.js';
import { createBodyAnalyzer, type BodyAnalyzer } from './analyze-pool.js';
import { backoffMs, effectiveDelayMs, retryAfterMs } from './politeness.js';
import { robotsForOrigin, type HostRobots } from './robots/index.js';
import { HostScheduler } from './scheduler.js';
import { preferredHostUrl } from './host-directive.js';
import { makeScopeFilter } from './scope.js';
import { TrapGuard } from './traps.js';
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
}

export interface CrawlHooks {
  log?: Logger;
  onProgress?: (p: CrawlProgress) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface CrawlSummary {
  stats: CrawlStats;
  pagesThisRun: number;
  seconds: number;
  stoppedBecause: 'done' | 'max-pages' | 'aborted';
}

/** Crawls from `given.seeds` into the store in `given.dataDir`, resuming whatever an earlier run left queued. */
export async function crawl(given: Partial<CrawlOptions> & Pick<CrawlOptions, 'dataDir' | 'seeds'>, hooks: CrawlHooks = {}): Promise<CrawlSummary> {
  const options = resolveCrawlOptions(given);
  const seeds = options.seeds.map((s) => {
    const url = canonicalizeUrl(s, undefined, { stripParams: options.stripParams });
    if (url === undefined) throw new GleanerError('BAD_ARGUMENT', `not an http(s) URL: ${s}`);
    return url;
  });
  // Compiled before the store opens, so a bad --include/--exclude pattern is a message, not a half-run crawl.
  const scope = makeScopeFilter(seeds, { scope: options.scope, include: options.include, exclude: options.exclude });
  const store = await openStore(options.dataDir);
  try {
    return await new CrawlRun(store, { ...options, seeds }, scope, hooks).execute();
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
  private readonly robotsFailures = new Map<string, number>();
  private readonly attempts = new Map<string, number>();
  private readonly hashes = new Map<string, string>();
  /** URLs already judged for the frontier in this run (queued or refused); the store dedupes across runs. */
  private readonly judged = new Set<string>();
  private readonly traps: TrapGuard;
  private readonly userAgent: string;
  private stats!: CrawlStats;
  private pagesStored = 0;
  private pagesThisRun = 0;
  private inFlight = 0;
  private stopLaunching = false;
  private stoppedBecause: CrawlSummary['stoppedBecause'] = 'done';
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
    this.traps = new TrapGuard({
      maxUrlLength: options.maxUrlLength,
      maxDepth: options.maxDepth,
      maxPagesPerHost: options.maxPagesPerHost,
    });
  }

  async execute(): Promise<CrawlSummary> {
    const { store, options } = this;
    this.stats = (await store.getCrawlStats()) ?? emptyStats(options.seeds);
    this.stats.finishedAt = undefined;
    this.stats.seeds = [...new Set([...this.stats.seeds, ...options.seeds])];

    // What earlier runs stored: page count, content fingerprints for duplicates, per-host counts for traps.
    for await (const page of store.pages()) {
      this.pagesStored++;
      this.rememberContent(page);
      this.traps.countPage(page.url);
    }
    const seedEntries: FrontierEntry[] = options.seeds.map((url) => ({ url, depth: 0, via: 'seed' }));
    await store.frontier.add(seedEntries);
    if (options.recrawl) {
      const again: FrontierEntry[] = [];
      for await (const page of store.pages()) if (page.state !== 'redirect') again.push({ url: page.url, depth: page.depth, via: 'link' });
      await store.frontier.add(again, { force: true });
    }
    for await (const entry of store.frontier.queued()) this.scheduler.add(entry);
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
    await store.putCrawlStats(this.stats);
    this.hooks.onProgress?.(this.progress());
    const summary = { stats: this.stats, pagesThisRun: this.pagesThisRun, seconds: (Date.now() - this.started) / 1000, stoppedBecause: this.stoppedBecause };
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
        if (!this.stopLaunching && this.pagesStored >= this.options.maxPages) {
          this.stopLaunching = true;
          this.stoppedBecause = 'max-pages';
        }
        let waitMs = Infinity;
        if (!this.stopLaunching) {
          while (this.inFlight < this.options.concurrency) {
            const pick = this.scheduler.next(Date.now());
            if ('entry' in pick) {
              this.launch(pick.entry, pick.host);
              continue;
            }
            if ('waitMs' in pick) waitMs = pick.waitMs;
            break;
          }
        }
        if (this.inFlight === 0 && (this.stopLaunching || waitMs === Infinity)) return;
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

  private launch(entry: QueuedEntry, host: string): void {
    this.inFlight++;
    this.process(entry, host)
      .catch((e: unknown) => {
        // A bug or a store failure: stop cleanly rather than crawl on with a broken store.
        this.log('error', 'crawl stopped by an unexpected error', { url: entry.url, error: String((e as Error)?.stack ?? e) });
        this.stopLaunching = true;
        this.stoppedBecause = 'aborted';
        this.freeHost(host, Date.now());
      })
      .finally(() => {
        this.inFlight--;
        this.wake();
      });
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
        timeoutMs: this.options.headersTimeoutMs,
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
    this.robotsFailures.delete(origin);
    if (this.respectsRobots(origin)) {
      const verdict = robots.check(entry.url);
      if (!verdict.allowed) {
        const rule = verdict.rule ? `line ${verdict.rule.line}: ${verdict.rule.type} ${verdict.rule.pattern}` : (verdict.reason ?? 'whole site');
        const key = `${origin} ${rule}`;
        this.stats.blockedByRule[key] = (this.stats.blockedByRule[key] ?? 0) + 1;
        await this.store.frontier.drop(entry);
        this.freeHostAtOnce(host);
        return;
      }
    }

    if (entry.sitemap) {
      await this.readSitemap(entry, host);
      return;
    }

    const preferred = this.options.useRobotsHost && robots.host ? preferredHostUrl(entry.url, robots.host) : undefined;
    if (preferred) {
      // Stored like a redirect, so the preferred URL goes through scope and robots like any other.
      const page: PageRecord = { ...blankPage(entry, new Date()), state: 'redirect', finalUrl: preferred };
      const follow: FrontierEntry[] = [{ url: preferred, depth: entry.depth, via: 'redirect', redirects: (entry.redirects ?? 0) + 1 }];
      const added = await this.store.commitFetch(entry, page, this.queueable(follow));
      for (const e of added) this.scheduler.add(e);
      this.freeHostAtOnce(host);
      this.log('debug', 'moved to the robots.txt Host', { url: entry.url, to: preferred });
      this.afterCommit(page);
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
    const discovered = this.queueable(follow);
    const added = await this.store.commitFetch(entry, page, discovered);
    for (const e of added) this.scheduler.add(e);
    this.afterCommit(page);
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
    const failures = (this.robotsFailures.get(origin) ?? 0) + 1;
    this.robotsFailures.set(origin, failures);
    this.robots.delete(origin); // ask again after the backoff
    if (failures > this.options.maxRetries) {
      // RFC 9309 2.3.1.4: an unreachable robots.txt means the whole site is disallowed.
      const dropped = [entry, ...this.scheduler.clearHost(host)];
      const key = `${origin} robots.txt unreachable`;
      this.stats.blockedByRule[key] = (this.stats.blockedByRule[key] ?? 0) + dropped.length;
      this.log('warn', 'robots.txt unreachable; skipping the site', { origin, urls: dropped.length });
      for (const e of dropped) await this.store.frontier.drop(e);
      this.freeHostAtOnce(host);
      return;
    }
    const wait = robots.retryAfterMs ?? backoffMs(failures, this.options.backoffMs, this.options.maxBackoffMs);
    // A warning, not info: when every seed's robots.txt is unreachable (a typo, a server down), this
    // line is all a user sees while the crawl waits, and RFC 9309 2.3.1.4 makes it wait.
    this.log('warn', `robots.txt unreachable; asking again in ${Math.round(wait / 1000)} s (attempt ${failures} of ${this.options.maxRetries + 1})`, { origin, failures, waitMs: wait });
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
      if (c && this.admissible(c, 1)) entries.push({ url: c, depth: 1, via: 'sitemap', referrer: entry.url });
    }
    this.log('debug', 'sitemap read', { url: entry.url, urls: found.urls.length, sitemaps: found.sitemaps.length, error: found.error });
    for (const e of await this.store.frontier.add(entries)) this.scheduler.add(e);
    await this.store.frontier.drop(entry);
  }

  /** In scope and not a trap: may this URL be queued at this depth? */
  private admissible(url: string, depth: number): boolean {
    // A page links to the same navigation URLs as its neighbours: judge each URL once per run. Breadth-first
    // order means the first sighting is (nearly always) the shallowest, so depth limits stay right.
    if (this.judged.has(url)) return false;
    if (this.judged.size >= JUDGED_CACHE_LIMIT) this.judged.clear();
    this.judged.add(url);
    if (!this.inScope(url)) {
      this.stats.outOfScope++;
      return false;
    }
    const trap = this.traps.check(url, depth);
    if (!trap.ok) {
      this.stats.trapsCut[trap.reason] = (this.stats.trapsCut[trap.reason] ?? 0) + 1;
      this.log('info', 'URL cut as a trap', { url, reason: trap.reason, detail: trap.detail });
      return false;
    }
    return true;
  }

  private queueable(follow: FrontierEntry[]): FrontierEntry[] {
    return follow.filter((e) => this.admissible(e.url, e.depth));
  }

  /** The first copy of each content fingerprint, so later copies are stored as duplicates of it. */
  private rememberContent(page: PageRecord): void {
    // A page with text has its duplicate key as contentHash (analyze.ts); testing for text is enough,
    // rather than hashing 30 KB again on the loop's thread.
    if (page.state === 'ok' && HAS_TEXT.test(page.text) && !this.hashes.has(page.contentHash)) this.hashes.set(page.contentHash, page.url);
  }

  private afterCommit(page: PageRecord): void {
    this.pagesStored++;
    this.pagesThisRun++;
    this.traps.countPage(page.url);
    const stats = this.stats;
    stats.pagesByState[page.state] = (stats.pagesByState[page.state] ?? 0) + 1;
    const status = String(page.status);
    stats.pagesByStatus[status] = (stats.pagesByStatus[status] ?? 0) + 1;
    this.rememberContent(page);
    if (page.state === 'duplicate') stats.duplicates++;
    if (page.state === 'error') stats.errors++;
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
