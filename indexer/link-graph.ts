// The link graph, from the store's edges to per-page counts and anchor texts. Pure.
// (PageRank was computed here until it measured no better than the link count: web/search/rank.ts.)
//
// Counting rules: an edge counts once per (linking page, target page) pair, after both ends are resolved
// to the page that is indexed for them (a redirect counts for its target, a duplicate for its original);
// self-links (after resolution) and nofollow links never count; pages whose META robots says nofollow
// give no links.
//
// Anchor texts: each distinct text a linking page's content gives the target (a reference page is linked
// at its parts, "coalesce()" and "like()" to one page of functions), except that a text the site's
// template repeats is one editorial
// choice, not many votes. When pages link to a target only from their template (a sidebar listing
// every chapter of a book), the same text from n of them counts templateAnchorCopies(n) times:
// rust-by-example's sidebar otherwise gave each of its 195 pages 195 copies of its own title as link
// text, which outranked the reference page that defines what the query names (DESIGN.md "Site
// templates"). Content links keep one text each.

import { constants as bufferConstants } from 'node:buffer';
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
  /** The anchor texts of the linking pages: each distinct text of a page's content links here, a page
   * that links here from its template only with its texts joined and counted as templateAnchorCopies
   * says; content links' texts first; at most `maxAnchors`. */
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

/** How many times a text n pages link with from their template alone counts: 1 + floor(log2 n), so 1
 * for one page, 2 for 2-3, 8 for 195. Once (1) lost Python docs queries that a sidebar entry answered;
 * every copy (n) let a book's sidebar outweigh a reference page (DESIGN.md "Site templates"). */
export const templateAnchorCopies = (n: number): number => (n <= 0 ? 0 : Math.ceil(Math.log2(n + 1)));

/** Edges held at the start when the caller gives no bound; the arrays double as they fill. */
const INITIAL_EDGES = 1024;

/**
 * Counts inbound links, given as each linking page's edges. `resolve` maps a URL to the page that stands for it in the index (or to
 * undefined when the URL led nowhere indexable: gone, error, never fetched); a source that does not
 * resolve still counts as a linking page under its own URL, e.g. a noindex page that links.
 *
 * The edges are held as numbers, 17 bytes each (target, source, anchor text and whether it is a content
 * link, as URL and text numbers), then grouped by target with a counting sort that keeps their order,
 * and each target's sources are gathered one target at a time. A map of sources per target, one entry
 * per (target, source) pair, held every pair at once: about 90 bytes a pair, most of the memory of
 * counting links on a large crawl (DESIGN.md "The indexer holds links lightly"). `edgesAtMost`: a bound
 * on the edges to come (0: none known), the room made for them at the start.
 */
