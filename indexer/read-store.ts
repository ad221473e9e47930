// Reads the crawl store into documents to index: decides which pages are indexed (and which URL stands
// for which page) and counts links. The only indexer module that touches the store.

import type { StoredDoc } from '../shared/index-format/index.js';
import { linkEdgesOf, packLinks, unpackLinks } from '../shared/store/index.js';
import type { Store } from '../shared/store/index.js';
import type { OutLink, PackedLinks, PageRecord, PageSection } from '../shared/store/index.js';
import { recordedCanonicalizer } from '../shared/store/index.js';
import { canonicalizeUrl, hostOf } from '../shared/url.js';
import { DETECT_DEFAULTS, detectLanguage } from '../shared/analysis/index.js';
import type { IndexDocument } from './build.js';
import { buildLinkGraph, type GraphEdge } from './link-graph.js';
import { hubShare } from './hub.js';
import { commonAffixes, stripAffixes } from './title-boilerplate.js';
import type { IndexerOptions } from './options.js';
import { contentOffsets, contentTextOf, detectTemplates } from './templates.js';
import { listingShare } from './listing.js';

export interface StoreDocuments {
  documents: IndexDocument[];
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

/** A stored page as the build holds it while it reads: its links packed, one array of URLs and one of
 * anchor texts (shared/store/links.ts), each string shared by every page that repeats it. Unpacked
 * (`withLinks`) only while a page is worked on: an object per link was more than half the memory of
 * reading the store (227 of 404 MB on the Rust docs' 1.6 million links). */
type HeldPage = Omit<PageRecord, 'links'> & { packed: PackedLinks };

const withLinks = ({ packed, ...page }: HeldPage): PageRecord => ({ ...page, links: unpackLinks(packed) });

export async function readStoreDocuments(store: Store, options: IndexerOptions): Promise<StoreDocuments> {
  const progress = options.onProgress ?? (() => {});
  const { canonicalize } = await recordedCanonicalizer(store);
  // Pages are held lightly: the text of indexed pages is needed later, the rest only for routing.
  const pages = new Map<string, HeldPage>();
  const pack = linkPacker();
  let read = 0;
  for await (const { links, ...page } of store.pages()) {
    pages.set(page.url, page.state === 'ok' ? { ...page, packed: pack(links) } : { ...page, text: '', headings: [], packed: NO_LINKS });
    if (++read % 1000 === 0) progress({ phase: 'read', done: read, total: 0 });
  }
  progress({ phase: 'read', done: read, total: read });

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

  progress({ phase: 'links', done: 0, total: 0 });
  const templates = options.templates === false ? undefined : detectTemplates(unpacked(indexed, pages), options.templates);
  // What the documents below need of each page's template: which of its blocks are template. Not the
  // template-link test, which holds a map of the page's links, nor the content text, a second copy of
  // nearly all of its text (contentTextOf makes it again).
  const templateOf = new Map<string, boolean[]>();
  // Edges handed to the graph a page at a time, never all held at once (millions on a large site).
  function* edges(): Generator<GraphEdge> {
    for (const held of pages.values()) {
      if (!held.robots.follow) continue; // META robots nofollow: none of its links count
      const page = withLinks(held);
      const template = indexed.has(page.url) ? templates?.of(page) : undefined;
      if (template !== undefined) templateOf.set(page.url, template.blocks);
      yield* linkEdgesOf(page, template?.isTemplateLink);
    }
  }
  const graph = buildLinkGraph(edges(), resolve, options.maxAnchorsPerPage);
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
  const textOfIndexed = (url: string): string | undefined => {
    const target = resolve(url);
    return target === undefined ? undefined : pages.get(target)?.text;
  };
  // A hub share reads the text of the pages a page links to, so all are measured before any page's
  // text is let go below.
  const hubs = urls.map((url) => hubShare(withLinks(pages.get(url)!), textOfIndexed));
  const documents: IndexDocument[] = [];
  urls.forEach((url, i) => {
    const page = pages.get(url)!;
    // The page's text now lives on in its document's body only.
    pages.delete(url);
    const links = graph.byTarget.get(url);
    const host = hostOf(url);
    // Template text is left out of the body (and so of snippets); a page that is all template keeps its text.
    const blocks = templateOf.get(url) ?? templates?.of(withLinks(page))?.blocks;
    templateOf.delete(url);
    const contentText = blocks === undefined ? undefined : contentTextOf(page, blocks);
    const stored = storedDocOf(contentText === undefined || contentText === '' ? page : { ...page, text: contentText, ...contentSections(page, blocks!) }, links?.anchors ?? [], options.maxBodyChars);
    documents.push({
      stored: { ...stored, title: stripAffixes(page.title, affixes.get(host)!) },
      title: page.title,
      hub: hubs[i],
      listing: listingShare(page, contentText, options.listing),
      host,
      inbound: links?.inbound ?? 0,
      inboundHosts: links?.inboundHosts ?? 0,
      ...(templates !== undefined ? { contentInbound: links?.contentInbound ?? 0 } : {}),
    });
  });
  return { documents, skipped };
}

/** The indexed pages with their links, one at a time (template detection reads each once). */
function* unpacked(urls: Iterable<string>, pages: ReadonlyMap<string, HeldPage>): Generator<PageRecord> {
  for (const url of urls) yield withLinks(pages.get(url)!);
}

/** Packs a page's links with one copy of each URL and anchor text across all pages: every page of a
 * site repeats its navigation's links, and each decoded record brought its own copies of them. */
function linkPacker(): (links: readonly OutLink[]) => PackedLinks {
  const strings = new Map<string, string>();
  const intern = (s: string): string => {
    const kept = strings.get(s);
    if (kept !== undefined) return kept;
    strings.set(s, s);
    return s;
  };
  return (links) => {
    const packed = packLinks(links);
    for (let i = 0; i < links.length; i++) {
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
    title: page.title,
    headings: page.headings,
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
