// What every route group is given: its own file so web/routes/* and web/app.ts (which mounts them) do not
// import each other.

import type { SearchEngine, SearchResult } from './search/index.js';
import type { WebOptions } from './defaults.js';
import type { IndexHealth } from './index-health.js';
import type { LruCache } from './lru.js';
import type { StatsSource } from './stats.js';
import type { RobotsFetcher } from './robots/fetch.js';
import type { CrawlStatus } from '../shared/crawl-status.js';

/** What every route group is given. */
export interface AppContext {
  engine: SearchEngine;
  stats: StatsSource;
  fetchRobots: RobotsFetcher;
  options: WebOptions;
  /** The live status of the data dir's crawl (running or last), when there is one. */
  crawlStatus: () => Promise<CrawlStatus | undefined>;
  /** Search results by query and page, shared by the HTML page and the API. */
  cache: LruCache<SearchResult>;
  /** Searches failing because of the index, for /healthz. */
  health: IndexHealth;
}
