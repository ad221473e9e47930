// Site templates: the text blocks and links a host repeats on many of its pages (navigation, headers,
// footers, sidebars), found by counting block fingerprints per host. Pure. DESIGN.md "Site templates"
// gives the method and the thresholds' reasons.
//
// A block is the text between two block-level element boundaries, as the crawler kept it
// (PageRecord.blockEnds). Each block's fingerprint (a hash of its text) is counted once per page, per
// host; a block is template on a host when it is on at least max(minPages, minShare * pages of the host)
// of them, and only on hosts with at least minHostPages pages that have blocks (on a small site every
// block would look shared). Walking in from either end of a page, a short block next to template is
// template too (markHeaderAndFooter): a header naming the page's chapter repeats on that chapter's
// pages only, too few for the count. (Runs of link-only blocks between template, to catch sidebars, were
// tried and dropped: they took a chapter's whole table of contents, which sits between its "Table of
// Contents" heading and the footer; so were short blocks between template anywhere: they took one-line
// code examples between Rust's "Examples" and "Run".) From the start, the walk also goes through link
// blocks (PageRecord.linkBlocks) that end before the page's first section: a page's own contents list
// and breadcrumb; a chapter's table of contents comes after its heading and stays. A link is template
// when its block is, or when the same target with the same anchor text is on as many of the host's pages.
// Pages stored before blocks were kept have no block information: their text and links stay as they are.

import type { OutLink, PackedLinks, PageRecord } from '../shared/store/index.js';
import { hostOf } from '../shared/url.js';
import { FingerprintCounts } from './fingerprint-counts.js';

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
  return fingerprintOf(s);
}

/** The fingerprint of `first`, or of `first` and `second` joined by NUL, without building the joined
 * string (a link's URL and anchor text: 1.6 million links on the Rust docs, each a string made only
 * to be hashed) or an array of the two. */
