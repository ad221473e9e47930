// Everything about a crawl's options that can be refused, decided before anything is created: a command
// that will be refused (a bad seed, a bad --include pattern) leaves no data dir and no log behind.

import { GleanerError } from '../shared/errors.js';
import { MAX_TIMER_MS } from '../shared/timers.js';
import { canonicalizeUrl, uncrawlableReason } from '../shared/url.js';
import { resolveCrawlOptions, type CrawlOptions } from './options.js';
import { makeScopeFilter } from './scope.js';
import { httpOriginOf } from './site-rules.js';

export interface PreparedCrawl {
  /** The options with defaults filled in and the seeds canonical. */
  options: CrawlOptions;
  /** Whether a URL is in the crawl's scope (--scope, --include, --exclude). */
  inScope: (url: string) => boolean;
}

interface Range {
  min: number;
  max?: number;
  whole?: boolean;
}

/**
 * What the options a config file sets without a flag may be (flags are checked where they are parsed).
 * Each bound is a value that would break the crawl beyond it: a document limit of 0 makes every PDF an
 * error page, a host limit of 0 gives every host up at its first failed request, a status interval of 0
 * rewrites the status file without pause, and no wait may exceed what a timer holds (shared/timers.ts).
 */
const OPTION_RANGES = {
  maxRetries: { min: 0, max: 100, whole: true },
  backoffMs: { min: 0, max: MAX_TIMER_MS },
  maxBackoffMs: { min: 0, max: MAX_TIMER_MS },
  maxConnectFailures: { min: 1, whole: true },
  maxHostFailures: { min: 1, whole: true },
  maxBodyBytes: { min: 1024, whole: true },
  maxRedirects: { min: 0, max: 100, whole: true },
  connectTimeoutMs: { min: 1, max: MAX_TIMER_MS },
  headersTimeoutMs: { min: 1, max: MAX_TIMER_MS },
  bodyTimeoutMs: { min: 1, max: MAX_TIMER_MS },
  robotsMaxCacheSeconds: { min: 0 },
  statusIntervalMs: { min: 10, max: MAX_TIMER_MS },
  documentTimeoutMs: { min: 1, max: MAX_TIMER_MS },
  documentMemoryMb: { min: 128 },
  pdfMaxPages: { min: 1, whole: true },
  leaseMarginMs: { min: 0, max: MAX_TIMER_MS },
  leaseBatchUrls: { min: 1, max: 1000, whole: true },
  stopDeadlineMs: { min: 0, max: MAX_TIMER_MS },
  frontierTimeoutMs: { min: 1, max: MAX_TIMER_MS },
} satisfies Partial<Record<keyof CrawlOptions, Range>>;

function checkRange(key: string, value: unknown, { min, max, whole = false }: Range): void {
  const fits = typeof value === 'number' && Number.isFinite(value) && value >= min && (max === undefined || value <= max) && (!whole || Number.isInteger(value));
  if (fits) return;
  const what = whole ? 'a whole number' : 'a number';
  const range = max === undefined ? `of at least ${String(min)}` : `from ${String(min)} to ${String(max)}`;
  throw new GleanerError('BAD_ARGUMENT', `${key} must be ${what} ${range}${key.endsWith('Ms') ? ' (milliseconds; a timer holds about 24.8 days)' : ''} (got ${String(value)})`);
}

/** Resolves and checks crawl options; throws BAD_ARGUMENT for what the user must fix. Touches no disk. */
export function prepareCrawl(given: Partial<CrawlOptions> & Pick<CrawlOptions, 'dataDir' | 'seeds'>): PreparedCrawl {
  const options = resolveCrawlOptions(given);
  const seeds = options.seeds.map((s) => {
    const url = canonicalizeUrl(s, undefined, { stripParams: options.stripParams });
    if (url === undefined) throw new GleanerError('BAD_ARGUMENT', `${uncrawlableReason(s)}: ${s}`);
    return url;
  });
  if (options.frontier !== undefined) {
    if (!/^(rediss?|unix):\/\//i.test(options.frontier)) throw new GleanerError('BAD_ARGUMENT', `--frontier takes a redis://HOST:PORT/DB URL (got ${JSON.stringify(options.frontier)})`);
    // Every process of a shared crawl must see every page: a data dir's LevelDB is one process's.
    if (options.store === undefined) throw new GleanerError('BAD_ARGUMENT', '--frontier needs --store postgres://...: the processes of a shared crawl keep their pages in one store');
    if (options.recrawl) throw new GleanerError('BAD_ARGUMENT', '--recrawl runs on one machine: it is not available with --frontier');
    if (options.hostConnections !== 1) throw new GleanerError('BAD_ARGUMENT', '--host-connections above 1 is not available with --frontier: a shared crawl holds one request per host');
  }
  for (const [key, range] of Object.entries(OPTION_RANGES) as [keyof typeof OPTION_RANGES, Range][]) checkRange(key, options[key], range);
  // Every other wait is a timer too.
  for (const [key, value] of Object.entries(options)) {
    if (key.endsWith('Ms') && !(key in OPTION_RANGES) && typeof value === 'number') checkRange(key, value, { min: 0, max: MAX_TIMER_MS });
  }
  const inScope = scopeFilter(seeds, options);
  return { options: { ...options, seeds }, inScope };
}

/** The crawl's scope, with the sites that have their own (CrawlOptions.siteScopes): a URL of such a site
 * is judged by the site's scope alone; any other URL is in when the crawl's scope or a site's admits it. */
function scopeFilter(seeds: readonly string[], options: CrawlOptions): (url: string) => boolean {
  const crawlWide = makeScopeFilter(seeds, { scope: options.scope, include: options.include, exclude: options.exclude });
  const sites = new Map<string, (url: string) => boolean>();
  for (const [origin, site] of Object.entries(options.siteScopes)) {
    const own = seeds.filter((s) => httpOriginOf(s) === origin);
    sites.set(origin, makeScopeFilter(own.length > 0 ? own : [`${origin}/`], site));
  }
  if (sites.size === 0) return crawlWide;
  return (url) => {
    const site = sites.get(httpOriginOf(url) ?? '');
    if (site !== undefined) return site(url);
    if (crawlWide(url)) return true;
    for (const f of sites.values()) if (f(url)) return true;
    return false;
  };
}
