// Reads the crawl store into documents to index: decides which pages are indexed (and which URL stands
// for which page) and counts links. The only indexer module that touches the store.

import type { StoredDoc } from '../shared/index-format/index.js';
import { linkEdgesOf, unpackLinks } from '../shared/store/index.js';
import type { Store } from '../shared/store/index.js';
import type { PackedLinks, PackedPage, PageRecord, PageSection } from '../shared/store/index.js';
import { recordedCanonicalizer } from '../shared/store/index.js';
import { canonicalizeUrl, hostOf } from '../shared/url.js';
import { DETECT_DEFAULTS, detectLanguage } from '../shared/analysis/index.js';
import type { DocumentSource, IndexDocument } from './build.js';
import { buildLinkGraph, type GraphEdge } from './link-graph.js';
import { hubShare, openingOf, type Opening } from './hub.js';
import { headingsWithSections } from './section-headings.js';
import { commonAffixes, pageTitle, stripAffixes } from './title-boilerplate.js';
import type { IndexerOptions } from './options.js';
import { blockTexts, contentHeadings, contentOffsets, contentTextOf, countTemplates, pageBlocksFrom, type PageBlocks } from './templates.js';
import { BlockShapeQueue } from './block-thread.js';
import { listingShare } from './listing.js';
import { DeployStamps, pageDateMs } from './page-date.js';
import { parentContext, type ContextPage } from './parent-context.js';

export interface StoreDocuments {
  /** Made on the second read of the store, as the build takes them: the store must stay open until then. */
  documents: DocumentSource;
  skipped: Record<string, number>;
}

/** Why a stored page is not indexed itself, or undefined when it is. */
export function skipReason(page: Pick<PageRecord, 'state' | 'robots'>): string | undefined {
  if (page.state !== 'ok') return page.state;
  if (!page.robots.index) return 'noindex';
  return undefined;
}

/** What deciding where a page's links and identity go reads of a page. */
export type RoutedPage = Pick<PageRecord, 'url' | 'finalUrl' | 'state' | 'robots' | 'canonical' | 'duplicateOf'>;

/** Where a page's links and identity go: a redirect to its target, a duplicate to its original, a page
 * naming another stored page as rel=canonical to that page. Pure; `pages` holds the store's pages,
 * `canonicalize` is the crawl's canonicalizer (recorded in the store), so targets match the stored keys. */
export function aliasTarget(page: RoutedPage, pages: ReadonlyMap<string, RoutedPage>, canonicalize: (url: string) => string | undefined = (u) => canonicalizeUrl(u)): string | undefined {
  if (page.state === 'redirect') return canonicalize(page.finalUrl);
  if (page.state === 'duplicate') return page.duplicateOf;
  if (page.state === 'ok' && page.canonical !== undefined && page.canonical !== page.url) {
    const target = pages.get(page.canonical);
    if (target?.state === 'ok' && target.robots.index) return page.canonical;
  }
  return undefined;
}

const MAX_ALIAS_HOPS = 5;

/**
 * Whether a page is left out for its rel=canonical: it names another indexable page, unless the names
 * go round (A names B and B names A, or longer rings). Each page of a ring then points away and all
 * were dropped, their text unfindable; as a search engine picks one page of conflicting canonicals, the
 * ring keeps one, its shortest URL (then the first in order), which names no other page. A page that
 * leads into a ring it is not part of still points away.
 */
export function canonicalElsewhere(page: RoutedPage, pages: ReadonlyMap<string, RoutedPage>, canonicalize?: (url: string) => string | undefined): boolean {
  const first = aliasTarget(page, pages, canonicalize);
  if (first === undefined) return false;
  const path = [page.url];
  let current: string | undefined = first;
  for (let hop = 0; hop <= MAX_ALIAS_HOPS && current !== undefined; hop++) {
    const at = path.indexOf(current);
    if (at >= 0) {
      const ring = path.slice(at);
      if (!ring.includes(page.url)) return true;
      const keeper = ring.reduce((a, b) => (b.length < a.length || (b.length === a.length && b < a) ? b : a));
      return keeper !== page.url;
    }
    path.push(current);
    const next = pages.get(current);
    current = next?.state === 'ok' ? aliasTarget(next, pages, canonicalize) : undefined;
  }
  return true;
}

