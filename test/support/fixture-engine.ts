// A search engine over a fixture index for one test file: the pages are written and indexed before the
// file's tests (beforeAll) and removed after them (afterAll); `engine()` is the open engine.

import { afterAll, beforeAll } from 'vitest';
import { openSearchEngine, type GleanerSearchEngine, type SearcherOptions } from '../../web/search/index.js';
import { buildFixtureIndex, type FixtureDir, type PageSpec } from './index-fixture.js';

export function fixtureEngine(pages: readonly PageSpec[], options: Partial<SearcherOptions> = {}): () => GleanerSearchEngine {
  let engine: GleanerSearchEngine | undefined;
  let fixture: FixtureDir | undefined;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(pages);
    engine = await openSearchEngine(fixture.dataDir, options);
  });
  afterAll(async () => {
    engine?.close();
    await fixture?.cleanup();
  });
  return () => {
    if (engine === undefined) throw new Error('the fixture engine is opened in beforeAll');
    return engine;
  };
}
