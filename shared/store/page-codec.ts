// How a PageRecord is written in the store. JSON, with one change: a page's links (50-300 on a
// documentation page) are stored as parallel arrays instead of one object per link, which makes the
// record about a fifth smaller and faster to write and read (bytes are most of what LevelDB spends:
// its log, compression and compactions). Readers get the PageRecord shape back.

import { packLinks, unpackLinks, type PackedLinks } from './links.js';
import type { OutLink, PageRecord } from './types.js';

type StoredPage = Omit<PageRecord, 'links'> & { links: PackedLinks | OutLink[] };

export function encodePage(page: PageRecord): string {
  return JSON.stringify({ ...page, links: packLinks(page.links) });
}

export function decodePage(text: string): PageRecord {
  const raw = JSON.parse(text) as StoredPage;
  // Records written before links were packed hold the objects themselves.
  if (Array.isArray(raw.links)) return raw as PageRecord;
  return { ...raw, links: unpackLinks(raw.links) };
}

/** A page record with its links as stored: parallel arrays, not an object per link. */
export type PackedPage = Omit<PageRecord, 'links'> & { links: PackedLinks };

/** A stored page for a reader that only counts, hashes or copies links (the index build): unpacking
 * made 1.6 million link objects per read of the Rust docs, which the build packed again. */
export function decodePackedPage(text: string): PackedPage {
  const raw = JSON.parse(text) as StoredPage;
  if (Array.isArray(raw.links)) raw.links = packLinks(raw.links);
  return raw as PackedPage;
}

/** The store's value encoding for pages (a level-transcoder custom encoding). */
export const PAGE_ENCODING = { name: 'gleaner-page', format: 'utf8', encode: encodePage, decode: decodePage } as const;
