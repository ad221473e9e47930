// A page's link edges: what the link graph (inbound counts, anchor text) is built from.
// The store keeps each page's links inside its record, written in the same put as the page, so a
// page and its edges can never disagree and a recrawl replaces both at once. Pure.

import type { LinkEdge, OutLink, PageRecord } from './types.js';

/** Distinct anchor texts one page gives one target from its content (the first ones). */
export const MAX_TEXTS_PER_TARGET = 16;

/**
 * The edges a stored page contributes: only a page fetched as `ok` links anywhere. One edge per target
 * and distinct anchor text: a page that links to the same URL from its menu and its text links once
 * with the content's text, and the edge is followed if any of those links is. A page that links to one
 * target with several texts from its content gives each (up to MAX_TEXTS_PER_TARGET), as separate
 * edges the link graph counts as one linking page: a reference page is linked at its parts
 * (`lang_corefunc.html#coalesce` "coalesce()", `#like` "like()"), and only the first text was kept, so
 * a function's name reached its page from almost no anchor. Template links give their first text only:
 * a menu repeats on every page. With `isTemplate`, an edge is a template edge when all of the page's
 * links to its target are template links (`isTemplate` is given each link and its index).
 */
export function linkEdgesOf(page: Pick<PageRecord, 'url' | 'state' | 'links'>, isTemplate?: (link: OutLink, index: number) => boolean): LinkEdge[] {
  if (page.state !== 'ok') return [];
  const byTarget = new Map<string, { edge: LinkEdge; texts: string[] }>();
  for (let i = 0; i < page.links.length; i++) {
    const link = page.links[i]!;
    const nofollow = link.rel.includes('nofollow');
    const template = isTemplate?.(link, i);
    const seen = byTarget.get(link.url);
    if (seen === undefined) {
      const edge: LinkEdge = { from: page.url, to: link.url, text: link.text, nofollow };
      if (template !== undefined) edge.template = template;
      byTarget.set(link.url, { edge, texts: link.text === '' ? [] : [link.text] });
      continue;
    }
    const { edge, texts } = seen;
    edge.nofollow &&= nofollow;
    // A target linked from the content too is a content link, with the content's anchor texts.
    if (edge.template === true && template === false) {
      edge.template = false;
      if (link.text !== '') texts.length = 0;
    }
    if (link.text === '' || texts.includes(link.text)) continue;
    if (texts.length === 0 || (edge.template !== true && template !== true && texts.length < MAX_TEXTS_PER_TARGET)) texts.push(link.text);
  }
  const edges: LinkEdge[] = [];
  for (const { edge, texts } of byTarget.values()) {
    if (texts.length === 0) {
      edges.push(edge);
      continue;
    }
    for (const text of texts) edges.push({ ...edge, text });
  }
  return edges;
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
