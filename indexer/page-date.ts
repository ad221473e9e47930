// The date the index keeps for a page, which results show and `sort=date` orders by: the date the page
// declares (crawler/page-date.ts), else its HTTP Last-Modified, as Xapian Omega shows a file's
// modification time. Either is left out when it cannot be the page's: later than the crawl saw the
// page (a scheduled or mistyped date would sort first for ever), and a Last-Modified the server
// stamped as it answered (pages generated per request say "now": every one would look newest). Pure.

import type { PageRecord } from '../shared/store/index.js';
import { httpDateMs } from '../shared/http/index.js';

/** How far past the fetch a declared date may lie: a day covers time zones and clocks set a little ahead. */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
/** A Last-Modified this close to the fetch is the server's "now", not an edit. */
const STAMPED_WITHIN_MS = 5 * 60 * 1000;

/** The page's date in milliseconds since the epoch, or undefined when it has none it can be trusted with. */
export function pageDateMs(page: Pick<PageRecord, 'date' | 'lastModified' | 'fetchedAt'>): number | undefined {
  const fetched = Date.parse(page.fetchedAt);
  const declared = page.date === undefined ? NaN : Date.parse(page.date);
  if (Number.isFinite(declared) && !(declared > fetched + FUTURE_SLACK_MS)) return declared;
  const modified = page.lastModified === undefined ? undefined : httpDateMs(page.lastModified);
  if (modified !== undefined && modified < fetched - STAMPED_WITHIN_MS) return modified;
  return undefined;
}
