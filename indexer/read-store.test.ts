// The build reads the store twice (read-store.ts): routing, links and templates first, then each
// indexed page's document as the build takes it. What the second read finds decides the documents'
// text; the links counted on the first stay.

import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type PackedPage, type Store } from '../shared/store/index.js';
import { collect, storedPage } from '../test/support/store-records.js';
import { tempDirs } from '../test/support/temp-dirs.js';
import { resolveIndexerOptions } from './options.js';
import { readStoreDocuments } from './read-store.js';

const dirs = tempDirs('gleaner-read-store-');
afterAll(dirs.removeAll);

const SITE = 'http://site.test';
const URLS = ['a', 'b', 'c', 'd'].map((p) => `${SITE}/${p}`);

async function storeOfFourPages(): Promise<Store> {
  const store = await openStore(await dirs.make());
  // Each page links to every other: d is linked from a, b and c.
  for (const url of URLS) await store.commitFetch(undefined, storedPage(url, URLS.filter((u) => u !== url)), []);
  return store;
}

/** The store, except that each read after the first gives `change`'s pages (a crawl that went on between them). */
function changingBetweenReads(store: Store, change: (pages: PackedPage[]) => PackedPage[]): Store {
  let reads = 0;
  // The build reads pages with their links packed, as stored.
  async function* pages(): AsyncIterable<PackedPage> {
    const all: PackedPage[] = [];
    for await (const page of store.packedPages()) all.push(page);
    yield* reads++ === 0 ? all : change(all);
  }
  return new Proxy(store, {
    get(target, key) {
      if (key === 'packedPages') return pages;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('readStoreDocuments', () => {
  it('makes the documents in URL order whatever order the second read gives the pages in', async () => {
    const store = await storeOfFourPages();
    try {
      const read = await readStoreDocuments(changingBetweenReads(store, (pages) => [...pages].reverse()), resolveIndexerOptions());
      expect(read.documents.count).toBe(4);
      const documents = await collect(read.documents.documents);
      expect(documents.map((d) => d.stored.url)).toEqual(URLS);
      expect(documents.map((d) => d.stored.body)).toEqual(URLS.map((u) => `text of ${u}`));
      expect(documents.map((d) => d.inbound)).toEqual([3, 3, 3, 3]);
    } finally {
      await store.close();
    }
  });

  it('indexes a page changed between the reads as read the second time, and leaves out one no longer indexable', async () => {
    const store = await storeOfFourPages();
    try {
      const changed = changingBetweenReads(store, (pages) =>
        pages.map((p) => (p.url === URLS[1] ? { ...p, state: 'gone' as const } : p.url === URLS[2] ? { ...p, text: 'rewritten since' } : p)),
      );
      const documents = await collect((await readStoreDocuments(changed, resolveIndexerOptions())).documents.documents);
      expect(documents.map((d) => d.stored.url)).toEqual([URLS[0], URLS[2], URLS[3]]);
      expect(documents.find((d) => d.stored.url === URLS[2])?.stored.body).toBe('rewritten since');
      // The links were counted on the first read, where b still linked to d.
      expect(documents.find((d) => d.stored.url === URLS[3])?.inbound).toBe(3);
    } finally {
      await store.close();
    }
  });
});