/**
 * A stored page as the build holds it between its two reads of the store: what routes its links and
 * identity, its title, its links packed (one array of URLs and one of anchor texts, shared/store/links.ts,
 * each string shared by every page that repeats it; an object per link was more than half the memory of
 * reading the store, 227 of 404 MB on the Rust docs' 1.6 million links) and what template detection
 * keeps of it. Never its text: the documents are made on a second read of the store, and a page held
 * whole was 10.7 KB on the Rust docs, too much for a million pages.
 */
type HeldPage = RoutedPage & Pick<PageRecord, 'title' | 'up'> & {
  packed: PackedLinks;
  /** Its template summary, until the templates are counted (an indexed page's, until its edges are made). */
  blocks: PageBlocks | undefined;
  /** Then, per block, 1 when it is template (a byte a block, against 17 for the summary and 8 a link). */
  template: Uint8Array | undefined;
};

/** A page as held, its template summary (`blocks`) given later, once made (block-thread.ts). */
function heldPage(page: PackedPage, intern: (links: PackedLinks) => PackedLinks): HeldPage {
  const { url, finalUrl, state, robots, canonical, duplicateOf, up } = page;
  const title = pageTitle(page);
  // Every field set from the start, so every held page has one shape (a field added later, or
  // deleted, makes V8 give the object a shape of its own or a dictionary).
  return {
    url,
    finalUrl,
    state,
    robots,
    title,
    up,
    canonical,
    duplicateOf,
    // A duplicate's too: it is indexed, links and all, when its original no longer is (readStoreDocuments).
    packed: state === 'ok' || state === 'duplicate' ? intern(page.links) : NO_LINKS,
    blocks: undefined,
    template: undefined,
  };
}

/**
 * Reads the store twice. The first read keeps what deciding which pages are indexed, counting links and
 * finding templates needs (HeldPage), and each indexable page's opening, which the hub share looks for
 * teasers in (OpeningArena). The second makes each indexed page's document from its record as the
 * build takes it (StoreDocuments.documents), so a page's text is held only from its document's making
 * until its record is written. A page changed in between is indexed as read the second time; one no
 * longer indexable is left out.
 */
