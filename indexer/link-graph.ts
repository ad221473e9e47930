// The link graph, from the store's edges to per-page counts, anchor texts and PageRank. Pure.
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
}

export interface PageLinks {
  /** Distinct linking pages. */
  inbound: number;
  /** Distinct hosts among the linking pages. */
  inboundHosts: number;
  /** One anchor text per linking page (its texts for this target joined), at most `maxAnchors`. */
  anchors: string[];
}

export interface LinkGraph {
  /** Resolved targets to their inbound figures; a page no one links to is absent. */
  byTarget: Map<string, PageLinks>;
  /** Distinct counted edges, resolved: what PageRank walks. */
  edges: [from: string, to: string][];
}

/**
 * Counts inbound links. `resolve` maps a URL to the page that stands for it in the index (or to
 * undefined when the URL led nowhere indexable: gone, error, never fetched); a source that does not
 * resolve still counts as a linking page under its own URL, e.g. a noindex page that links.
 */
export function buildLinkGraph(edges: Iterable<GraphEdge>, resolve: (url: string) => string | undefined, maxAnchors: number): LinkGraph {
  // target -> source -> texts
  const sources = new Map<string, Map<string, string[]>>();
  for (const edge of edges) {
    if (edge.nofollow) continue;
    const to = resolve(edge.to);
    if (to === undefined) continue;
    const from = resolve(edge.from) ?? edge.from;
    if (from === to) continue;
    let bySource = sources.get(to);
    if (!bySource) sources.set(to, (bySource = new Map()));
    const texts = bySource.get(from);
    const text = edge.text.trim();
    if (!texts) bySource.set(from, text === '' ? [] : [text]);
    else if (text !== '' && !texts.includes(text)) texts.push(text);
  }
  const byTarget = new Map<string, PageLinks>();
  const counted: [string, string][] = [];
  for (const [to, bySource] of sources) {
    const hosts = new Set<string>();
    const anchors: string[] = [];
    for (const [from, texts] of bySource) {
      counted.push([from, to]);
      hosts.add(safeHost(from));
      if (texts.length > 0 && anchors.length < maxAnchors) anchors.push(texts.join(' '));
    }
    byTarget.set(to, { inbound: bySource.size, inboundHosts: hosts.size, anchors });
  }
  return { byTarget, edges: counted };
}

function safeHost(url: string): string {
  try {
    return hostOf(url);
  } catch {
    return url;
  }
}

export interface PageRankOptions {
  damping: number;
  /** Stop when the L1 change of the rank vector in one iteration is below this. */
  tolerance: number;
  maxIterations: number;
}

export interface PageRankResult {
  rank: Map<string, number>;
  iterations: number;
  /** L1 change of the last iteration: below `tolerance` unless `maxIterations` was reached. */
  delta: number;
}

/**
 * PageRank by power iteration over `nodes` and the distinct `edges` between them (edges touching other
 * URLs are ignored). A dangling page (no counted out-links) spreads its rank evenly over all pages, so
 * the ranks always sum to 1. Every page gets the teleport share (1 - d) / N.
 */
export function pageRank(nodes: readonly string[], edges: readonly (readonly [string, string])[], options: PageRankOptions): PageRankResult {
  const n = nodes.length;
  const rank = new Map<string, number>();
  if (n === 0) return { rank, iterations: 0, delta: 0 };
  const id = new Map<string, number>();
  nodes.forEach((url, i) => id.set(url, i));
  const outDegree = new Uint32Array(n);
  const pairs: number[] = [];
  const seen = new Set<number>();
  for (const [from, to] of edges) {
    const a = id.get(from);
    const b = id.get(to);
    if (a === undefined || b === undefined || a === b) continue;
    const key = a * n + b; // exact below 2^53, i.e. for up to ~90 million pages
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push(a, b);
    outDegree[a]!++;
  }
  const d = options.damping;
  let current = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  let iterations = 0;
  let delta = Infinity;
  while (iterations < options.maxIterations && delta >= options.tolerance) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outDegree[i] === 0) dangling += current[i]!;
    next.fill((1 - d) / n + (d * dangling) / n);
    for (let k = 0; k < pairs.length; k += 2) {
      const a = pairs[k]!;
      next[pairs[k + 1]!]! += (d * current[a]!) / outDegree[a]!;
    }
    delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(next[i]! - current[i]!);
    [current, next] = [next, current];
    iterations++;
  }
  nodes.forEach((url, i) => rank.set(url, current[i]!));
  return { rank, iterations, delta };
}
