// Every crawler option, its default and its unit, in one place. The CLI and the demo merge flags over
// these once (flag > default). The building blocks own their defaults (traps.ts DEFAULT_TRAP_OPTIONS,
// extract.ts, sitemaps.ts) and this file takes them from there, so imports go one way only.

import { availableParallelism } from 'node:os';
import { DEFAULT_STRIP_PARAMS } from '../shared/url.js';
import { ROBOTS_DEFAULTS, type RobotsMode } from '../shared/robots/index.js';
import { DEFAULT_AGENT } from '../shared/agent.js';
import { DEFAULT_TRAP_OPTIONS, type TrapOptions } from './traps.js';
import type { ExtractRules, RobotsRespect } from './site-rules.js';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from './pdf.js';

export type { RobotsRespect };

export type Scope = 'host' | 'domain' | 'any';

/** One site's own scope (the config file's `crawl.sites[origin].scope`, `.include`, `.exclude`). */
export interface SiteScope {
  scope: Scope;
  include: string[];
  exclude: string[];
}

/** Every trap limit (traps.ts TrapOptions) is a crawl option too, settable from flags and --config;
 * so are the PDF reader's deadline and page cap (pdf.ts PdfOptions). */
export interface CrawlOptions extends TrapOptions, PdfOptions {
  /** Where the store lives (data/store inside it), and the crawl's log and live status. */
  dataDir: string;
  /** The pages in a shared PostgreSQL store instead (a `postgres://` URL, shared/store/pg-store.ts), so
   * crawls on several machines fill one store; undefined: the data dir's own LevelDB store. */
  store?: string;
  /** The frontier in Redis (redis://HOST:PORT/DB, crawler/frontier-shared.ts), shared by any number of
   * crawler processes on any machines, which then hold each host's delay together; needs a postgres://
   * `store`. Undefined: the data dir's own frontier, for one process. */
  frontier?: string;
  /** A shared frontier's lease on a host lasts requestTimeoutMs plus this (room to parse and store the
   * page, and it is extended while the page is worked on): how long a dead process's host waits. */
  leaseMarginMs: number;
  /** URLs a shared frontier's lease takes at once on a host whose delay is 0, asked one after another
   * by one process with no round trip to Redis between them (1: one URL per lease). */
  leaseBatchUrls: number;
  /** After a stop (Ctrl-C, SIGTERM), how long `gleaner crawl` waits for the requests under way to be let
   * go and the stores closed before it exits anyway: a shared Redis or PostgreSQL that hangs must not
   * hang the stop. Leases held then come back at their deadlines. */
  stopDeadlineMs: number;
  /** How long a shared crawl waits for a Redis frontier that does not answer (restarting, gone, hung)
   * before it stops with what is stored kept. */
  frontierTimeoutMs: number;
  seeds: string[];
  /** Pages in the store at most, all runs together, exactly: pages under way hold a place against it.
   * A recrawl fetching a stored page again re-stores it and does not count it a second time. */
  maxPages: number;
  /** Link hops from a seed beyond which URLs are not queued. */
  maxDepth: number;
  /** Pause between two requests to the same host; a larger robots Crawl-delay wins. */
  delayMs: number;
  /** Per-site pause (origin -> ms) in place of delayMs for that site; a larger Crawl-delay still wins. */
  siteDelayMs: Record<string, number>;
  /** Crawl-delay values above this are capped (with a warning) so one host cannot stall a crawl for hours. */
  maxCrawlDelayMs: number;
  /** How often the live status file (shared/crawl-status.ts, read by /stats) is written; 0 writes none. */
  statusIntervalMs: number;
  /** Product token matched against robots.txt User-agent lines and named in the User-Agent header. */
  agent: string;
  /** An e-mail address for the From header (seed 003: tell site owners whom to contact). */
  from?: string;
  robotsMode: RobotsMode;
  /** Global default for respecting robots.txt; `sites` may override it per origin. */
  respectRobots: boolean;
  /** Per-site override as Geoportal has it: origin -> inherit | always | never. */
  sites: Record<string, RobotsRespect>;
  /** Per-site extraction rules by origin (site-rules.ts). The config file sets them as
   * `crawl.sites[origin].contentSelector` / `.dropSelectors`; pages of other sites keep the streaming extractor. */
  extractRules: Record<string, ExtractRules>;
  /** Tries after the first failed robots.txt fetch (5xx, no answer) before the host is given up, i.e.
   * disallowed for the crawl (RFC 9309 2.3.1.4). A host that takes no connection is given up at once. */
  robotsRetries: number;
  /** Wait before asking an unreachable robots.txt again; doubles per failure, capped at maxBackoffMs. The
   * other hosts go on meanwhile. */
  robotsBackoffMs: number;
  /** Seconds a robots.txt stays cached at most (24 h in rfc9309 mode). */
  robotsMaxCacheSeconds: number;
  /** Follow the robots.txt Host directive (Geoportal substitutes the preferred host). */
  useRobotsHost: boolean;
  /** Read Sitemap lines of robots.txt and /sitemap.xml and queue their in-scope URLs. */
  useSitemaps: boolean;
  /** Keep the cookies servers set and send them back for the rest of the run (cookies.ts), as
   * browsers, wget and Scrapy do; some servers show a page only to a client that does. */
  cookies: boolean;
  scope: Scope;
  /** Per-site scope (origin -> scope and patterns): URLs of that origin are judged by it alone, with the
   * seeds on that origin; URLs of other origins are in scope when the crawl's scope or any site's admits them. */
  siteScopes: Record<string, SiteScope>;
  /** Patterns a URL must match (any) / must not match (all), applied after scope: a regular expression,
   * `/re/flags`, or `glob:` and a whole-URL glob where `*` matches anything (crawler/scope.ts). */
  include: string[];
  exclude: string[];
  /** Pages under way at once across hosts: being fetched, parsed or stored. Default 16, Scrapy's
   * CONCURRENT_REQUESTS: a shared crawl writes its pages to PostgreSQL and Redis in groups of up to 8
   * (crawler/commit-batch.ts), and a group stays below this, so the waiting pages never hold every place. */
  concurrency: number;
  /** Requests under way at once to one host, each on its own connection. 1 is what a polite crawler
   * does; more is for servers you run (like delayMs 0). With a delay, requests still start that far apart. */
  hostConnections: number;
  /** Worker threads that parse fetched pages; 0 parses in the crawl loop's own thread. */
  parseThreads: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Deadline of every request (pages, robots.txt, sitemaps), headers and body together; past it the
   * request is a network error ("deadline of 60 s exceeded"), retried like one. The idle timeouts above
   * never see a server that drips a byte every few seconds; this does. */
  requestTimeoutMs: number;
  /** Minimum transfer rate of a body, averaged over minRateWindowMs once that long has passed since the
   * headers (like curl's --speed-limit/--speed-time); slower is a network error. 0 turns it off. */
  minBytesPerSecond: number;
  minRateWindowMs: number;
  /** Bodies longer than this are cut and the page marked truncated. */
  maxBodyBytes: number;
  maxRedirects: number;
  /** Attempts for a 5xx or network error before the page is stored as an error. */
  maxRetries: number;
  /** Page requests to one host that cannot connect (refused, no DNS name, no route) in a row, after
   * which the host's other URLs are skipped for this run: a server that went away mid-crawl. */
  maxConnectFailures: number;
  /** Page requests to one host that fail in a row (no answer, 5xx, 429), retries included, after which
   * the host is given up for this run, as are hosts whose Retry-After asks for more than maxBackoffMs
   * (politeness.ts hostGiveUp): a site down or in maintenance. */
  maxHostFailures: number;
  /** First backoff after an error; doubles each time, capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  maxUrlLength: number;
  /** URLs queued or stored per host; past it new ones are cut (traps.ts host-page-limit). */
  maxPagesPerHost: number;
  /** Query parameters stripped from every URL (session ids, tracking tags). */
  stripParams: string[];
  /** Requeue every stored page and fetch it again with conditional GET. */
  recrawl: boolean;
  /** Keep each response's status, headers and body (gzip) beside its page, for `gleaner export
   * --format warc` (shared/store/raw-response.ts). Off by default: it costs crawl speed and disk. */
  keepRaw: boolean;
  /** Log lines at or above this level go to the log sink. */
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export const DEFAULT_CRAWL_OPTIONS: Omit<CrawlOptions, 'dataDir' | 'seeds'> = {
  maxPages: 10_000,
  delayMs: 1_000,
  siteDelayMs: {},
  maxCrawlDelayMs: 60_000,
  statusIntervalMs: 1_000,
  agent: DEFAULT_AGENT,
  robotsMode: 'rfc9309',
  respectRobots: true,
  sites: {},
  extractRules: {},
  // 2 + 4 + 8 s: a host whose robots.txt fails is given up about 14 s (plus its fetch timeouts) after its first try.
  robotsRetries: 3,
  robotsBackoffMs: 2_000,
  robotsMaxCacheSeconds: ROBOTS_DEFAULTS.maxCacheSeconds,
  useRobotsHost: false,
  useSitemaps: true,
  cookies: true,
  scope: 'host',
  siteScopes: {},
  include: [],
  exclude: [],
  concurrency: 16,
  hostConnections: 1,
  // Parsing is most of a crawl's CPU; the loop's thread fetches and stores on a core of its own. On the
  // 2-core bench machine one parse thread crawled the Rust docs in 22.7 s, two in 28.4 s.
  parseThreads: Math.max(1, availableParallelism() - 1),
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  leaseMarginMs: 15_000,
  leaseBatchUrls: 16,
  stopDeadlineMs: 10_000,
  frontierTimeoutMs: 120_000,
  minBytesPerSecond: 1_024,
  minRateWindowMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxRetries: 3,
  maxConnectFailures: 4,
  maxHostFailures: 16,
  backoffMs: 2_000,
  maxBackoffMs: 5 * 60_000,
  // maxDepth, maxUrlLength, maxPagesPerHost and the trap rules: traps.ts owns them.
  ...DEFAULT_TRAP_OPTIONS,
  ...DEFAULT_PDF_OPTIONS,
  stripParams: [...DEFAULT_STRIP_PARAMS],
  recrawl: false,
  keepRaw: false,
  logLevel: 'info',
};

export function resolveCrawlOptions(given: Partial<CrawlOptions> & Pick<CrawlOptions, 'dataDir' | 'seeds'>): CrawlOptions {
  // Callers outside TypeScript (config files, CLI flags) do pass undefined: it means "the default".
  const defined = Object.fromEntries(Object.entries(given as Record<string, unknown>).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_CRAWL_OPTIONS, ...defined } as CrawlOptions;
}
