// What /stats shows, and where it comes from: a function, so the page never opens the crawl store (a
// running crawl holds its lock). The serve command reads what the indexer copied into the index
// (stats.json: crawl counters, most-linked pages, skipped pages) as the engine loaded it; tests may
// give any function.

import type { IndexStats, LinkedPage } from '../shared/index-format/index.js';
import type { IndexSummary, SearchEngine } from './search/index.js';
import type { CrawlStats } from '../shared/store/index.js';

export interface GatewayStats {
  index: IndexSummary;
  /** Counters of the last crawl, when the index has them. */
  crawl?: CrawlStats;
  /** The most-linked pages, most first. */
  mostLinked?: LinkedPage[];
  /** Pages the indexer left out, by reason (noindex, duplicate, gone...). */
  skipped?: Record<string, number>;
}

export type StatsSource = () => Promise<GatewayStats>;

/** The fallback when nothing else is known: the index summary alone. */
export function engineStats(engine: SearchEngine): StatsSource {
  return () => Promise.resolve({ index: engine.summary() });
}

/** The figures the indexer saved with the generation being served (the engine loaded them with it). */
export function indexStats(engine: SearchEngine & { stats(): IndexStats }): StatsSource {
  return () => {
    const stats = engine.stats();
    return Promise.resolve({
      index: engine.summary(),
      ...(stats.crawl ? { crawl: stats.crawl } : {}),
      mostLinked: stats.topLinked,
      skipped: stats.skipped,
    });
  };
}
