// Everything about a crawl's options that can be refused, decided before anything is created: a command
// that will be refused (a bad seed, a bad --include pattern) leaves no data dir and no log behind.

import { GleanerError } from '../shared/errors.js';
import { MAX_TIMER_MS } from '../shared/timers.js';
import { canonicalizeUrl } from '../shared/url.js';
import { resolveCrawlOptions, type CrawlOptions } from './options.js';
import { makeScopeFilter } from './scope.js';
import { originOf } from './site-rules.js';

export interface PreparedCrawl {
  /** The options with defaults filled in and the seeds canonical. */
  options: CrawlOptions;
  /** Whether a URL is in the crawl's scope (--scope, --include, --exclude). */
  inScope: (url: string) => boolean;
}

/** Resolves and checks crawl options; throws BAD_ARGUMENT for what the user must fix. Touches no disk. */
export function prepareCrawl(given: Partial<CrawlOptions> & Pick<CrawlOptions, 'dataDir' | 'seeds'>): PreparedCrawl {
  const options = resolveCrawlOptions(given);
  const seeds = options.seeds.map((s) => {
    const url = canonicalizeUrl(s, undefined, { stripParams: options.stripParams });
    if (url === undefined) throw new GleanerError('BAD_ARGUMENT', `not an http(s) URL: ${s}`);
    return url;
  });
  if (options.frontier !== undefined) {
    if (!/^(rediss?|unix):\/\//i.test(options.frontier)) throw new GleanerError('BAD_ARGUMENT', `--frontier takes a redis://HOST:PORT/DB URL (got ${JSON.stringify(options.frontier)})`);
    // Every process of a shared crawl must see every page: a data dir's LevelDB is one process's.
    if (options.store === undefined) throw new GleanerError('BAD_ARGUMENT', '--frontier needs --store postgres://...: the processes of a shared crawl keep their pages in one store');
    if (options.recrawl) throw new GleanerError('BAD_ARGUMENT', '--recrawl runs on one machine: it is not available with --frontier');
    if (options.hostConnections !== 1) throw new GleanerError('BAD_ARGUMENT', '--host-connections above 1 is not available with --frontier: a shared crawl holds one request per host');
    if (!Number.isInteger(options.leaseBatchUrls) || options.leaseBatchUrls < 1 || options.leaseBatchUrls > 1000) {
      throw new GleanerError('BAD_ARGUMENT', `leaseBatchUrls must be a whole number from 1 to 1000 (got ${String(options.leaseBatchUrls)})`);
    }
  }
  // A document limit of 0 or less would make every PDF and Word document an error page; a host limit
  // of 0 would give every host up at its first failed request.
  for (const [key, least] of [['documentTimeoutMs', 1], ['documentMemoryMb', 128], ['pdfMaxPages', 1], ['maxConnectFailures', 1], ['maxHostFailures', 1]] as const) {
    const value = options[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < least) throw new GleanerError('BAD_ARGUMENT', `${key} must be a number of at least ${least} (got ${String(value)})`);
  }
  // Every wait is a timer: a config value beyond what one holds would fire at once (shared/timers.ts).
  for (const [key, value] of Object.entries(options)) {
    if (!key.endsWith('Ms') || typeof value !== 'number') continue;
    if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
      throw new GleanerError('BAD_ARGUMENT', `${key} must be a number of milliseconds from 0 to ${String(MAX_TIMER_MS)} (about 24.8 days), not ${String(value)}`);
    }
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
    const own = seeds.filter((s) => originOf(s) === origin);
    sites.set(origin, makeScopeFilter(own.length > 0 ? own : [`${origin}/`], site));
  }
  if (sites.size === 0) return crawlWide;
  return (url) => {
    const site = sites.get(originOf(url) ?? '');
    if (site !== undefined) return site(url);
    if (crawlWide(url)) return true;
    for (const f of sites.values()) if (f(url)) return true;
    return false;
  };
}
