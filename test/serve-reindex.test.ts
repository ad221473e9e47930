// A running gateway follows re-indexing: `gleaner index` while `gleaner serve` runs, and new pages are
// found without a restart (and no cached answer from the old index is served).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { serve } from '../web/index.js';

function page(url: string, title: string, text: string): PageRecord {
  return {
    url, finalUrl: url, state: 'ok', status: 200, fetchedAt: new Date().toISOString(), contentType: 'text/html', title,
    description: '', headings: [], text, language: 'en', links: [], contentHash: url, robots: { index: true, follow: true }, truncated: false, depth: 0,
  };
}

async function addPage(dataDir: string, p: PageRecord): Promise<void> {
  const store = await openStore(dataDir);
  await store.commitFetch(undefined, p, []);
  await store.close();
}

describe('serve follows a re-index', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('finds a page indexed after the server started, within seconds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gleaner-live-'));
    dirs.push(dataDir);
    await addPage(dataDir, page('http://intranet.test/a', 'Canteen menu', 'Soup and bread every weekday.'));
    await buildIndex(dataDir);
    const server = await serve({ dataDir, port: 0, host: '127.0.0.1' });
    try {
      const ask = async () => ((await (await fetch(new URL('api/search?q=heliotrope', server.url))).json()) as { total: number }).total;
      expect(await ask()).toBe(0);
      await addPage(dataDir, page('http://intranet.test/b', 'Garden club', 'The heliotrope bed is by the library.'));
      await buildIndex(dataDir);
      let total = 0;
      for (let i = 0; i < 50 && total === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        total = await ask();
      }
      expect(total).toBe(1);
    } finally {
      await server.close();
    }
  });
});
