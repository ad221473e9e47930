// Counting a crawl's pages so the counts are of the crawl, not of the run (issue 12): each stored page is
// counted once, by its latest fetch. A page stored again (a recrawl) moves from its old state and status
// to the new ones; a 304 counts as status 304. The crawl loop recounts these from the stored page facts when it
// starts, so they are right after any kind of stop (kill -9 included), and it counts this run's figures apart.

import type { CrawlStats, PageRecord } from '../shared/store/index.js';

/** What this run did, beside the whole crawl's counters. */
export interface RunFigures {
  /** Pages stored by this run, re-stored pages of a recrawl included. */
  pages: number;
  pagesByState: CrawlStats['pagesByState'];
  pagesByStatus: CrawlStats['pagesByStatus'];
  /** HTTP requests for pages and sitemaps this run (robots.txt not counted). */
  requests: number;
  /** Pages of a recrawl whose server failed for now: their stored copy stands (counted in `pages`). */
  kept: number;
}

export function newRunFigures(): RunFigures {
  return { pages: 0, pagesByState: {}, pagesByStatus: {}, requests: 0, kept: 0 };
}

type PageCounts = Pick<CrawlStats, 'pagesByState' | 'pagesByStatus'> & Partial<Pick<CrawlStats, 'errors' | 'duplicates'>>;

/** Adds (`sign` +1) or takes away (-1) one page from the per-page counts; a count that reaches 0 goes. */
export function countPage(counts: PageCounts, page: Pick<PageRecord, 'state' | 'status'>, sign: 1 | -1): void {
  bump(counts.pagesByState, page.state, sign);
  bump(counts.pagesByStatus, String(page.status), sign);
  if (page.state === 'error' && counts.errors !== undefined) counts.errors += sign;
  if (page.state === 'duplicate' && counts.duplicates !== undefined) counts.duplicates += sign;
}

export function bump<K extends string>(map: Partial<Record<K, number>>, key: K, sign: 1 | -1): void {
  // Own counts only, and set as a property: a key such as "constructor" or "__proto__" (an error's
  // reason is made from what a server answered) is counted like any other, never read from or written to
  // the prototype.
  const n = (Object.hasOwn(map, key) ? (map[key] ?? 0) : 0) + sign;
  if (n > 0) Object.defineProperty(map, key, { value: n, enumerable: true, writable: true, configurable: true });
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a plain record by design (saved as JSON in the stats); a zero count is left out, not kept
  else delete map[key];
}

