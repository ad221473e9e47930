// The indexer's entry: `buildIndex(dataDir)` reads the crawl store and writes <dataDir>/index/.

import { openStoreAt } from '../shared/store/index.js';
import { buildFromDocuments, type IndexBuildSummary } from './build.js';
import { resolveIndexerOptions, type IndexerOptions } from './options.js';
import { readStoreDocuments } from './read-store.js';

export type { IndexBuildSummary, IndexDocument, BuildExtras, DocumentSource } from './build.js';
export { buildFromDocuments } from './build.js';
export { discardUnfinished } from './write-index.js';
export { DEFAULT_INDEXER_OPTIONS, resolveIndexerOptions, type IndexerOptions, type IndexProgress } from './options.js';

/**
 * Indexes the crawl in `dataDir`: re-analyses only pages that changed since the last build (or all of
 * them with `full`), drops pages that are gone, and replaces the live index atomically.
 * Throws NOT_FOUND when there is no crawl store, STORE_LOCKED while a crawl holds it.
 */
export async function buildIndex(dataDir: string, options: Partial<IndexerOptions> = {}): Promise<IndexBuildSummary> {
  const startedAt = performance.now();
  const resolved = resolveIndexerOptions(options);
  const store = await openStoreAt(resolved.store ?? dataDir, { mustExist: true });
  try {
    const read = await readStoreDocuments(store, resolved);
    const crawl = await store.getCrawlStats();
    // The documents are made from the store as the build takes them: it stays open until the end.
    return await buildFromDocuments(dataDir, read.documents, { crawl, skipped: read.skipped }, resolved, startedAt);
  } finally {
    await store.close();
  }
}
