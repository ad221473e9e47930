// A page's link edges: what the link graph (inbound counts, anchor text) is built from.
// The store keeps each page's links inside its record, written in the same put as the page, so a
// page and its edges can never disagree and a recrawl replaces both at once. Pure.

import type { LinkEdge, OutLink, PageRecord } from './types.js';

/**
 * The edges a stored page contributes: only a page fetched as `ok` links anywhere. One edge per target:
 * a page that links to the same URL from its menu and its text links once, with the first non-empty
 * anchor text, and the edge is followed if any of those links is. With `isTemplate`, the edge is a
 * template edge when all of those links are template links (`isTemplate` is given each link and its index).
 */
export function linkEdgesOf(page: Pick<PageRecord, 'url' | 'state' | 'links'>, isTemplate?: (link: OutLink, index: number) => boolean): LinkEdge[] {
  if (page.state !== 'ok') return [];
  const byTarget = new Map<string, LinkEdge>();
  for (let i = 0; i < page.links.length; i++) {
    const link = page.links[i]!;
    const nofollow = link.rel.includes('nofollow');
    const template = isTemplate?.(link, i);
    const seen = byTarget.get(link.url);
    if (seen === undefined) {
      const edge: LinkEdge = { from: page.url, to: link.url, text: link.text, nofollow };
      if (template !== undefined) edge.template = template;
      byTarget.set(link.url, edge);
    } else {
      // A target linked from the content too is a content link, with the content's anchor text.
      if (seen.template === true && template === false) {
        seen.template = false;
        if (link.text !== '') seen.text = link.text;
      }
      if (seen.text === '') seen.text = link.text;
      seen.nofollow &&= nofollow;
    }
  }
  return [...byTarget.values()];
}

/**
 * A page's links as parallel arrays instead of one object per link: how they are stored
 * (shared/store/page-codec.ts) and how they cross between threads (crawler/analysis-wire.ts). A page has
 * 50-300 links, and per-link objects were most of the bytes and of the copying work.
 */
export interface PackedLinks {
  url: string[];
  text: string[];
  /** rel tokens joined by spaces; left out when no link has any. */
  rel?: string[];
  /** left out when every link is an `a`. */
  kind?: OutLink['kind'][];
  /** Each link's block (OutLink.block), -1 for none; left out when no link has one. */
  block?: number[];
}

export function packLinks(links: readonly OutLink[]): PackedLinks {
  const packed: PackedLinks = { url: new Array<string>(links.length), text: new Array<string>(links.length) };
  let anyRel = false;
  let allA = true;
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    packed.url[i] = l.url;
    packed.text[i] = l.text;
    if (l.rel.length > 0) anyRel = true;
    if (l.kind !== 'a') allA = false;
  }
  if (anyRel) packed.rel = links.map((l) => l.rel.join(' '));
  if (!allA) packed.kind = links.map((l) => l.kind);
  if (links.some((l) => l.block !== undefined)) packed.block = links.map((l) => l.block ?? -1);
  return packed;
}

export function unpackLinks(packed: PackedLinks): OutLink[] {
  const links = new Array<OutLink>(packed.url.length);
  for (let i = 0; i < links.length; i++) {
    const rel = packed.rel?.[i] ?? '';
    links[i] = { url: packed.url[i]!, text: packed.text[i]!, rel: rel === '' ? [] : rel.split(' '), kind: packed.kind?.[i] ?? 'a' };
    const block = packed.block?.[i] ?? -1;
    if (block >= 0) links[i]!.block = block;
  }
  return links;
}