function fingerprintOf(first: string, second?: string): number {
  const length = second === undefined ? first.length : first.length + 1 + second.length;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ length;
  for (let i = 0; i < first.length; i++) {
    const c = first.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  if (second !== undefined) {
    a = Math.imul(a, 0x01000193); // a NUL between the two: c = 0
    b = Math.imul(b, 0x5bd1e995);
    for (let i = 0; i < second.length; i++) {
      const c = second.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

function linkKey(link: Pick<OutLink, 'url' | 'text'>): number {
  return fingerprintOf(link.url, link.text);
}

/** Each link's linkKey, from links as objects or packed (as the index build reads them). */
function linkKeysOf(links: readonly OutLink[] | PackedLinks): Float64Array {
  if (!('url' in links)) return Float64Array.from(links, linkKey);
  const keys = new Float64Array(links.url.length);
  for (let i = 0; i < keys.length; i++) keys[i] = fingerprintOf(links.url[i]!, links.text[i]);
  return keys;
}

/** PageBlocks.shape bits: what the header and footer walk reads of a block's text. */
const SHAPE_INNER = 1; // short enough to be taken between template neighbours, and not the page's description
const SHAPE_LEADING_LINK = 2; // a link block before the page's first section (leadingLinkBlock)
const SHAPE_HEADING = 4; // the text of one of the page's headings
const SHAPE_LINK = 8; // nearly all link text (PageRecord.linkBlocks)
const SHAPE_OWN_ENTRY = 16; // a link block whose text is one of the page's own headings (ownContents)
const SHAPE_SECTION = 32; // a section (not a definition term) starts in it (sectionStartBlocks)

/**
 * What template detection keeps of a page, made once while its text is at hand (pageBlocksOf): the
 * index build holds this between its two reads of the store instead of the page's text (10.7 KB a
 * Rust docs page while read, of which the text is 4.4 KB). A block's text is known by its fingerprint.
 */
export interface PageBlocks {
  url: string;
  /** Per block (blockEnds order): the fingerprint of its text. */
  prints: Float64Array;
  /** Per block: SHAPE_* bits. */
  shape: Uint8Array;
  /** Per link of the page, in order: the fingerprint of its URL and anchor text. */
  links: Float64Array;
}

/** What blockShapesOf reads of a page: its text and what it says of its blocks, not its links. */
export type ShapedPage = Pick<PageRecord, 'text' | 'blockEnds' | 'linkBlocks' | 'sections' | 'description' | 'headings'>;

/** What pageBlocksOf reads of a page. */
export type BlockedPage = ShapedPage & Pick<PageRecord, 'url'> & { links: readonly OutLink[] | PackedLinks };

/** The part of a page's summary its text gives (PageBlocks' prints and shape). */
export type BlockShapes = Pick<PageBlocks, 'prints' | 'shape'>;

/** A page's block summary; undefined for a page stored before blocks were kept. */
export function pageBlocksOf(page: BlockedPage): PageBlocks | undefined {
  const shapes = blockShapesOf(page);
  return shapes === undefined ? undefined : pageBlocksFrom(page.url, shapes, page.links);
}

/** A page's summary from its block shapes (blockShapesOf, made where the text was) and its links. */
export function pageBlocksFrom(url: string, shapes: BlockShapes, links: readonly OutLink[] | PackedLinks): PageBlocks {
  return { url, prints: shapes.prints, shape: shapes.shape, links: linkKeysOf(links) };
}

/** The fingerprints and shape bits of a page's blocks, undefined for a page stored before blocks were
 * kept: most of what pageBlocksOf costs, from the text alone, so the index build makes it on other
 * threads (indexer/block-thread.ts) while its own reads the store. */
export function blockShapesOf(page: ShapedPage): BlockShapes | undefined {
  if (page.blockEnds === undefined) return undefined;
  const texts = blockTexts(page);
  const described = describedBy(page.description);
  const leadingLink = leadingLinkBlock(page);
  const sectionStarts = sectionStartBlocks(page);
  const headings = new Set(page.headings.filter((h) => h.length <= MAX_HEADING_CHARS).map(bare));
  // Its headings and its sections' (h4 too), but not its definition terms: a contents list names sections.
  const own = new Set([...headings, ...(page.sections ?? []).filter((s) => s.term !== true && s.heading.length <= MAX_HEADING_CHARS).map((s) => bare(s.heading))]);
  own.delete('');
  const links = new Set(page.linkBlocks);
  // A block can equal a heading only if its bare() is as long as one's: most blocks are told apart by
  // that count (bareLength), without making their bare() (a third of reading the store for a build).
  const lengths = new Set<number>();
  for (const h of headings) lengths.add(h.length);
  for (const h of own) lengths.add(h.length);
  const shape = new Uint8Array(texts.length);
  texts.forEach((t, k) => {
    if (t.length <= MAX_INNER_CHARS && !described(t)) shape[k]! |= SHAPE_INNER;
    if (leadingLink(k)) shape[k]! |= SHAPE_LEADING_LINK;
    const isLink = links.has(k);
    if (isLink) shape[k]! |= SHAPE_LINK;
    if (t.length <= MAX_HEADING_CHARS && lengths.size > 0) {
      const n = bareLength(t);
      if (n < 0 || lengths.has(n)) {
        const b = bare(t);
        if (headings.has(b)) shape[k]! |= SHAPE_HEADING;
        if (isLink && own.has(b)) shape[k]! |= SHAPE_OWN_ENTRY;
      }
    }
    if (sectionStarts.has(k)) shape[k]! |= SHAPE_SECTION;
  });
  return { prints: Float64Array.from(texts, fingerprint), shape };
}

/** The template blocks of a set of pages, counted from their block summaries. */
export interface BlockTemplates {
  /** Per block of the page, whether it is template. */
  blocks(page: PageBlocks): boolean[];
  /** Whether a link of the page at `url` is template, given the page's template blocks (1 for template):
   * the index build keeps those, a byte a block, instead of the page's summary once counted. */
  linkTest(url: string, blocks: Uint8Array): (link: OutLink) => boolean;
  /** linkTest for the links of the page `page` summarises, each known by its index in the page's links:
   * the summary already holds their fingerprints, which the index build hashed a second time per link
   * (1.6 million over the Rust docs, 1 s of its thread while the other core idled). */
  pageLinkTest(page: PageBlocks, blocks: Uint8Array): (link: OutLink, index: number) => boolean;
  /** Blocks found template, per host (distinct fingerprints), for the build's report and tests. */
  templateBlocksByHost: Map<string, number>;
}

/** Counts block and link fingerprints per host over `pages` (indexed pages of any hosts) and returns what is template. */
export function countTemplates(pages: Iterable<PageBlocks>, options: Partial<TemplateOptions> = {}): BlockTemplates {
  const opts = { ...DEFAULT_TEMPLATE_OPTIONS, ...options };
  const hosts = new Map<string, { pages: number; blocks: FingerprintCounts; links: FingerprintCounts }>();
  for (const page of pages) {
    const host = hostOf(page.url);
    let h = hosts.get(host);
    if (!h) hosts.set(host, (h = { pages: 0, blocks: new FingerprintCounts(), links: new FingerprintCounts() }));
    h.pages++;
    h.blocks.addPage(page.prints);
    h.links.addPage(page.links);
  }
  const threshold = new Map<string, number>();
  const templateBlocksByHost = new Map<string, number>();
  for (const [host, h] of hosts) {
    if (h.pages < opts.minHostPages) {
      hosts.delete(host);
      continue;
    }
    const min = Math.max(opts.minPages, opts.minShare * h.pages);
    threshold.set(host, min);
    h.blocks = h.blocks.atLeast(min);
    h.links = h.links.atLeast(min);
    templateBlocksByHost.set(host, h.blocks.size);
  }
  // A link is template when its block is, or when its target and text (`key`) are on enough of the host's pages.
  const linkTestOn = (url: string, blocks: Uint8Array): ((link: OutLink, key: number) => boolean) => {
    const host = hostOf(url);
    const min = threshold.get(host);
    const h = hosts.get(host);
    if (min === undefined || h === undefined) return () => false;
    return (link, key) => (link.block !== undefined && blocks[link.block] === 1) || h.links.get(key) >= min;
  };
  return {
    templateBlocksByHost,
    blocks(page) {
      const host = hostOf(page.url);
      const min = threshold.get(host);
      const h = hosts.get(host);
      if (min === undefined || h === undefined) return Array.from(page.prints, () => false);
      const blocks = Array.from(page.prints, (f) => h.blocks.get(f) >= min);
      markHeaderAndFooter(blocks, page);
      return blocks;
    },
    linkTest(url, blocks) {
      const test = linkTestOn(url, blocks);
      return (link) => test(link, linkKey(link));
    },
    pageLinkTest(page, blocks) {
      const test = linkTestOn(page.url, blocks);
      return (link, index) => test(link, page.links[index]!);
    },
  };
}

/** Counts block and link fingerprints per host over `pages` and returns what is template, each page's
 * content text with it (countTemplates over the pages' summaries, for callers that hold the pages). */
export function detectTemplates(pages: Iterable<PageRecord>, options: Partial<TemplateOptions> = {}): SiteTemplates {
  // By URL, since the caller may hand `of` another copy of the page.
  const summaries = new Map<string, PageBlocks>();
  for (const page of pages) {
    const summary = pageBlocksOf(page);
    if (summary !== undefined) summaries.set(page.url, summary);
  }
  const counted = countTemplates(summaries.values(), options);
  return {
    templateBlocksByHost: counted.templateBlocksByHost,
    of(page) {
      const summary = page.blockEnds === undefined ? undefined : (summaries.get(page.url) ?? pageBlocksOf(page));
      if (summary === undefined) return undefined;
      const blocks = counted.blocks(summary);
      return { blocks, contentText: contentTextOf(page, blocks), isTemplateLink: counted.linkTest(page.url, Uint8Array.from(blocks, Number)) };
    },
  };
}

/** A page's text without the blocks marked template (PageTemplate.contentText), made again from its
 * blocks: the index build keeps a page's blocks between its passes, not a second copy of its text. */
export function contentTextOf(page: Pick<PageRecord, 'text' | 'blockEnds'>, blocks: readonly boolean[], texts = blockTexts(page)): string {
  return blocks.includes(true) ? texts.filter((_, i) => !blocks[i]).join(' ') : page.text;
}

/**
 * The page's headings less those that only its template blocks say: a sidebar widget's or a footer
 * column's title ("Subscribe to our newsletter", "Recent Posts", "Useful links") is a heading on every
 * page, and its words matched every page of the host in the headings field, in nearly equal order,
 * though the body and snippets had left it out. A heading that a block of the content says too stays.
 */
export function contentHeadings(headings: readonly string[], texts: readonly string[], blocks: readonly boolean[]): string[] {
  if (!blocks.includes(true)) return [...headings];
  const template = new Set<string>();
  const content = new Set<string>();
  texts.forEach((t, i) => (blocks[i] ? template : content).add(t));
  return headings.filter((h) => !template.has(h) || content.has(h));
}

/** Blocks longer than this are never made template by their neighbours. */
const MAX_INNER_CHARS = 80;
/** Longer blocks are not compared with the page's headings. */
const MAX_HEADING_CHARS = 200;

/**
 * Extends the page's header and footer: walking in from each end of the page, a short block is
 * template when the blocks on both its sides are. PostgreSQL's header "Prev | Up | Part VII. Internals |
 * Home | Next" names the chapter, which repeats only within the chapter, and its footer names the
 * neighbouring pages; the walk stops at the first block that is neither, so content stays (a code line
 * between two template "Examples" and "Run" blocks in the middle of a Rust page is not touched).
 * Nor is a block that says what the page's own description says: a short rustdoc page ends with its
 * one-line description after the template "Expand description" toggle, and the walk took it as footer.
 * Nor text between two template headings (but links): it is what they head.
 * From the start, the walk also goes through link blocks before the page's first section (leadingLinkBlock).
 */
function markHeaderAndFooter(blocks: boolean[], page: PageBlocks): void {
  const counted = [...blocks];
  const n = blocks.length;
  const { prints, shape } = page;
  const heading = (k: number): boolean => k >= 0 && k < n && (shape[k]! & SHAPE_HEADING) !== 0;
  // Text between two headings every page repeats is what they head, unless it is links: a man page's
  // one-line summary between NAME and SYNOPSIS, its synopsis before DESCRIPTION (asciidoc, groff), where
  // Sphinx's sidebar has a link to the next topic between "Next topic" and "This Page".
  // A heading that starts a section counts (gi-docgen's h4 "Declaration", "Description" around a
  // function's prototype), as do the page's h1-h3.
  const heads = (k: number): boolean => heading(k) || (k >= 0 && k < n && (shape[k]! & SHAPE_SECTION) !== 0);
  const headed = (k: number): boolean => heads(k - 1) && heads(k + 1) && (shape[k]! & SHAPE_LINK) === 0;
  const inner = (k: number): boolean => (shape[k]! & SHAPE_INNER) !== 0 && (k === 0 || blocks[k - 1] === true) && (k === n - 1 || blocks[k + 1] === true) && !headed(k);
  // A section whose heading the host repeats on every page (Node's banner "Node.js v18.20.4
  // documentation", an h1 inside the `<div id="column1">` that names it) has not begun the page's
  // content: the page's own contents list after it is still leading navigation, up to the first
  // section that starts in text of the page's own.
  const firstOwnSection = (() => {
    for (let k = 0; k < n; k++) if ((shape[k]! & SHAPE_SECTION) !== 0 && !counted[k]) return k;
    return -1;
  })();
  // A page without sections stops at its first own heading that is no link: a CMS's h1 has no id, and
  // a Drupal section's "In this section" menu (seven pages, below the count) and breadcrumb before it
  // were its snippets ("Expenses and Travel Policy Remote Working Policy …"). One without either keeps
  // its links (a hub page's list is its content).
  const stop = firstOwnSection >= 0 ? firstOwnSection : (() => {
    for (let k = 0; k < n; k++) if (heading(k) && !counted[k] && (shape[k]! & SHAPE_LINK) === 0) return k;
    return -1;
  })();
  const leading = (k: number): boolean => (shape[k]! & SHAPE_LEADING_LINK) !== 0 || ((shape[k]! & SHAPE_LINK) !== 0 && k < stop);
  for (let i = 0; i < n && (blocks[i] || inner(i) || leading(i)); i++) blocks[i] = true;
  for (let i = n - 1; i >= 0 && (blocks[i] || inner(i)); i--) blocks[i] = true;
  // A page whose content is one short block between header and footer keeps it.
  if (blocks.every(Boolean)) {
    blocks.splice(0, n, ...counted);
    return;
  }
  // Themes that print the same sidebar twice (Sphinx: one for narrow screens): its other copy is template
  // too (the same text, known by its fingerprint).
  const template = new Set(prints.filter((_, k) => blocks[k] && !counted[k]));
  // Not the heading the walk stopped at, which the page's own entry in that menu says too.
  for (let k = 0; k < n; k++) if (!blocks[k] && (k !== stop || firstOwnSection >= 0) && template.has(prints[k]!)) blocks[k] = true;
  ownContents(blocks, shape);
}

/** Fewest entries in a row that make a page's own contents list (ownContents). */
const MIN_OWN_CONTENTS = 3;

/**
 * A page's own contents list after its content: a run of at least MIN_OWN_CONTENTS link blocks, each
 * saying one of the page's own headings (SHAPE_OWN_ENTRY), with nothing after it but template and
 * other such runs, is template. No count finds it (no other page has it) and the walk from the start
 * only takes one before the first section, but Sphinx themes print "Table of Contents" in a sidebar
 * after the content (Django's and CMake's docs): the body held every heading twice, snippets opened on
 * "Sending email Quick example send_mail() send_mass_mail() …", and results linked to the sidebar's
 * "Table of Contents". Its entries are the headings the page has where they stand, so nothing is lost.
 * A contents list after the page's heading (CMake's `.. contents::`, the Git user manual's) stays: it is
 * read as the page's opening, and measured, taking it cost later answers on both sites.
 */
function ownContents(blocks: boolean[], shape: Uint8Array): void {
  const entry = (k: number): boolean => (shape[k]! & SHAPE_OWN_ENTRY) !== 0;
  const taken = new Set<number>();
  let k = blocks.length - 1;
  while (k >= 0) {
    if (blocks[k] && !entry(k)) {
      k--;
      continue;
    }
    // A run of entries, some maybe template already (CMake's sidebar names the page as its breadcrumb does).
    let from = k;
    while (from >= 0 && entry(from)) from--;
    const run = k - from;
    if (run >= MIN_OWN_CONTENTS) for (let i = from + 1; i <= k; i++) taken.add(i);
    else if (run === 0 || !blocks.slice(from + 1, k + 1).every(Boolean)) break;
    k = from;
  }
  // Not when nothing else would be left.
  if (taken.size === 0 || blocks.every((b, i) => b || taken.has(i))) return;
  for (const i of taken) blocks[i] = true;
}

/**
 * Whether block k is a link block (PageRecord.linkBlocks) that ends before the page's first section:
 * the walk from the header goes through such blocks. Before its first heading a page has navigation
 * of its own that no count finds, since no other page repeats it: Sphinx's contents of this page and
 * its previous and next topics, a breadcrumb ending in the page's parent. Python's gzip page opened
 * its snippet with "zlib — Compression compatible with gzip bz2 — Support for bzip2 compression Data
 * Compression and Archiving »". Pages without sections are left alone: with no heading to stop
 * at, a hub page's list of links is its content.
 */
function leadingLinkBlock(page: Pick<PageRecord, 'sections' | 'blockEnds' | 'linkBlocks'>): (k: number) => boolean {
  // A definition term (`<dt id>`) is no heading: a glossary's terms are its content.
  const first = page.sections?.find((s) => s.term !== true)?.start;
  const ends = page.blockEnds;
  if (first === undefined || ends === undefined || page.linkBlocks === undefined) return () => false;
  const links = new Set(page.linkBlocks);
  return (k) => ends[k]! <= first && links.has(k);
}

/** The blocks in which a section (not a definition term) starts. */
function sectionStartBlocks(page: Pick<PageRecord, 'sections' | 'blockEnds'>): Set<number> {
  const starts = new Set<number>();
  const ends = page.blockEnds;
  if (ends === undefined) return starts;
  let k = 0;
  for (const s of page.sections ?? []) {
    if (s.term === true) continue;
    while (k < ends.length && ends[k]! <= s.start) k++;
    if (k < ends.length) starts.add(k);
  }
  return starts;
}

/** Letters and digits only, lower-cased (makeBare), kept for the strings met lately (bareMade). */
function bare(s: string): string {
  let made = bareMade.get(s);
  if (made === undefined) {
    made = makeBare(s);
    if (bareMade.size >= BARE_MADE_MAX) bareMade.clear();
    bareMade.set(s, made);
  }
  return made;
}

/** bare() of the strings met lately: a site's pages repeat their headings ("Trait Implementations",
 * "Parameters"), and looking one up is cheaper than making it again. Cleared when full. */
const bareMade = new Map<string, string>();
const BARE_MADE_MAX = 65_536;

/** Letters and digits only, lower-cased: rustdoc's description keeps the Markdown ("`Debug`") that its
 * text renders ("Debug"). An ASCII text (nearly every block of an English site) is walked in a loop,
 * in half the time of the Unicode regex (880,033 blocks of the Rust docs: 1.2 s -> 0.53 s). */
function makeBare(s: string): string {
  const lower = s.toLowerCase();
  let out = '';
  let start = -1; // where the current run of letters and digits began
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c > 0x7f) return lower.replace(/[^\p{L}\p{N}]+/gu, '');
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out += lower.slice(start, i);
      start = -1;
    }
  }
  return start >= 0 ? out + lower.slice(start) : out;
}

/** The length bare(s) has, counted without making it; -1 when `s` has a character beyond ASCII (whose
 * lower case may differ in length, and which bare() reads by the Unicode regex). */
function bareLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    const lower = c | 0x20; // an ASCII capital as its small letter; no other character lands in a-z
    if ((lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39)) n++;
  }
  return n;
}

