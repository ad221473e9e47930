// Reads the crawl store into documents to index: decides which pages are indexed (and which URL stands
// for which page) and counts links. The only indexer module that touches the store.

import type { StoredDoc } from '../shared/index-format/index.js';
import { linkEdgesOf } from '../shared/store/index.js';
import type { Store } from '../shared/store/index.js';
import type { OutLink, PageRecord, PageSection } from '../shared/store/index.js';
import { recordedCanonicalizer } from '../shared/store/index.js';
import { canonicalizeUrl, hostOf } from '../shared/url.js';
import { DETECT_DEFAULTS, detectLanguage } from '../shared/analysis/index.js';
import type { IndexDocument } from './build.js';
import { buildLinkGraph, type GraphEdge } from './link-graph.js';
import { hubShare } from './hub.js';
import { commonAffixes, stripAffixes } from './title-boilerplate.js';
import type { IndexerOptions } from './options.js';
import { contentOffset, detectTemplates, type PageTemplate } from './templates.js';
import { listingShare } from './listing.js';

export interface StoreDocuments {
  documents: IndexDocument[];
  skipped: Record<string, number>;
}

/** Why a stored page is not indexed itself, or undefined when it is. */
export function skipReason(page: PageRecord): string | undefined {
  if (page.state !== 'ok') return page.state;
  if (!page.robots.index) return 'noindex';
  return undefined;
}

/** Where a page's links and identity go: a redirect to its target, a duplicate to its original, a page
 * naming another stored page as rel=canonical to that page. Pure; `pages` holds the store's pages,
 * `canonicalize` is the crawl's canonicalizer (recorded in the store), so targets match the stored keys. */
export function aliasTarget(page: PageRecord, pages: ReadonlyMap<string, PageRecord>, canonicalize: (url: string) => string | undefined = (u) => canonicalizeUrl(u)): string | undefined {
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
export function canonicalElsewhere(page: PageRecord, pages: ReadonlyMap<string, PageRecord>, canonicalize?: (url: string) => string | undefined): boolean {
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

export async function readStoreDocuments(store: Store, options: IndexerOptions): Promise<StoreDocuments> {
  const progress = options.onProgress ?? (() => {});
  const { canonicalize } = await recordedCanonicalizer(store);
  // Pages are held lightly: the text of indexed pages is needed later, the rest only for routing.
  const pages = new Map<string, PageRecord>();
  const lightLinks = linkInterner();
  let read = 0;
  for await (const page of store.pages()) {
    pages.set(page.url, page.state === 'ok' ? { ...page, links: lightLinks(page.links) } : { ...page, text: '', headings: [], links: [] });
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
  const templates = options.templates === false ? undefined : detectTemplates([...indexed].map((url) => pages.get(url)!), options.templates);
  const templateOf = new Map<string, PageTemplate>();
  // Edges handed to the graph a page at a time, never all held at once (millions on a large site).
  function* edges(): Generator<GraphEdge> {
    for (const page of pages.values()) {
      if (!page.robots.follow) continue; // META robots nofollow: none of its links count
      const template = indexed.has(page.url) ? templates?.of(page) : undefined;
      if (template !== undefined) templateOf.set(page.url, template);
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
  const documents: IndexDocument[] = [];
  for (const url of urls) {
    const page = pages.get(url)!;
    const links = graph.byTarget.get(url);
    const host = hostOf(url);
    // Template text is left out of the body (and so of snippets); a page that is all template keeps its text.
    const template = templateOf.get(url) ?? templates?.of(page);
    const contentText = template?.contentText;
    const stored = storedDocOf(contentText === undefined || contentText === '' ? page : { ...page, text: contentText, ...contentSections(page, template!) }, links?.anchors ?? [], options.maxBodyChars);
    documents.push({
      stored: { ...stored, title: stripAffixes(page.title, affixes.get(host)!) },
      title: page.title,
      hub: hubShare(page, textOfIndexed),
      listing: listingShare(page, contentText, options.listing),
      host,
      inbound: links?.inbound ?? 0,
      inboundHosts: links?.inboundHosts ?? 0,
      ...(templates !== undefined ? { contentInbound: links?.contentInbound ?? 0 } : {}),
    });
  }
  return { documents, skipped };
}

/** The links of a page with one copy of each URL and anchor text across all pages, and one empty
 * rel list: every page of a site repeats its navigation's links, and each decoded record brought its
 * own copies of them. */
function linkInterner(): (links: readonly OutLink[]) => OutLink[] {
  const strings = new Map<string, string>();
  const intern = (s: string): string => {
    const kept = strings.get(s);
    if (kept !== undefined) return kept;
    strings.set(s, s);
    return s;
  };
  return (links) => links.map((l) => ({ ...l, url: intern(l.url), text: intern(l.text), rel: l.rel.length === 0 ? NO_REL : l.rel }));
}

const NO_REL = Object.freeze([]) as unknown as string[];

function storedDocOf(page: PageRecord, anchors: string[], maxBodyChars: number): StoredDoc {
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
function contentSections(page: PageRecord, template: PageTemplate): Pick<PageRecord, 'sections'> {
  if (page.sections === undefined || page.blockEnds === undefined) return {};
  const ends = page.blockEnds;
  const sections = page.sections.flatMap((s) => {
    const start = contentOffset(ends, template.blocks, s.start);
    return start === undefined ? [] : [{ ...s, start }];
  });
  return { sections };
}

/** The page's sections with their starts moved into the body (after the description), those cut off dropped. */
function storedSections(page: PageRecord, shift: number, maxBodyChars: number): PageSection[] {
  return (page.sections ?? []).map((s) => ({ ...s, start: s.start + shift })).filter((s) => s.start < maxBodyChars);
}
