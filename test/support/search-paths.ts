// A data dir's store indexed by the real indexer, then searched as the gateway parses a query: the
// paths of the first ten results. For end-to-end tests that change a site and ask what search answers.

import { buildIndex } from '../../indexer/index.js';
import { parseQuery } from '../../web/query/index.js';
import { openSearchEngine } from '../../web/search/index.js';

export async function indexAndSearchPaths(dataDir: string, q: string): Promise<string[]> {
  await buildIndex(dataDir);
  const engine = await openSearchEngine(dataDir);
  try {
    return engine.search(parseQuery(q), { offset: 0, limit: 10 }).hits.map((h) => new URL(h.url).pathname);
  } finally {
    engine.close();
  }
}
