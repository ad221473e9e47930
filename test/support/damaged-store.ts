// A crawl's store in LevelDB table files, and the damage a bad sector or a lost write does to one, for
// the tests of how Gleaner reports and repairs a damaged store.

import { closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { openStore, storePath } from '../../shared/store/index.js';
import { seededRandom } from './seeded-random.js';
import { collect, storedPage } from './store-records.js';

export const PAGES = 300;
export const url = (i: number): string => `http://a/page-${i}`;

/** A store of PAGES fetched pages (about 4 KB of text each, so they fill several LevelDB blocks) and 20
 * URLs still queued, compacted into table files as a long crawl's store is. */
export async function crawledStore(dir: string): Promise<void> {
  const random = seededRandom(7);
  const words = Array.from({ length: 500 }, (_, i) => `word${i}`);
  const store = await openStore(dir);
  await store.frontier.add(Array.from({ length: PAGES + 20 }, (_, i) => ({ url: url(i), depth: 1, via: 'link' as const })));
  const queued = await collect(store.frontier.queued());
  for (const entry of queued.slice(0, PAGES)) {
    const text = Array.from({ length: 600 }, () => words[Math.floor(random() * words.length)]).join(' ');
    await store.commitFetch(entry, storedPage(entry.url, [], { text }), []);
  }
  await store.close();
  const db = new Level(storePath(dir));
  await db.open();
  // `level` types its class without classic-level's compactRange; the class is classic-level's.
  await (db as unknown as { compactRange(start: string, end: string): Promise<void> }).compactRange('\u0000', '\uffff');
  await db.close();
}

/** Overwrites 4 KB in the middle of the largest table with other bytes, as a bad sector or a lost write would. */
export function damageLargestTable(dir: string): void {
  const tables = readdirSync(storePath(dir)).filter((f) => f.endsWith('.ldb')).map((f) => join(storePath(dir), f));
  const largest = tables.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const random = seededRandom(11);
  const fd = openSync(largest, 'r+');
  writeSync(fd, Uint8Array.from({ length: 4096 }, () => Math.floor(random() * 256)), 0, 4096, Math.floor(statSync(largest).size / 2));
  closeSync(fd);
}
