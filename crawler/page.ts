// What a fetch outcome becomes: the page record to store and the URLs it leads to. Pure: the crawl loop
// does the I/O and hands the outcome and what it knows (earlier copy, fingerprints seen) to this file.

import type { QueuedEntry, FrontierEntry, PageRecord } from '../shared/store/index.js';
import { canonicalizeUrl } from '../shared/url.js';
import { analyzeBody, type BodyAnalysis, type BodyInput } from './analyze.js';
import { headerValue, type FetchOutcome } from './fetch.js';
import { contentTypeValue } from './media-type.js';
import { transientFailure } from './politeness.js';
import { EXTRACTION_VERSION } from './extraction-version.js';
import { primaryLanguage } from './extract.js';
import { validatorsFor } from './request.js';

/** Redirects that say the page is elsewhere for now (RFC 9110 15.4.3, 15.4.4, 15.4.8): a recrawl that
 * meets one keeps the good copy it had, as an outage's 503 (a site that sends every URL to a maintenance
 * page for an hour kept nothing in search until the next round). 301 and 308 replace it. */
const TEMPORARY_REDIRECTS = new Set([302, 303, 307]);

export interface PageContext {
  entry: QueuedEntry;
  /** The stored record from an earlier crawl, for conditional GET answers. */
  previous: PageRecord | undefined;
  agent: string;
  stripParams: readonly string[];
  maxRedirects: number;
  fetchedAt: Date;
  /** The URL already stored with this content fingerprint, if any. */
  firstCopyOf: (hash: string) => string | undefined;
  /** The body's analysis when it was done elsewhere (a worker thread); done here when absent. */
  analysis?: BodyAnalysis;
}

export interface PageOutcome {
  page: PageRecord;
  /** URLs to queue (before scope and trap checks). */
  follow: FrontierEntry[];
  /** Set when a recrawl's request failed for now (no answer, 5xx, 429, a temporary redirect, a 304 not
   * asked for) and the good copy stored before stands unchanged: why it was not replaced. */
  kept?: string;
}

export function pageFromOutcome(outcome: FetchOutcome, ctx: PageContext): PageOutcome {
  const { entry } = ctx;
  const base = blankPage(entry, ctx.fetchedAt);
  // A recrawl that finds the server down or busy (its retries spent) keeps the good copy it had, as
  // search engines keep theirs through an outage: storing the error would drop the page from the index
  // until the next round, so one bad hour of a server emptied its site from search. An answer that says
  // the page is gone, moved or forbidden still replaces it.
  // "For now" is the retry rule's (politeness.ts transientFailure): an answer that breaks HTTP is no outage.
  const failure = ctx.previous?.state === 'ok' ? transientFailure(outcome) : undefined;
  if (ctx.previous && failure) {
    return { page: ctx.previous, follow: [], kept: outcome.kind === 'network-error' ? outcome.error : `HTTP ${String(outcome.status)}` };
  }
  switch (outcome.kind) {
    case 'network-error':
      // A failure after the headers keeps the answer's status and type: the server answered, and the
      // crawl counted such a page as "no response".
      return { page: { ...base, state: 'error', error: outcome.error, ...(outcome.status !== undefined ? { status: outcome.status, contentType: outcome.contentType ?? '' } : {}) }, follow: [] };
    case 'not-modified': {
      // 304: the stored page stands; the fetch time moves, and the status is the last response's (the
      // crawl counts it as not modified rather than as a second 200). Only to a conditional request
      // (RFC 9110 15.4.5): one the crawl did not ask is a broken answer, and the copy stands unrefreshed.
      const { previous } = ctx;
      const asked = Object.keys(validatorsFor(previous)).length > 0;
      if (previous && asked) return { page: { ...previous, fetchedAt: base.fetchedAt, status: 304 }, follow: [] };
      if (previous?.state === 'ok') return { page: previous, follow: [], kept: '304 to a request that was not conditional' };
      return { page: { ...base, state: 'error', status: 304, error: previous ? '304 to a request that was not conditional' : '304 without a stored copy' }, follow: [] };
    }
    case 'redirect': {
      const target = canonicalizeUrl(outcome.location, entry.url, { stripParams: ctx.stripParams });
      const hops = (entry.redirects ?? 0) + 1;
      if (target === undefined) {
        return { page: { ...base, state: 'error', status: outcome.status, error: `redirect to an unusable location: ${outcome.location}` }, follow: [] };
      }
      if (hops > ctx.maxRedirects) {
        return { page: { ...base, state: 'error', status: outcome.status, finalUrl: target, error: `more than ${ctx.maxRedirects} redirects` }, follow: [] };
      }
      // The target keeps the depth of the URL that redirected: a redirect is not a hop away from the seed.
      const follow: FrontierEntry[] = [{ url: target, depth: entry.depth, via: 'redirect', redirects: hops, referrer: entry.referrer }];
      if (ctx.previous?.state === 'ok' && TEMPORARY_REDIRECTS.has(outcome.status)) {
        return { page: ctx.previous, follow, kept: `HTTP ${String(outcome.status)} to ${target}` };
      }
      // A redirect to the page itself (a Location differing by a fragment, a stripped parameter, or none)
      // is a loop: its target is the URL just asked, so it is never queued again, and the page was
      // stored as a redirect leading nowhere, with no reason given (a browser says "too many redirects").
      // A cookie it wanted was sent back before this (crawl.ts fetchPage).
      if (target === entry.url) {
        return { page: { ...base, state: 'error', status: outcome.status, error: `redirect to itself: ${outcome.location}` }, follow: [] };
      }
      const page: PageRecord = { ...base, state: 'redirect', status: outcome.status, finalUrl: target };
      return { page, follow };
    }
    case 'status': {
      const gone = outcome.status === 404 || outcome.status === 410;
      return {
        page: { ...base, state: gone ? 'gone' : 'error', status: outcome.status, contentType: outcome.contentType, error: gone ? undefined : `HTTP ${outcome.status}` },
        follow: [],
      };
    }
    case 'unwanted-type':
      return { page: { ...base, state: 'skipped', status: outcome.status, contentType: outcome.contentType }, follow: [] };
    case 'body':
      return pageFromBody(outcome, ctx, base);
  }
}

