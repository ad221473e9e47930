// Everything about a crawl's options that can be refused, decided before anything is created: a command
// that will be refused (a bad seed, a bad --include pattern) leaves no data dir and no log behind.

import { GleanerError } from '../shared/errors.js';
import { canonicalizeUrl } from '../shared/url.js';
import { resolveCrawlOptions, type CrawlOptions } from './options.js';
import { makeScopeFilter } from './scope.js';

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
  const inScope = makeScopeFilter(seeds, { scope: options.scope, include: options.include, exclude: options.exclude });
  return { options: { ...options, seeds }, inScope };
}
