// Hubs: pages that point at answers rather than being one (issue 14 item 3). A chapter's table of
// contents, an alphabetical index, a paginated listing or archive whose teasers repeat its posts: most
// of such a page's text is the names of other pages (link anchor text) and the openings of the pages it
// links to (teasers). The hub share of a page is that part of its text:
//
//   hub share = (anchor text of its links to other pages + list glue + teaser text) / visible text
//
// where list glue is text between two links closer than TEASER_CHUNK characters (the words of an index
// entry, the commas of a list), and teaser text is text right after a link's anchor that the linked page's opening (its first
// OPENING_CHARS characters) also holds, checked in TEASER_CHUNK-character pieces that end before the next
// link's anchor (so a run of navigation links, which every page of a site repeats, is never a teaser).
// Nothing here knows a site's URLs or markup: the share is read from the text and links alone. Pure.

import { packLinks, type OutLink, type PackedLinks, type PageRecord } from '../shared/store/index.js';

/** How much of a linked page's text is its opening, the part a teaser repeats. */
export const OPENING_CHARS = 4000;
/** Teaser text is matched in pieces of this many characters; a shorter gap between two links is not one. */
export const TEASER_CHUNK = 48;
/** At most this many links per page are checked for a teaser after them (bounds the work on link farms). */
const MAX_TEASER_CHECKS = 300;

/** What a teaser is looked for in: a linked page's opening, as a string or as its UTF-8 bytes (a
 * Buffer: the index build holds every indexed page's opening that way between its reads of the store,
 * off the JavaScript heap and half the size of a two-byte string). */
export interface Opening {
  includes(piece: string): boolean;
}

/** The opening of a page's text: its first OPENING_CHARS characters. */
export function openingOf(text: string): string {
  return text.length > OPENING_CHARS ? text.slice(0, OPENING_CHARS) : text;
}

/**
 * The share of `page`'s text that is anchor text of its links to other pages or repeats the opening of
 * the page a link points to (`openingAt` gives a linked page's opening, made by `openingOf`, undefined when it is
 * not indexed). 0 for a page without text.
 */
export function hubShare(page: Pick<PageRecord, 'url' | 'text'> & { links: readonly OutLink[] | PackedLinks }, openingAt: (url: string) => Opening | undefined): number {
  const { text } = page;
  if (text.length === 0) return 0;
  // The index build reads links packed (shared/store packedPages), as they are stored.
  const links = 'url' in page.links ? page.links : packLinks(page.links);
  // Where each link's anchor text is in the page text, in document order.
  const found: { url: string; start: number; end: number }[] = [];
  let cursor = 0;
  const self = withoutFragment(page.url);
  for (let i = 0; i < links.url.length; i++) {
    const anchor = links.text[i]!;
    if ((links.kind?.[i] ?? 'a') !== 'a' || anchor === '') continue;
    const at = text.indexOf(anchor, cursor);
    if (at === -1) continue;
    cursor = at + anchor.length;
    const target = withoutFragment(links.url[i]!);
    if (target !== self) found.push({ url: target, start: at, end: cursor });
  }
  let repeated = 0;
  let checks = 0;
  for (let i = 0; i < found.length; i++) {
    const link = found[i]!;
    repeated += link.end - link.start;
    const gapEnd = i + 1 < found.length ? found[i + 1]!.start : text.length;
    if (gapEnd - link.end < TEASER_CHUNK) {
      // A short gap between two links is a list's glue: an index entry's words, commas.
      if (i + 1 < found.length) repeated += gapEnd - link.end;
      continue;
    }
    if (checks >= MAX_TEASER_CHECKS) continue;
    checks++;
    const opening = openingAt(link.url);
    if (opening === undefined) continue;
    for (let at = link.end + 1; at + TEASER_CHUNK <= gapEnd; at += TEASER_CHUNK) {
      if (!opening.includes(text.slice(at, at + TEASER_CHUNK))) break;
      repeated += TEASER_CHUNK;
    }
  }
  return Math.min(1, repeated / text.length);
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
