// The link graph, from the store's edges to per-page counts and anchor texts. Pure.
// (PageRank was computed here until it measured no better than the link count: web/search/rank.ts.)
//
// Counting rules: an edge counts once per (linking page, target page) pair, after both ends are resolved
// to the page that is indexed for them (a redirect counts for its target, a duplicate for its original);
// self-links (after resolution) and nofollow links never count; pages whose META robots says nofollow
// give no links.

import { hostOf } from '../shared/url.js';

export interface GraphEdge {
  from: string;
  to: string;
  text: string;
  nofollow: boolean;
  /** A link of the site's template (indexer/templates.ts); absent when not known (counted as content). */
  template?: boolean;
}

export interface PageLinks {
  /** Distinct linking pages. */
  inbound: number;
  /** Distinct hosts among the linking pages. */
  inboundHosts: number;
  /** One anchor text per linking page (its texts for this target joined), at most `maxAnchors`. */
  anchors: string[];
  /** Distinct pages linking here from their content (not from their template). */
  contentInbound: number;
}

export interface LinkGraph {
  /** Resolved targets to their inbound figures; a page no one links to is absent. */
  byTarget: Map<string, PageLinks>;
  /** Distinct counted edges, resolved (linking page, target page). */
  edgeCount: number;
}

/**
 * Counts inbound links. `resolve` maps a URL to the page that stands for it in the index (or to
 * undefined when the URL led nowhere indexable: gone, error, never fetched); a source that does not
 * resolve still counts as a linking page under its own URL, e.g. a noindex page that links.
 */
export function buildLinkGraph(edges: Iterable<GraphEdge>, resolve: (url: string) => string | undefined, maxAnchors: number): LinkGraph {
  // target -> source -> its texts: one string while there is one ('' for none), an array when more. An
  // array per pair was the largest part of counting (millions of pairs on a large site, most with one text).
  const sources = new Map<string, Map<string, string | string[]>>();
  // target -> sources with a content link to it (not every link of theirs here is template)
  const contentSources = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.nofollow) continue;
    const to = resolve(edge.to);
    if (to === undefined) continue;
    const from = resolve(edge.from) ?? edge.from;
    if (from === to) continue;
    if (edge.template !== true) {
      let c = contentSources.get(to);
      if (!c) contentSources.set(to, (c = new Set<string>()));
      c.add(from);
    }
    let bySource = sources.get(to);
    if (!bySource) sources.set(to, (bySource = new Map<string, string | string[]>()));
    const texts = bySource.get(from);
    const text = edge.text.trim();
    if (texts === undefined || texts === '') bySource.set(from, text);
    else if (text === '' || text === texts) continue;
    else if (typeof texts === 'string') bySource.set(from, [texts, text]);
    else if (!texts.includes(text)) texts.push(text);
  }
  const byTarget = new Map<string, PageLinks>();
  let edgeCount = 0;
  for (const [to, bySource] of sources) {
    const hosts = new Set<string>();
    const anchors: string[] = [];
    const content = contentSources.get(to);
    let contentInbound = 0;
    for (const [from, texts] of bySource) {
      edgeCount++;
      hosts.add(safeHost(from));
      if (content?.has(from) === true) contentInbound++;
      // Template links keep their anchor texts: counting a repeated template anchor once measured worse
      // (Python docs success@1 .857 to .838, DESIGN.md "Site templates").
      if (texts.length > 0 && anchors.length < maxAnchors) anchors.push(typeof texts === 'string' ? texts : texts.join(' '));
    }
    byTarget.set(to, { inbound: bySource.size, inboundHosts: hosts.size, anchors, contentInbound });
  }
  return { byTarget, edgeCount };
}

function safeHost(url: string): string {
  try {
    return hostOf(url);
  } catch {
    return url;
  }
}
