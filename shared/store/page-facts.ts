// What a resumed crawl needs to know about each stored page, small enough to read for every page at
// start without decoding its body: its state and status (the per-page counts), whether its content
// may be the first copy of a fingerprint (duplicates), and which URLs its commit judged for the frontier.
// The store writes a page's fact in the same atomic batch as the page, so the two never disagree.

import type { PageRecord, PageState } from './types.js';

export interface PageFact {
  state: PageState;
  status: number;
  /** Link hops from a seed when it was queued: what a recrawl queues it at again. */
  depth: number;
  /** The page's content fingerprint, when a later copy can be a duplicate of it (an ok page with text). */
  hash?: string;
  /** An error page's error text (its reason is counted per crawl, also after a resume). */
  error?: string;
}

/** Text that is not only whitespace: what crawler/dedup.ts's duplicateKey needs to give a key. */
const HAS_TEXT = /[^\s\u00a0]/;

export function pageFact(page: PageRecord): PageFact {
  const fact: PageFact = { state: page.state, status: page.status, depth: page.depth };
  // A page with text has its duplicate key as contentHash (crawler/analyze.ts); testing for text is
  // enough, rather than hashing 30 KB again.
  if (page.state === 'ok' && HAS_TEXT.test(page.text)) fact.hash = page.contentHash;
  if (page.state === 'error' && page.error !== undefined) fact.error = page.error.slice(0, 200);
  return fact;
}

/**
 * The URLs the crawl judged for the frontier when it stored `page` (crawler/page.ts decides them): an
 * ok page's followed links and its canonical, a redirect's target. Used once, to upgrade a store that
 * has no record of the URLs its crawl refused.
 */
export function followedUrls(page: PageRecord): string[] {
  if (page.state === 'redirect') return [page.finalUrl];
  if (page.state !== 'ok' || !page.robots.follow) return [];
  const urls = page.links.filter((l) => !l.rel.includes('nofollow')).map((l) => l.url);
  if (page.canonical && page.canonical !== page.url) urls.push(page.canonical);
  return urls;
}
