// The query-time side of the index: `openSearchEngine(dataDir)` loads what `gleaner index` wrote,
// read-only, and answers searches (web/search/engine.ts, which wires precompute.ts, posting-loop.ts,
// match-rules.ts, phrase-check.ts, stored-fields.ts and hits.ts) ranked by web/search/rank.ts.

import { currentGeneration, DEFAULT_POSITION_BLOCKS_OPTIONS, noIndexError, readCurrentGeneration, readIndexStatsFile, readManifest, type IndexStats } from '../../shared/index-format/index.js';
import { DEFAULT_SEARCHER_OPTIONS, IndexSearcher, type GleanerSearchEngine, type SearcherOptions } from './engine.js';
import { DEFAULT_LIVE_OPTIONS, openLive, type LiveOptions } from './live.js';

export type { GleanerSearchEngine, SearcherOptions } from './engine.js';
export type { Explanation, IndexSummary, SearchEngine, SearchHit, SearchOptions, SearchResult, SortOrder } from './types.js';
export { SORT_ORDERS } from './types.js';
export { DEFAULT_SEARCHER_OPTIONS } from './engine.js';
export { DEFAULT_NAME_TITLE_OPTIONS } from './name-title.js';
export { DEFAULT_LEAD_OPTIONS } from './lead.js';
export { DEFAULT_LIVE_OPTIONS, type LiveOptions } from './live.js';
export { DEFAULT_RANK_PARAMS, rankScore, linkBoost, termScore, type RankParams } from './rank.js';
export type { IndexStats, LinkedPage } from '../../shared/index-format/index.js';

/**
 * Loads the live index of `dataDir`. Throws GleanerError NOT_FOUND ("run gleaner index first") when
 * none was built, INDEX_FORMAT when it was built by a Gleaner with another index format.
 */
export async function openSearchEngine(dataDir: string, options: Partial<SearcherOptions> = {}): Promise<GleanerSearchEngine> {
  const all = { ...DEFAULT_SEARCHER_OPTIONS, ...options };
  const gen = await readCurrentGeneration(dataDir, {
    cacheMiB: all.postingCacheMiB,
    wholePositionBytes: all.wholePositionBytes,
    positionBlocks: { ...DEFAULT_POSITION_BLOCKS_OPTIONS, cacheMiB: all.positionCacheMiB },
  });
  try {
    const stats = await readIndexStatsFile(gen.dir);
    const searcher = new IndexSearcher(gen, { ...stats, bytesOnDisk: gen.manifest.bytesOnDisk }, all);
    // In the background; a damaged list it meets fails again, with its message, for the query that asks.
    if (all.preloadMiB > 0) searcher.preload().catch(() => {});
    return searcher;
  } catch (e) {
    gen.lists.close();
    throw e;
  }
}

/**
 * `openSearchEngine` that follows re-indexing (web/search/live.ts): a `gleaner index` run while the
 * gateway serves is picked up within `checkIntervalMs`, without a restart.
 */
export function openLiveSearchEngine(dataDir: string, options: Partial<SearcherOptions> = {}, live: Partial<LiveOptions> = {}): Promise<GleanerSearchEngine> {
  return openLive(openSearchEngine, dataDir, options, { ...DEFAULT_LIVE_OPTIONS, ...live });
}

/** The figures the indexer saved with the live generation (stats.json), read without loading the index.
 * /stats no longer reads them so: it takes the served generation's from the engine (web/stats.ts). */
export async function readIndexStats(dataDir: string): Promise<IndexStats> {
  const dir = await currentGeneration(dataDir);
  if (dir === undefined) throw noIndexError(dataDir);
  const manifest = await readManifest(dir);
  return { ...(await readIndexStatsFile(dir)), bytesOnDisk: manifest.bytesOnDisk };
}
