// The settings a crawl ran with, kept in its store, so a crawl started for it later without flags
// (`gleaner serve --recrawl-every`) asks what the user's crawl asked and no more: its scope, include and
// exclude patterns, page and depth limits, agent, robots and politeness. Without them a recrawl round
// fell back to the defaults: a crawl made with --max-pages 200 grew from 199 to 1,118 pages in one round,
// and one made with --exclude crawled what it excluded. Nutch keeps a crawl's settings in its conf for
// the same reason. Pure selection here; the store read and write are the crawl's and the loop's.

import type { Store } from '../shared/store/index.js';
import { DEFAULT_CRAWL_OPTIONS, type CrawlOptions } from './options.js';

/** The store meta key the settings are kept under. */
export const CRAWL_SETTINGS_KEY = 'crawlSettings';

/** Options that say where and how this one process runs, not what the crawl is: not kept. The seeds are
 * kept with the crawl's stats already. */
const NOT_KEPT = ['dataDir', 'store', 'frontier', 'seeds', 'recrawl', 'statusIntervalMs', 'logLevel', 'stopDeadlineMs', 'frontierTimeoutMs', 'leaseMarginMs', 'leaseBatchUrls'] as const;

export type CrawlSettings = Omit<Partial<CrawlOptions>, (typeof NOT_KEPT)[number]>;

/** What to keep of a run's options. */
export function crawlSettings(options: CrawlOptions): CrawlSettings {
  const notKept = new Set<string>(NOT_KEPT);
  return Object.fromEntries(Object.entries(options).filter(([k]) => !notKept.has(k)));
}

/** Options with no default, kept when a run set them. */
const OPTIONAL_KEPT = ['from'];

/** The settings of the last crawl run on this store; undefined when it ran before they were kept. Only
 * keys a crawl has now are read back: a store written by another version may hold others. */
export async function storedCrawlSettings(store: Store): Promise<CrawlSettings | undefined> {
  const stored = await store.getMeta<unknown>(CRAWL_SETTINGS_KEY);
  if (stored === undefined || stored === null || typeof stored !== 'object') return undefined;
  const notKept = new Set<string>(NOT_KEPT);
  const known = (k: string) => (k in DEFAULT_CRAWL_OPTIONS || OPTIONAL_KEPT.includes(k)) && !notKept.has(k);
  return Object.fromEntries(Object.entries(stored).filter(([k]) => known(k)));
}