export function buildLinkGraph(
  pages: Iterable<readonly GraphEdge[]>,
  resolve: (url: string) => string | undefined,
  maxAnchors: number,
  edgesAtMost = 0,
): LinkGraph {
  const urls = numbering();
  const texts = numbering();
  // Sized once when the caller knows a bound (its pages' links): grown by doubling, the outgrown
  // arrays waited for the collector, and counting a million pages' links peaked at 16.2 GB of RSS
  // instead of 9.3 (DESIGN.md "A million pages, built again"). Memory never written to is never
  // touched, so a loose bound costs none.
  const room = edgesAtMost > 0 ? Math.min(edgesAtMost, bufferConstants.MAX_LENGTH) : INITIAL_EDGES;
  let to = new Int32Array(room);
  let from = new Int32Array(room);
  let text = new Int32Array(room);
  let content = new Uint8Array(room);
  let count = 0;
  // Targets in the order they were first linked: the order of `byTarget`.
  const targets: number[] = [];
  let isTarget = new Uint8Array(INITIAL_EDGES);
  for (const edges of pages) {
    for (const edge of edges) {
      if (edge.nofollow) continue;
      const target = resolve(edge.to);
      if (target === undefined) continue;
      const source = resolve(edge.from) ?? edge.from;
      if (source === target) continue;
      if (count === to.length) [to, from, text, content] = [grown(to), grown(from), grown(text), grown(content)];
      const t = urls.number(target);
      to[count] = t;
      from[count] = urls.number(source);
      text[count] = texts.number(edge.text.trim());
      content[count] = edge.template === true ? 0 : 1;
      count++;
      while (isTarget.length < urls.values.length) isTarget = grown(isTarget);
      if (isTarget[t] === 0) {
        isTarget[t] = 1;
        targets.push(t);
      }
    }
  }
  urls.forget();
  texts.forget();
  const { values: urlOf } = urls;
  const { values: textOf } = texts;
  // Edge numbers grouped by target, each target's in the order they came.
  const starts = new Int32Array(urlOf.length + 1);
  for (let i = 0; i < count; i++) starts[to[i]! + 1]!++;
  for (let u = 0; u < urlOf.length; u++) starts[u + 1]! += starts[u]!;
  const next = starts.slice(0, urlOf.length);
  const grouped = new Int32Array(count);
  for (let i = 0; i < count; i++) grouped[next[to[i]!]!++] = i;

  // Each linking page's host, by number, found once per page rather than once per edge (a URL parse
  // each: 0.4 s of the Rust docs' build thread); a host is counted once per target by its stamp.
  const hostNumbers = numbering();
  const hostOfUrl = new Int32Array(urlOf.length).fill(-1);
  const hostStamp = new Int32Array(urlOf.length).fill(-1);
  const byTarget = new Map<string, PageLinks>();
  let edgeCount = 0;
  // A target's texts from pages that link to it from their template only, with how many such pages.
  const templateTexts = new Map<string, number>();
  for (const t of targets) {
    // source -> its texts: one string while there is one ('' for none), an array when more.
    const bySource = new Map<number, string | string[]>();
    const contentSources = new Set<number>();
    for (let k = starts[t]!; k < starts[t + 1]!; k++) {
      const i = grouped[k]!;
      const f = from[i]!;
      if (content[i] === 1) contentSources.add(f);
      const said = bySource.get(f);
      const linkText = textOf[text[i]!]!;
      if (said === undefined || said === '') bySource.set(f, linkText);
      else if (linkText === '' || linkText === said) continue;
      else if (typeof said === 'string') bySource.set(f, [said, linkText]);
      else if (!said.includes(linkText)) said.push(linkText);
    }
    let hosts = 0;
    const anchors: string[] = [];
    for (const [f, said] of bySource) {
      edgeCount++;
      let h = hostOfUrl[f]!;
      if (h < 0) hostOfUrl[f] = h = hostNumbers.number(safeHost(urlOf[f]!));
      if (hostStamp[h] !== t) {
        hostStamp[h] = t;
        hosts++;
      }
      if (said.length === 0) continue;
      if (contentSources.has(f)) {
        // Each text a page links here with from its content is an anchor of its own (a phrase or word
        // pair does not run from one into the next), counted once per page (shared/store links.ts).
        if (typeof said === 'string') {
          if (anchors.length < maxAnchors) anchors.push(said);
        } else for (const t of said) if (anchors.length < maxAnchors) anchors.push(t);
        continue;
      }
      const saidText = typeof said === 'string' ? said : said.join(' ');
      templateTexts.set(saidText, (templateTexts.get(saidText) ?? 0) + 1);
    }
    for (const [saidText, n] of templateTexts) {
      for (let c = templateAnchorCopies(n); c > 0 && anchors.length < maxAnchors; c--) anchors.push(saidText);
    }
    templateTexts.clear();
    byTarget.set(urlOf[t]!, { inbound: bySource.size, inboundHosts: hosts, anchors, contentInbound: contentSources.size });
  }
  return { byTarget, edgeCount };
}

/** Numbers strings in the order first seen; `forget` lets go of the lookup, keeping `values`. */
function numbering(): { number(s: string): number; values: string[]; forget(): void } {
  const numbers = new Map<string, number>();
  const values: string[] = [];
  return {
    number(s) {
      let n = numbers.get(s);
      if (n === undefined) numbers.set(s, (n = values.push(s) - 1));
      return n;
    },
    values,
    forget: () => numbers.clear(),
  };
}

function grown<T extends Int32Array | Uint8Array>(a: T): T {
  const b = new (a.constructor as new (length: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

function safeHost(url: string): string {
  try {
    return hostOf(url);
  } catch {
    return url;
  }
}