export async function readStoreDocuments(store: Store, options: IndexerOptions): Promise<StoreDocuments> {
  const progress = options.onProgress ?? (() => {});
  const { canonicalize } = await recordedCanonicalizer(store);
  const pages = new Map<string, HeldPage>();
  const openings = new OpeningArena();
  const intern = linkInterner();
  const stamps = new DeployStamps();
  let read = 0;
  // Template summaries are made from each page's text on another thread while this one reads on
  // (block-thread.ts), and given to the held pages in order; each page's link keys are made here.
  const shapes =
    options.templates === false
      ? undefined
      : new BlockShapeQueue<HeldPage>(options.analyzeThreads > 0, (held, made) => {
          if (made !== undefined) held.blocks = pageBlocksFrom(held.url, made, held.packed);
        });
  try {
    // Links as stored, packed: an object per link made on decoding was packed again here.
    for await (const page of store.packedPages()) {
      const held = heldPage(page, intern);
      pages.set(page.url, held);
      if (shapes !== undefined && page.state === 'ok' && page.blockEnds !== undefined) await shapes.add(held, page);
      if (skipReason(page) === undefined) {
        openings.add(page.url, openingOf(page.text));
        stamps.add(hostOf(page.url), page.lastModified);
      }
      if (++read % 1000 === 0) progress({ phase: 'read', done: read, total: 0 });
    }
    await shapes?.finish();
  } finally {
    await shapes?.close();
  }
  progress({ phase: 'read', done: read, total: read });
  const deployed = stamps.deployed();

  const indexed = new Set<string>();
  const skipped: Record<string, number> = {};
  for (const page of pages.values()) {
    const reason = skipReason(page) ?? (canonicalElsewhere(page, pages, canonicalize) ? 'canonical elsewhere' : undefined);
    if (reason === undefined) indexed.add(page.url);
    else skipped[reason] = (skipped[reason] ?? 0) + 1;
  }
  const resolve = (url: string): string | undefined => {
    let current: string | undefined = url;
    for (let hop = 0; hop <= MAX_ALIAS_HOPS && current !== undefined; hop++) {
      if (indexed.has(current)) return current;
      const page = pages.get(current);
      current = page === undefined ? undefined : aliasTarget(page, pages, canonicalize);
    }
    return undefined;
  };
  // A duplicate stands for its original only while that leads to an indexed page: once the original is
  // gone, moved away, noindex or blocked (a recrawl may store the copy before it finds so), the copy's
  // text was in no result, where a fresh crawl of the site indexes it. Then the copy first by URL is
  // indexed in the original's place (only one, or the copies would all be results).
  const adopted = new Map<string, string>();
  for (const page of pages.values()) {
    if (page.state !== 'duplicate' || !page.robots.index || page.duplicateOf === undefined || resolve(page.duplicateOf) !== undefined) continue;
    const first = adopted.get(page.duplicateOf);
    if (first === undefined || page.url < first) adopted.set(page.duplicateOf, page.url);
  }
  const adoptedUrls = new Set(adopted.values());
  for (const url of adoptedUrls) {
    indexed.add(url);
    if (--skipped.duplicate! === 0) delete skipped.duplicate;
  }
  const stillIndexable = (page: PackedPage): boolean => skipReason(page) === undefined || (page.state === 'duplicate' && page.robots.index && page.duplicateOf !== undefined && adoptedUrls.has(page.url));

  progress({ phase: 'links', done: 0, total: 0 });
  let templates = options.templates === false ? undefined : countTemplates(blocksOf(indexed, pages), options.templates);
  // A page's summary stays until its edges are made: its links' fingerprints tell which are template.
  for (const held of pages.values()) {
    if (templates !== undefined && held.blocks !== undefined && indexed.has(held.url)) held.template = templateBytes(templates.blocks(held.blocks));
    else held.blocks = undefined;
  }
  // Edges handed to the graph a page at a time, never all held at once (millions on a large site), and
  // as the page's array: one generator step per edge made an object per edge (379 MB over the Rust
  // docs), in the build thread whose collections grow with what it holds (DESIGN.md).
  function* edges(): Generator<readonly GraphEdge[]> {
    for (const held of pages.values()) {
      const summary = held.blocks;
      held.blocks = undefined;
      if (!held.robots.follow) continue; // META robots nofollow: none of its links count
      const links = unpackLinks(held.packed);
      const isTemplateLink = held.template === undefined || summary === undefined ? undefined : templates?.pageLinkTest(summary, held.template);
      yield linkEdgesOf({ url: held.url, state: adoptedUrls.has(held.url) ? 'ok' : held.state, links }, isTemplateLink);
    }
  }
  let linksAtMost = 0;
  for (const held of pages.values()) if (held.robots.follow) linksAtMost += held.packed.url.length;
  const graph = buildLinkGraph(edges(), resolve, options.maxAnchorsPerPage, linksAtMost);
  progress({ phase: 'links', done: graph.edgeCount, total: graph.edgeCount });

  const urls = [...indexed].sort();
  const titlesByHost = new Map<string, string[]>();
  for (const url of urls) {
    const host = hostOf(url);
    let titles = titlesByHost.get(host);
    if (!titles) titlesByHost.set(host, (titles = []));
    titles.push(pages.get(url)!.title);
  }
  const affixes = new Map([...titlesByHost].map(([host, titles]) => [host, commonAffixes(titles)]));
  // Each page's context (its parent's title), found before the second read lets the pages go.
  const contextPage = (url: string): ContextPage | undefined => {
    const held = pages.get(url);
    return held === undefined ? undefined : { title: held.title, up: held.up === undefined ? undefined : resolve(held.up) };
  };
  const contexts = new Map<string, string>();
  for (const url of urls) {
    const context = parentContext(url, contextPage(url)!, contextPage, hostOf, (title) => stripAffixes(title, affixes.get(hostOf(url))!));
    if (context !== undefined) contexts.set(url, context);
  }
  const openingAt = (url: string): Opening | undefined => {
    const target = resolve(url);
    return target === undefined ? undefined : openings.get(target);
  };

  // The second read, as the build takes the documents: in URL order whatever order the store gives
  // (a PostgreSQL store orders by its collation), a document that comes early held until its turn.
  const place = new Map(urls.map((url, i) => [url, i]));
  const count = urls.length;
  const documentOf = (page: PackedPage, held: HeldPage): IndexDocument => {
    const url = page.url;
    const links = graph.byTarget.get(url);
    graph.byTarget.delete(url);
    const host = hostOf(url);
    // Template text is left out of the body (and so of snippets). A page that is all template has no
    // body: it is found by its title, URL, headings and the links to it, and its snippet is empty, not
    // the site's navigation (it kept its text, which matched the template's words on every query).
    const blocks = held.template === undefined ? undefined : Array.from(held.template, (t) => t === 1);
    const contentText = blocks === undefined ? undefined : contentTextOf(page, blocks);
    const body = contentText === undefined ? page : { ...page, text: contentText, headings: contentHeadings(page.headings, blockTexts(page), blocks!), ...(contentText === '' ? { sections: [] } : contentSections(page, blocks!)) };
    const stored = storedDocOf(body, links?.anchors ?? [], options.maxBodyChars);
    const context = contexts.get(url);
    const date = pageDateMs(page, !deployed.has(host));
    return {
      stored: { ...stored, title: stripAffixes(pageTitle(page), affixes.get(host)!), ...(context !== undefined ? { headings: [...stored.headings, context], context } : {}) },
      title: pageTitle(page),
      hub: hubShare(page, openingAt),
      listing: listingShare(page, contentText, options.listing),
      ...(date !== undefined ? { date } : {}),
      host,
      inbound: links?.inbound ?? 0,
      inboundHosts: links?.inboundHosts ?? 0,
      ...(templates !== undefined ? { contentInbound: links?.contentInbound ?? 0 } : {}),
    };
  };
  async function* documents(): AsyncGenerator<IndexDocument> {
    // Per place, the document that came before its turn, or null for a page no longer indexable.
    const early = new Map<number, IndexDocument | null>();
    let next = 0;
    for await (const page of store.packedPages()) {
      const i = place.get(page.url);
      const held = pages.get(page.url);
      if (i === undefined || held === undefined) continue;
      pages.delete(page.url);
      early.set(i, stillIndexable(page) ? documentOf(page, held) : null);
      for (let d = early.get(next); d !== undefined; d = early.get(next)) {
        early.delete(next++);
        if (d !== null) yield d;
      }
    }
    // What the reads held goes before the build's last phases: nothing links to a page any more.
    pages.clear();
    openings.clear();
    graph.byTarget.clear();
    place.clear();
    contexts.clear();
    indexed.clear();
    templates = undefined;
    // Pages gone since the first read leave gaps; what waited behind them comes now.
    for (; next < count; next++) {
      const d = early.get(next);
      if (d) yield d;
    }
  }
  return { documents: { count, documents: documents() }, skipped };
}

