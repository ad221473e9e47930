// The request headers the crawler sends for pages and sitemaps, and the conditional GET of a recrawl:
// a page stored ok before is asked for with its validators, so an unchanged page costs a 304. Pure.
// (robots.txt requests are built by the robots library, which has its own headers.)

import type { FrontierEntry, PageRecord } from '../shared/store/index.js';

export interface RequestIdentity {
  /** The User-Agent header (options.ts userAgentHeader). */
  userAgent: string;
  /** CrawlOptions.from: a contact address, sent as From when given. */
  from?: string;
}

/** Headers for a page request: who we are, what we take, where we found the URL, and the validators of
 * the copy stored before (`previous`, a recrawl) when it was a good page. */
export function pageRequestHeaders(who: RequestIdentity, entry: Pick<FrontierEntry, 'referrer'>, previous: PageRecord | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': who.userAgent,
    accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
    'accept-encoding': 'gzip, deflate, br',
  };
  if (who.from) headers.from = who.from;
  if (entry.referrer) headers.referer = entry.referrer;
  if (previous?.state === 'ok') {
    if (previous.etag) headers['if-none-match'] = previous.etag;
    if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
  }
  return headers;
}

/** Headers for a sitemap request. */
export function sitemapRequestHeaders(userAgent: string): Record<string, string> {
  return { 'user-agent': userAgent, accept: 'application/xml,text/xml,text/plain;q=0.5', 'accept-encoding': 'gzip' };
}
