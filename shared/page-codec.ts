// How a PageRecord is written in the store. JSON, with one change: a page's links (50-300 on a
// documentation page) are stored as parallel arrays instead of one object per link, which makes the
// record about a fifth smaller and faster to write and read (bytes are most of what LevelDB spends:
// its log, compression and compactions). Readers get the PageRecord shape back.

import type { OutLink, PageRecord } from './types.js';

interface StoredLinks {
  url: string[];
  text: string[];
  /** rel tokens joined by spaces; left out when no link has any. */
  rel?: string[];
  /** left out when every link is an `a`. */
  kind?: OutLink['kind'][];
}

type StoredPage = Omit<PageRecord, 'links'> & { links: StoredLinks | OutLink[] };

export function encodePage(page: PageRecord): string {
  const { links } = page;
  const stored: StoredLinks = { url: new Array(links.length), text: new Array(links.length) };
  let anyRel = false;
  let allA = true;
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    stored.url[i] = l.url;
    stored.text[i] = l.text;
    if (l.rel.length > 0) anyRel = true;
    if (l.kind !== 'a') allA = false;
  }
  if (anyRel) stored.rel = links.map((l) => l.rel.join(' '));
  if (!allA) stored.kind = links.map((l) => l.kind);
  return JSON.stringify({ ...page, links: stored });
}

export function decodePage(text: string): PageRecord {
  const raw = JSON.parse(text) as StoredPage;
  const stored = raw.links;
  // Records written before links were packed hold the objects themselves.
  if (Array.isArray(stored)) return raw as PageRecord;
  const links: OutLink[] = new Array(stored.url.length);
  for (let i = 0; i < links.length; i++) {
    const rel = stored.rel?.[i] ?? '';
    links[i] = { url: stored.url[i]!, text: stored.text[i]!, rel: rel === '' ? [] : rel.split(' '), kind: stored.kind?.[i] ?? 'a' };
  }
  return { ...raw, links };
}

/** The store's value encoding for pages (a level-transcoder custom encoding). */
export const PAGE_ENCODING = { name: 'gleaner-page', format: 'utf8', encode: encodePage, decode: decodePage } as const;
