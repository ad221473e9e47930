// Reading one sitemap file over HTTP: the edge around sitemaps.ts's pure parser. A failed or unusable
// sitemap is not an error of the crawl, only a line in the log.

import type { Dispatcher } from 'undici';
import { fetchOnce } from './fetch.js';
import { sitemapRequestHeaders, type RequestIdentity } from './request.js';
import type { TransferLimits } from '../shared/http/index.js';
import { gunzipIfNeeded, parseSitemap } from './sitemaps.js';
import { decodeBody } from './charset.js';
import { contentTypeValue } from './media-type.js';

const SITEMAP_TYPES: readonly string[] = [
  'application/xml',
  'text/xml',
  'text/plain',
  // Feeds, which the protocol accepts as sitemaps (sitemaps.ts reads them), come under their own types.
  'application/rss+xml',
  'application/atom+xml',
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  '',
];

export interface SitemapUrls {
  urls: string[];
  sitemaps: string[];
  error?: string;
  /** Where a sitemap that moved (a 3xx) now is, absolute: asked as a sitemap in turn, as a page's
   * redirect is a URL queued (so the host's delay holds between the two requests). */
  movedTo?: string;
}

export async function fetchSitemapUrls(
  client: Dispatcher,
  url: string,
  options: RequestIdentity & { maxBodyBytes: number; limits: TransferLimits; signal?: AbortSignal },
): Promise<SitemapUrls> {
  const outcome = await fetchOnce(client, {
    url,
    headers: sitemapRequestHeaders(options),
    maxBodyBytes: options.maxBodyBytes,
    wantedTypes: SITEMAP_TYPES,
    limits: options.limits,
    signal: options.signal,
  });
  if (outcome.kind === 'redirect') {
    const movedTo = URL.parse(outcome.location, url)?.href;
    if (movedTo !== undefined) return { urls: [], sitemaps: [], movedTo };
  }
  if (outcome.kind !== 'body') {
    const error = outcome.kind === 'network-error' ? outcome.error : `${outcome.kind} ${'status' in outcome ? outcome.status : ''}`.trim();
    return { urls: [], sitemaps: [], error };
  }
  try {
    const bytes = await gunzipIfNeeded(outcome.body);
    // UTF-8 as the protocol says, unless a byte order mark (a UTF-16 file saved by a Windows editor),
    // the XML declaration or the header says otherwise: the pages' own decoder reads them all.
    return parseSitemap(decodeBody(bytes, contentTypeValue(outcome.headers['content-type'])).text);
  } catch (e) {
    return { urls: [], sitemaps: [], error: (e as Error).message };
  }
}

