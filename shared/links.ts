// A page's link edges: what the link graph (inbound counts, anchor text, PageRank) is built from.
// The store keeps each page's links inside its record, written in the same put as the page, so a
// page and its edges can never disagree and a recrawl replaces both at once. Pure.

import type { LinkEdge, PageRecord } from './types.js';

/**
 * The edges a stored page contributes: only a page fetched as `ok` links anywhere. One edge per target:
 * a page that links to the same URL from its menu and its text links once, with the first non-empty
 * anchor text, and the edge is followed if any of those links is.
 */
export function linkEdgesOf(page: PageRecord): LinkEdge[] {
  if (page.state !== 'ok') return [];
  const byTarget = new Map<string, LinkEdge>();
  for (const link of page.links) {
    const nofollow = link.rel.includes('nofollow');
    const seen = byTarget.get(link.url);
    if (seen === undefined) byTarget.set(link.url, { from: page.url, to: link.url, text: link.text, nofollow });
    else {
      if (seen.text === '') seen.text = link.text;
      seen.nofollow &&= nofollow;
    }
  }
  return [...byTarget.values()];
}
