// Site templates: the text blocks and links a host repeats on many of its pages (navigation, headers,
// footers, sidebars), found by counting block fingerprints per host. Pure. DESIGN.md "Site templates"
// gives the method and the thresholds' reasons.
//
// A block is the text between two block-level element boundaries, as the crawler kept it
// (PageRecord.blockEnds). Each block's fingerprint (a hash of its text) is counted once per page, per
// host; a block is template on a host when it is on at least max(minPages, minShare * pages of the host)
// of them, and only on hosts with at least minHostPages pages that have blocks (on a small site every
// block would look shared). A run of blocks that are each one link's text, with template on both sides,
// is template too: a sidebar listing a section's pages repeats on that section's
// pages only, too few for the count, but sits inside the template that does repeat. A link is template
// when its block is, or when the same target with the same anchor text is on as many of the host's pages.
// Pages stored before blocks were kept have no block information: their text and links stay as they are.

import type { OutLink, PageRecord } from '../shared/store/index.js';
import { hostOf } from '../shared/url.js';

/** Defaults: DEFAULT_TEMPLATE_OPTIONS. */
export interface TemplateOptions {
  /** Share of a host's pages a block must be on to be template. */
  minShare: number;
  /** Fewest pages a block must be on to be template, however large the host. */
  minPages: number;
  /** Hosts with fewer pages (with block information) get no template detection. */
  minHostPages: number;
}

export const DEFAULT_TEMPLATE_OPTIONS: Readonly<TemplateOptions> = { minShare: 0.05, minPages: 8, minHostPages: 20 };

/** What is template on a page. */
export interface PageTemplate {
  /** Per block of the page (blockEnds order), whether it is template. */
  blocks: boolean[];
  /** The page's text without its template blocks (blocks joined by one space). */
  contentText: string;
  /** Whether a link of this page is template. */
  isTemplateLink: (link: OutLink) => boolean;
}

/** The template of a set of pages: per page URL, undefined for pages without block information. */
export interface SiteTemplates {
  of(page: PageRecord): PageTemplate | undefined;
  /** Blocks found template, per host (distinct fingerprints), for the build's report and tests. */
  templateBlocksByHost: Map<string, number>;
}

/** The blocks of a page's text; [] when it has no block information. */
export function blockTexts(page: Pick<PageRecord, 'text' | 'blockEnds'>): string[] {
  const ends = page.blockEnds;
  if (ends === undefined) return [];
  const blocks: string[] = [];
  let start = 0;
  for (const end of ends) {
    blocks.push(page.text.slice(start, end));
    start = end + 1; // blocks are joined by one space
  }
  return blocks;
}

/** A 52-bit fingerprint of a string (two FNV-1a hashes): a number, so a host's counts are a Map of numbers. */
export function fingerprint(s: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

function linkKey(link: OutLink): number {
  return fingerprint(`${link.url}\u0000${link.text}`);
}

/** Counts block and link fingerprints per host over `pages` (indexed pages of any hosts) and returns what is template. */
export function detectTemplates(pages: Iterable<PageRecord>, options: Partial<TemplateOptions> = {}): SiteTemplates {
  const opts = { ...DEFAULT_TEMPLATE_OPTIONS, ...options };
  const hosts = new Map<string, { pages: number; blocks: Map<number, number>; links: Map<number, number> }>();
  for (const page of pages) {
    if (page.blockEnds === undefined) continue;
    const host = hostOf(page.url);
    let h = hosts.get(host);
    if (!h) hosts.set(host, (h = { pages: 0, blocks: new Map(), links: new Map() }));
    h.pages++;
    countOnce(h.blocks, blockTexts(page).map(fingerprint));
    countOnce(h.links, page.links.map(linkKey));
  }
  const threshold = new Map<string, number>();
  const templateBlocksByHost = new Map<string, number>();
  for (const [host, h] of hosts) {
    if (h.pages < opts.minHostPages) continue;
    const min = Math.max(opts.minPages, opts.minShare * h.pages);
    threshold.set(host, min);
    let n = 0;
    for (const c of h.blocks.values()) if (c >= min) n++;
    templateBlocksByHost.set(host, n);
  }
  return {
    templateBlocksByHost,
    of(page) {
      if (page.blockEnds === undefined) return undefined;
      const host = hostOf(page.url);
      const min = threshold.get(host);
      const h = hosts.get(host);
      const texts = blockTexts(page);
      if (min === undefined || h === undefined) return { blocks: texts.map(() => false), contentText: page.text, isTemplateLink: () => false };
      const blocks = texts.map((t) => (h.blocks.get(fingerprint(t)) ?? 0) >= min);
      markLinkRuns(blocks, texts, page.links);
      const contentText = texts.filter((_, i) => !blocks[i]).join(' ');
      return {
        blocks,
        contentText,
        isTemplateLink: (link) => (link.block !== undefined && blocks[link.block] === true) || (h.links.get(linkKey(link)) ?? 0) >= min,
      };
    },
  };
}

function countOnce(counts: Map<number, number>, keys: number[]): void {
  for (const k of new Set(keys)) counts.set(k, (counts.get(k) ?? 0) + 1);
}

/** Marks runs of link-only blocks that have template on both sides. */
function markLinkRuns(blocks: boolean[], texts: string[], links: readonly OutLink[]): void {
  const linkOnly = new Array<boolean>(blocks.length).fill(false);
  for (const l of links) if (l.block !== undefined && l.block < texts.length && texts[l.block] === l.text) linkOnly[l.block] = true;
  let i = 0;
  while (i < blocks.length) {
    if (blocks[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < blocks.length && !blocks[j] && linkOnly[j]) j++;
    // [i, j) are link-only content blocks; a run ended by a block that is neither stays content.
    if (j > i && i > 0 && blocks[i - 1] === true && j < blocks.length && blocks[j] === true) for (let k = i; k < j; k++) blocks[k] = true;
    i = Math.max(j, i + 1);
  }
}