/**
 * Whether a block says what `description` says: it holds the description, or the description holds it
 * and it is at least half as long (a chapter's name inside a longer description is still a header).
 */
export function describedBy(description: string): (text: string) => boolean {
  const d = bare(description);
  if (d.length < MIN_DESCRIBED_CHARS) return () => false;
  // bare() only shortens: a text shorter than what either test needs of it is not worth the regex
  // (most blocks are; this was the largest cost of reading the store for an index build).
  const least = Math.max(MIN_DESCRIBED_CHARS, d.length / 2);
  return (text) => {
    if (text.length < least) return false;
    const n = bareLength(text);
    if (n >= 0 && n < least) return false;
    const t = bare(text);
    return t.length >= MIN_DESCRIBED_CHARS && (t.includes(d) || (d.includes(t) && 2 * t.length >= d.length));
  };
}

/** Descriptions (and blocks) shorter than this, in letters and digits, are not compared ("Home"). */
const MIN_DESCRIBED_CHARS = 20;

/**
 * Where `offset` of a page's text lands in its content text (template blocks left out, the others
 * joined by one space): inside a content block it keeps its place in that block; inside a template
 * block it moves to the start of the next content block; undefined when no content block follows.
 * Used to keep section starts (crawler/sections.ts) pointing at their headings once templates go.
 */