/** A page's template blocks, a byte each (1 for template); a loop, where Uint8Array.from stepped an iterator. */
function templateBytes(blocks: readonly boolean[]): Uint8Array {
  const bytes = new Uint8Array(blocks.length);
  for (let k = 0; k < blocks.length; k++) if (blocks[k]) bytes[k] = 1;
  return bytes;
}

/** The block summaries of the indexed pages that have one (template detection counts each once). */
function* blocksOf(urls: Iterable<string>, pages: ReadonlyMap<string, HeldPage>): Generator<PageBlocks> {
  for (const url of urls) {
    const blocks = pages.get(url)!.blocks;
    if (blocks !== undefined) yield blocks;
  }
}

/**
 * Every indexable page's opening as UTF-8, in large shared buffers: off the JavaScript heap (which
 * every garbage collection walks), at about half the size of the two-byte strings most pages' texts
 * are, and one small view per page. A teaser is looked for in the bytes (Buffer.includes): UTF-8 bytes
 * hold a piece's bytes exactly where the text holds the piece.
 */
class OpeningArena {
  private chunk = Buffer.alloc(0);
  private used = 0;
  private readonly byUrl = new Map<string, Buffer>();

  add(url: string, opening: string): void {
    // At most three bytes per UTF-16 code unit.
    if (this.used + 3 * opening.length > this.chunk.length) {
      this.chunk = Buffer.allocUnsafe(Math.max(ARENA_CHUNK_BYTES, 3 * opening.length));
      this.used = 0;
    }
    const length = this.chunk.write(opening, this.used, 'utf8');
    this.byUrl.set(url, this.chunk.subarray(this.used, this.used + length));
    this.used += length;
  }

