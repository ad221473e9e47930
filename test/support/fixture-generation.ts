// An index generation over fixture pages for one test file: built before the file's tests (beforeAll),
// closed and removed after them (afterAll); `gen()` is the generation, read as the searcher reads it.

import { afterAll, beforeAll } from 'vitest';
import { readCurrentGeneration, type IndexGeneration } from '../../shared/index-format/index.js';
import type { IndexerOptions } from '../../indexer/index.js';
import { buildFixtureIndex, type FixtureDir, type PageSpec } from './index-fixture.js';

export function fixtureGeneration(pages: readonly PageSpec[], options: Partial<IndexerOptions> = {}): () => IndexGeneration {
  let fixture: FixtureDir | undefined;
  let generation: IndexGeneration | undefined;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(pages, undefined, options);
    generation = await readCurrentGeneration(fixture.dataDir);
  });
  afterAll(async () => {
    generation?.lists.close();
    await fixture?.cleanup();
  });
  return () => {
    if (generation === undefined) throw new Error('the fixture generation is read in beforeAll');
    return generation;
  };
}
