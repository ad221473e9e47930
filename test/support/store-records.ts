// Small page records and an async-iterable collector for the store tests (LevelDB and PostgreSQL):
// the same fixture, so both stores are held to the same behaviour.

import { expect } from 'vitest';
import type { PageRecord, Store } from '../../shared/store/index.js';

/** A stored 200 page at `url` linking to `links`. */
export function storedPage(url: string, links: string[] = [], extra: Partial<PageRecord> = {}): PageRecord {
  return {
    url, finalUrl: url, state: 'ok', status: 200, fetchedAt: '2026-01-01T00:00:00.000Z', contentType: 'text/html',
    title: url, description: '', headings: [], text: `text of ${url}`, language: 'en',
    links: links.map((l) => ({ url: l, text: `to ${l}`, rel: [], kind: 'a' as const })),
    contentHash: url, robots: { index: true, follow: true }, truncated: false, depth: 0, ...extra,
  };
}

export async function collect<T>(it: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The queue rule both stores keep: each URL queued once, breadth-first by depth, then in the order queued. */
export async function expectBreadthFirstQueue(store: Store): Promise<void> {
  const added = await store.frontier.add([
    { url: 'http://a/2', depth: 2, via: 'link' },
    { url: 'http://a/0', depth: 0, via: 'seed' },
    { url: 'http://a/1', depth: 1, via: 'link' },
    { url: 'http://a/1b', depth: 1, via: 'link' },
    { url: 'http://a/0', depth: 0, via: 'seed' },
  ]);
  expect(added.map((e) => e.url)).toEqual(['http://a/2', 'http://a/0', 'http://a/1', 'http://a/1b']);
  expect(await store.frontier.add([{ url: 'http://a/1', depth: 1, via: 'link' }])).toEqual([]);
  expect((await collect(store.frontier.queued())).map((e) => e.url)).toEqual(['http://a/0', 'http://a/1', 'http://a/1b', 'http://a/2']);
}
