// Reading one sitemap file over HTTP: the edge around sitemaps.ts's pure parser. A failed or unusable
// sitemap is not an error of the crawl, only a line in the log.

import type { Dispatcher } from 'undici';
import { fetchOnce } from './fetch.js';
import { sitemapRequestHeaders } from './request.js';
import type { TransferLimits } from '../shared/http/index.js';
import { gunzipIfNeeded, parseSitemap } from './sitemaps.js';

const SITEMAP_TYPES: readonly string[] = [
  'application/xml',
  'text/xml',
  'text/plain',
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  '',
];

export interface SitemapUrls {
  urls: string[];
  sitemaps: string[];
  error?: string;
}

export async function fetchSitemapUrls(
  client: Dispatcher,
  url: string,
  options: { userAgent: string; maxBodyBytes: number; limits: TransferLimits; signal?: AbortSignal },
): Promise<SitemapUrls> {
  const outcome = await fetchOnce(client, {
    url,
    headers: sitemapRequestHeaders(options.userAgent),
    maxBodyBytes: options.maxBodyBytes,
    wantedTypes: SITEMAP_TYPES,
    limits: options.limits,
    signal: options.signal,
  });
  if (outcome.kind !== 'body') {
    const error = outcome.kind === 'network-error' ? outcome.error : `${outcome.kind} ${'status' in outcome ? outcome.status : ''}`.trim();
    return { urls: [], sitemaps: [], error };
  }
  try {
    const bytes = await gunzipIfNeeded(outcome.body);
    return parseSitemap(new TextDecoder().decode(bytes));
  } catch (e) {
    return { urls: [], sitemaps: [], error: (e as Error).message };
  }
}
