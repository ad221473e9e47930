// The date the index keeps for a page, which results show and `sort=date` orders by: the date the page
// declares (crawler/page-date.ts), else its HTTP Last-Modified, as Xapian Omega shows a file's
// modification time. Either is left out when it cannot be the page's: later than the crawl saw the
// page (a scheduled or mistyped date would sort first for ever), a Last-Modified the server stamped
// as it answered (pages generated per request say "now": every one would look newest), and the
// Last-Modified of a host whose pages mostly share one day (DeployStamps): files installed by a
// package, checked out by git or copied to the server all carry the day they arrived, which says
// nothing of when each was written, and would sort a site's every page above the dated news of
// another. Pure.

import type { PageRecord } from '../shared/store/index.js';
import { httpDateMs } from '../shared/http/index.js';

/** How far past the fetch a declared date may lie: a day covers time zones and clocks set a little ahead. */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
/** A Last-Modified this close to the fetch is the server's "now", not an edit. */
const STAMPED_WITHIN_MS = 5 * 60 * 1000;

/** A host is judged by DeployStamps once this many of its pages have a Last-Modified: below, a shared
 * day is as likely a few pages written together. */
const MIN_PAGES_JUDGED = 10;
/** The share of a host's pages on one Last-Modified day that makes that day a deployment's. */
const DEPLOYED_SHARE = 0.5;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The page's date in milliseconds since the epoch, or undefined when it has none it can be trusted
 * with; `lastModifiedTrusted` false (its host's is a deployment's) leaves only the declared date. */
export function pageDateMs(page: Pick<PageRecord, 'date' | 'lastModified' | 'fetchedAt'>, lastModifiedTrusted = true): number | undefined {
  const fetched = Date.parse(page.fetchedAt);
  const declared = page.date === undefined ? NaN : Date.parse(page.date);
  if (Number.isFinite(declared) && !(declared > fetched + FUTURE_SLACK_MS)) return declared;
  if (!lastModifiedTrusted) return undefined;
  const modified = page.lastModified === undefined ? undefined : httpDateMs(page.lastModified);
  if (modified !== undefined && modified < fetched - STAMPED_WITHIN_MS) return modified;
  return undefined;
}

/** Per host, the days its pages' Last-Modified fall on, to tell a deployment's stamp from edits. */
export class DeployStamps {
  private readonly byHost = new Map<string, { pages: number; days: Map<number, number> }>();

  add(host: string, lastModified: string | undefined): void {
    const at = lastModified === undefined ? undefined : httpDateMs(lastModified);
    if (at === undefined) return;
    let tally = this.byHost.get(host);
    if (tally === undefined) this.byHost.set(host, (tally = { pages: 0, days: new Map() }));
    tally.pages++;
    const day = Math.floor(at / DAY_MS);
    tally.days.set(day, (tally.days.get(day) ?? 0) + 1);
  }

  /** The hosts of at least MIN_PAGES_JUDGED pages with a Last-Modified, more than DEPLOYED_SHARE of them on one day. */
  deployed(): Set<string> {
    const out = new Set<string>();
    for (const [host, { pages, days }] of this.byHost) {
      if (pages < MIN_PAGES_JUDGED) continue;
      let most = 0;
      for (const n of days.values()) most = Math.max(most, n);
      if (most > DEPLOYED_SHARE * pages) out.add(host);
    }
    return out;
  }
}