  get(url: string): Buffer | undefined {
    return this.byUrl.get(url);
  }

  clear(): void {
    this.byUrl.clear();
    this.chunk = Buffer.alloc(0);
    this.used = 0;
  }
}

const ARENA_CHUNK_BYTES = 16 * 2 ** 20;

/** Slots of linkInterner's cache of the strings met last (a power of two). */
const RECENT_LINK_STRINGS = 4096;

/** Keeps one copy of each URL and anchor text of a page's links across all pages (in place): every page
 * of a site repeats its navigation's links, and each decoded record brought its own copies of them. */
function linkInterner(): (links: PackedLinks) => PackedLinks {
  const strings = new Map<string, string>();
  // The strings met last, by a hash of a few of their characters: a site's navigation comes back on
  // every page, and comparing with the copy met last costs less than looking in a table of millions
  // (a fresh string's hash is computed over all of it, and the probe misses the cache).
  const recent = new Array<string>(RECENT_LINK_STRINGS).fill('');
  const intern = (s: string): string => {
    const n = s.length;
    const slot = n === 0 ? 0 : (Math.imul(n, 31) + Math.imul(s.charCodeAt(n - 1), 131) + Math.imul(s.charCodeAt(n >> 1), 8191) + s.charCodeAt((3 * n) >> 2)) & (RECENT_LINK_STRINGS - 1);
    const last = recent[slot]!;
    if (last === s) return last;
    let kept = strings.get(s);
    if (kept === undefined) strings.set(s, (kept = s));
    recent[slot] = kept;
    return kept;
  };
  return (packed) => {
    for (let i = 0; i < packed.url.length; i++) {
      packed.url[i] = intern(packed.url[i]!);
      packed.text[i] = intern(packed.text[i]!);
    }
    return packed;
  };
}

/** The links of a page that was not fetched as ok: none (shared by all of them, never changed). */
const NO_LINKS: PackedLinks = { url: [], text: [] };

function storedDocOf(page: Omit<PageRecord, 'links'>, anchors: string[], maxBodyChars: number): StoredDoc {
  const body = page.description === '' ? page.text : `${page.description}\n${page.text}`;
  const sections = storedSections(page, body.length - page.text.length, maxBodyChars);
  return {
    title: pageTitle(page),
    headings: headingsWithSections(page.headings, page.sections),
    body: body.length > maxBodyChars ? body.slice(0, maxBodyChars) : body,
    url: page.url,
    anchor: anchors,
    // A page that declares no language gets the one its text shows (or stays '' when unsure): lang:
    // finds it and its words get their language's stemmer.
    language: page.language !== '' ? page.language : detectLanguage(`${page.title}\n${body.slice(0, DETECT_DEFAULTS.sampleChars)}`),
    ...(sections.length > 0 ? { sections } : {}),
    ...(page.defines !== undefined && page.defines.length > 0 ? { defines: page.defines } : {}),
  };
}

/** The page's sections with their starts moved into its content text (template blocks left out). */
function contentSections(page: Pick<PageRecord, 'sections' | 'blockEnds'>, templateBlocks: readonly boolean[]): Pick<PageRecord, 'sections'> {
  if (page.sections === undefined || page.blockEnds === undefined) return {};
  const offsetOf = contentOffsets(page.blockEnds, templateBlocks);
  const sections = page.sections.flatMap((s) => {
    const start = offsetOf(s.start);
    return start === undefined ? [] : [{ ...s, start }];
  });
  return { sections };
}

/** The page's sections with their starts moved into the body (after the description), those cut off dropped. */
function storedSections(page: Pick<PageRecord, 'sections'>, shift: number, maxBodyChars: number): PageSection[] {
  return (page.sections ?? []).map((s) => ({ ...s, start: s.start + shift })).filter((s) => s.start < maxBodyChars);
}
