import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../shared/store/index.js';
import { CRAWL_SETTINGS_KEY, crawlSettings, storedCrawlSettings } from './crawl-settings.js';
import { resolveCrawlOptions } from './options.js';

describe('the settings a crawl ran with, kept in its store', () => {
  it('keeps what the crawl is (scope, limits, agent), not where this process ran; reads back only keys a crawl has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-settings-'));
    try {
      const options = resolveCrawlOptions({ dataDir: dir, seeds: ['http://a.test/'], maxPages: 200, exclude: ['/private/'], agent: 'HarbourBot', from: 'ops@a.test', recrawl: true, frontier: 'redis://127.0.0.1/0' });
      const kept = crawlSettings(options);
      expect(kept).toMatchObject({ maxPages: 200, exclude: ['/private/'], agent: 'HarbourBot', from: 'ops@a.test' });
      for (const key of ['dataDir', 'seeds', 'recrawl', 'frontier', 'store', 'logLevel']) expect(kept).not.toHaveProperty(key);
      const store = await openStore(dir);
      try {
        expect(await storedCrawlSettings(store)).toBeUndefined();
        // As a later Gleaner might write: a key this one does not know, and one it never keeps.
        await store.putMeta(CRAWL_SETTINGS_KEY, { ...kept, someFutureOption: 3, dataDir: '/elsewhere' });
        expect(await storedCrawlSettings(store)).toEqual(JSON.parse(JSON.stringify(kept)));
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