function pageFromBody(outcome: Extract<FetchOutcome, { kind: 'body' }>, ctx: PageContext, base: PageRecord): PageOutcome {
  const { entry } = ctx;
  const analysis = ctx.analysis ?? analyzeBody(bodyInput(outcome, entry.url, ctx));
  const { extracted, robots, links, contentHash } = analysis;
  const firstCopy = analysis.duplicateKey === undefined ? undefined : ctx.firstCopyOf(analysis.duplicateKey);
  const duplicateOf = firstCopy !== undefined && firstCopy !== entry.url ? firstCopy : undefined;
  const page: PageRecord = {
    ...base,
    state: duplicateOf ? 'duplicate' : 'ok',
    status: outcome.status,
    contentType: outcome.contentType,
    title: extracted.title,
    description: extracted.description,
    ...(extracted.date !== undefined ? { date: extracted.date } : {}),
    headings: extracted.headings,
    text: extracted.text,
    ...(extracted.blockEnds !== undefined ? { blockEnds: extracted.blockEnds } : {}),
    ...(extracted.linkBlocks !== undefined ? { linkBlocks: extracted.linkBlocks } : {}),
    language: extracted.language || primaryLanguage(headerValue(outcome.headers, 'content-language') ?? ''),
    links,
    canonical: extracted.canonical,
    contentHash,
    etag: headerValue(outcome.headers, 'etag'),
    lastModified: headerValue(outcome.headers, 'last-modified'),
    robots,
    truncated: outcome.truncated,
    duplicateOf,
    ...(extracted.sections ? { sections: extracted.sections } : {}),
    ...(extracted.defines ? { defines: extracted.defines } : {}),
    ...(extracted.codeShare !== undefined ? { codeShare: extracted.codeShare } : {}),
    ...(extracted.up !== undefined ? { up: extracted.up } : {}),
    extractedBy: EXTRACTION_VERSION,
  };
  // A duplicate's links were followed from the first copy already (seed 003: content fingerprints),
  // unless it stands in another folder: then its relative links name other pages (the second version
  // of a manual whose pages say the same), which the trap rules bound as any other links.
  if ((duplicateOf !== undefined && sameFolder(duplicateOf, entry.url)) || !robots.follow) return { page, follow: [] };
  const follow: FrontierEntry[] = [];
  for (const link of links) {
    if (link.rel.includes('nofollow')) continue;
    follow.push({ url: link.url, depth: entry.depth + 1, via: 'link', referrer: entry.url });
  }
  if (page.canonical && page.canonical !== entry.url) follow.push({ url: page.canonical, depth: entry.depth, via: 'link', referrer: entry.url });
  return { page, follow };
}

/** Whether a relative link resolves alike on the pages at `a` and `b`: they share a folder. */
function sameFolder(a: string, b: string): boolean {
  return new URL('./', a).href === new URL('./', b).href;
}

/** What analyzeBody needs from a body outcome: plain data, so it can cross to a worker thread. */
export function bodyInput(outcome: Extract<FetchOutcome, { kind: 'body' }>, url: string, ctx: Pick<PageContext, 'agent' | 'stripParams'>): BodyInput {
  const refresh = headerList(outcome.headers['refresh'])[0];
  return {
    url,
    body: outcome.body,
    // The charset of the media type fetch.ts decided on (a repeated header's last valid value), not of the first.
    contentTypeHeader: contentTypeValue(outcome.headers['content-type']),
    contentType: outcome.contentType,
    xRobotsTag: headerList(outcome.headers['x-robots-tag']),
    ...(refresh === undefined ? {} : { refresh }),
    agent: ctx.agent,
    stripParams: ctx.stripParams,
  };
}

/** A record with nothing fetched yet: the base every outcome fills in. */
export function blankPage(entry: QueuedEntry, fetchedAt: Date): PageRecord {
  return {
    url: entry.url,
    finalUrl: entry.url,
    state: 'error',
    status: 0,
    fetchedAt: fetchedAt.toISOString(),
    contentType: '',
    title: '',
    description: '',
    headings: [],
    text: '',
    language: '',
    links: [],
    contentHash: '',
    robots: { index: true, follow: true },
    truncated: false,
    depth: entry.depth,
  };
}

function headerList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}