export function contentOffset(blockEnds: readonly number[], template: readonly boolean[], offset: number): number | undefined {
  return contentOffsets(blockEnds, template)(offset);
}

/** contentOffset for many offsets of one page: the blocks are walked once, then each offset finds its
 * block by binary search. A reference page has hundreds of sections over thousands of blocks, and a
 * walk per section was 5% of an index build's own thread. */
export function contentOffsets(blockEnds: readonly number[], template: readonly boolean[]): (offset: number) => number | undefined {
  const n = blockEnds.length;
  // Per block: where it starts in the content text when it is content, and the first content block
  // at or after it (n for none).
  const contentStart = new Float64Array(n);
  const nextContent = new Int32Array(n + 1).fill(n);
  let length = 0;
  let any = false;
  for (let i = 0; i < n; i++) {
    if (template[i] === true) continue;
    const start = i === 0 ? 0 : blockEnds[i - 1]! + 1;
    contentStart[i] = any ? length + 1 : 0;
    length = contentStart[i]! + (blockEnds[i]! - start);
    any = true;
  }
  for (let i = n - 1; i >= 0; i--) nextContent[i] = template[i] === true ? nextContent[i + 1]! : i;
  return (offset) => {
    // The first block ending after `offset`.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (blockEnds[mid]! > offset) hi = mid;
      else lo = mid + 1;
    }
    const j = nextContent[lo]!;
    if (j === n) return undefined;
    // Inside a content block it keeps its place; before it (in a template block, or the space between
    // two blocks) it moves to the content block's start.
    const start = j === 0 ? 0 : blockEnds[j - 1]! + 1;
    return contentStart[j]! + Math.max(0, offset - start);
  };
}
