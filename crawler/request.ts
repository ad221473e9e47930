// The request headers the crawler sends for pages and sitemaps, and the conditional GET of a recrawl:
// a page stored ok before is asked for with its validators, so an unchanged page costs a 304. Pure.
// (robots.txt requests are built by the robots library, which has its own headers.)

import { httpDateMs } from '../shared/http/index.js';
import type { FrontierEntry, PageRecord } from '../shared/store/index.js';
import { EXTRACTION_VERSION } from './extraction-version.js';

export interface RequestIdentity {
  /** The User-Agent header (options.ts userAgentHeader). */
  userAgent: string;
  /** CrawlOptions.from: a contact address, sent as From when given. */
  from?: string;
}

/** Headers for a page request: who we are, what we take, where we found the URL, the validators of
 * the copy stored before (`previous`, a recrawl) when it was a good page read by today's extraction
 * rules (extraction-version.ts), and the run's cookies for the URL (cookies.ts) when there are any. */
export function pageRequestHeaders(who: RequestIdentity, entry: Pick<FrontierEntry, 'referrer'>, previous: PageRecord | undefined, cookie?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': who.userAgent,
    accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
    'accept-encoding': 'gzip, deflate, br',
  };
  if (who.from) headers.from = who.from;
  if (entry.referrer) headers.referer = entry.referrer;
  if (cookie !== undefined && cookie !== '') headers.cookie = cookie;
  const { etag, lastModified } = validatorsFor(previous);
  if (etag !== undefined) headers['if-none-match'] = etag;
  if (lastModified !== undefined) headers['if-modified-since'] = lastModified;
  return headers;
}

/** The validators a request for a page stored as `previous` carries: only for a page today's rules
 * read (one read by older rules is read again), and only those a server can take. None: the request is
 * not conditional, and a 304 to it answers nothing that was asked (page.ts). */
export function validatorsFor(previous: PageRecord | undefined): { etag?: string; lastModified?: string } {
  if (previous?.state !== 'ok' || previous.extractedBy !== EXTRACTION_VERSION) return {};
  return {
    ...(previous.etag && previous.etag.length <= MAX_ETAG_CHARS ? { etag: previous.etag } : {}),
    ...(previous.lastModified && httpDateMs(previous.lastModified) !== undefined ? { lastModified: previous.lastModified } : {}),
  };
}

/** Longer ETags are not sent back: a 60 KB one made the server refuse the recrawl's request (431), and
 * the page was stored as that error. Real ones are a hash or two. An unreadable Last-Modified is not sent
 * either (RFC 9110 13.1.3: the server ignores it). */
const MAX_ETAG_CHARS = 1024;

/** Headers for a sitemap request: who we are as for a page (a sitemap is a request to the site like any
 * other, so its owner sees the same From), and what we take. */
export function sitemapRequestHeaders(who: RequestIdentity): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': who.userAgent, accept: 'application/xml,text/xml,text/plain;q=0.5', 'accept-encoding': 'gzip' };
  if (who.from) headers.from = who.from;
  return headers;
}
