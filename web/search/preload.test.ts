// Reading posting lists ahead after opening must change nothing but when lists are read: the same
// answers, within its budget, and never a read after the engine is closed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../../test/support/index-fixture.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { parseQuery } from '../query/index.js';
import { IndexSearcher } from './engine.js';
import { openSearchEngine } from './index.js';

const WORDS = ['north', 'south', 'river', 'bridge', 'stone', 'mill', 'market', 'church', 'hill', 'wood', 'field', 'lane'];
const random = seededRandom(1127);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
// 80 pages: the common words are in more documents than the read-ahead's least (64).
const pages = Array.from({ length: 80 }, (_, i) => ({ url: `http://town.test/${i}`, title: text(3), headings: [text(2)], text: text(30 + i * 4) }));

let fixture: FixtureDir;
beforeAll(async () => {
  fixture = await buildFixtureIndex(pages);
});
afterAll(() => fixture.cleanup());

async function open(preloadMiB: number): Promise<IndexSearcher> {
  const engine = await openSearchEngine(fixture.dataDir, { preloadMiB });
  if (!(engine instanceof IndexSearcher)) throw new Error('openSearchEngine gives an IndexSearcher');
  return engine;
}

describe('posting lists read ahead', () => {
  it('read most-documents-first up to the budget, then everything, and answer as without', async () => {
    const ahead = await open(0);
    const cold = await open(0);
    try {
      const some = await ahead.preload(1e-4, 1);
      expect(some.terms).toBeGreaterThan(0);
      const all = await ahead.preload(64, 1);
      expect(all.terms).toBeGreaterThan(some.terms);
      expect(all.mib).toBeGreaterThan(some.mib);
      expect(all.mib).toBeLessThan(64);
      const queries = [...WORDS, 'river bridge', '"stone mill"', 'north OR lane', 'wood market', 'site:town.test hill'];
      for (const q of queries) {
        const a = ahead.search(parseQuery(q), { offset: 0, limit: 10 });
        const b = cold.search(parseQuery(q), { offset: 0, limit: 10 });
        expect(a.total, q).toBeGreaterThan(0);
        expect({ ...a, tookMs: 0 }, q).toEqual({ ...b, tookMs: 0 });
      }
    } finally {
      ahead.close();
      cold.close();
    }
  });

  it('stops when the engine is closed, without reading a closed file', async () => {
    const engine = await open(0);
    const reading = engine.preload(64, 1);
    engine.close();
    const { terms } = await reading;
    // The first slice ran before close (it starts at once); nothing after.
    const again = await engine.preload(64, 1);
    expect(again.terms).toBe(0);
    expect(terms).toBeGreaterThan(0);
  });

  it('starts by itself when an engine opens with a budget', async () => {
    const engine = await open(64);
    try {
      // A few turns of the event loop: the read-ahead runs between them. A budget of 0 reads nothing
      // and tells what the cache holds.
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
      expect((await engine.preload(0)).mib).toBeGreaterThan(0);
      const idle = await open(0);
      expect((await idle.preload(0)).mib).toBe(0);
      idle.close();
      expect(engine.search(parseQuery('river'), { offset: 0, limit: 5 }).hits.length).toBeGreaterThan(0);
    } finally {
      engine.close();
    }
  });
});
