// Index fixtures for tests and benches: page records written to a real LevelDB store in a temp data
// dir the way the crawler writes them (commitFetch), optionally indexed by the real indexer; and
// ParsedQuery values built without the gateway's parser (so indexer tests do not depend on it).
// Nothing is mocked.

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex, type IndexerOptions } from '../../indexer/index.js';
import { openStore } from '../../shared/store/index.js';
import type { ParsedQuery, QueryAtom } from '../../web/query/index.js';
import type { CrawlStats, OutLink, PageRecord } from '../../shared/store/index.js';
import { tokenize } from '../../shared/analysis/index.js';

export interface PageSpec {
  url: string;
  title?: string;
  text?: string;
  headings?: string[];
  /** Linkable sections: `start` offsets into `text`. */
  sections?: PageRecord['sections'];
  /** Identifiers the page defines (crawler/defined-names.ts). */
  defines?: string[];
  /** Share of its text inside `<pre>` (crawler/extract.ts). */
  codeShare?: number;
  language?: string;
  /** Target URLs, or [url, anchor text, rel] triples. */
  links?: (string | [string, string, string[]?])[];
  state?: PageRecord['state'];
  index?: boolean;
  follow?: boolean;
  duplicateOf?: string;
  finalUrl?: string;
  canonical?: string;
  /** The date the page declares (PageRecord.date), ISO 8601. */
  date?: string;
  /** Its HTTP Last-Modified, an HTTP-date. */
  lastModified?: string;
}

/** The record the crawler would store for `spec`. */
export function pageRecord(spec: PageSpec, fetchedAt = '2026-01-01T00:00:00.000Z'): PageRecord {
  const links: OutLink[] = (spec.links ?? []).map((l) =>
    typeof l === 'string' ? { url: l, text: '', rel: [], kind: 'a' } : { url: l[0], text: l[1], rel: l[2] ?? [], kind: 'a' },
  );
  return {
    url: spec.url,
    finalUrl: spec.finalUrl ?? spec.url,
    state: spec.state ?? 'ok',
    status: spec.state === 'gone' ? 404 : 200,
    fetchedAt,
    contentType: 'text/html',
    title: spec.title ?? '',
    description: '',
    ...(spec.date !== undefined ? { date: spec.date } : {}),
    headings: spec.headings ?? [],
    text: spec.text ?? '',
    language: spec.language ?? 'en',
    links,
    ...(spec.canonical ? { canonical: spec.canonical } : {}),
    ...(spec.sections ? { sections: spec.sections } : {}),
    ...(spec.defines ? { defines: spec.defines } : {}),
    ...(spec.codeShare !== undefined ? { codeShare: spec.codeShare } : {}),
    contentHash: createHash('sha1').update(spec.text ?? '').digest('hex'),
    ...(spec.lastModified !== undefined ? { lastModified: spec.lastModified } : {}),
    robots: { index: spec.index ?? true, follow: spec.follow ?? true },
    truncated: false,
    ...(spec.duplicateOf ? { duplicateOf: spec.duplicateOf } : {}),
    depth: 0,
  };
}

/** A fresh data dir; `cleanup` removes it. */
export async function tempDataDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gleaner-index-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes the pages into the data dir's store, as the crawler would (one commitFetch each). */
export async function writePages(dataDir: string, pages: readonly PageSpec[], options: { fetchedAt?: string; crawl?: CrawlStats } = {}): Promise<void> {
  const store = await openStore(dataDir);
  try {
    for (const spec of pages) await store.commitFetch(undefined, pageRecord(spec, options.fetchedAt), []);
    if (options.crawl) await store.putCrawlStats(options.crawl);
  } finally {
    await store.close();
  }
}

export interface FixtureDir {
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Writes `pages` fetched now (and optional crawl counters) into a fresh temp data dir and builds its index. */
export async function buildFixtureIndex(pages: readonly PageSpec[], crawl?: CrawlStats, options: Partial<IndexerOptions> = {}): Promise<FixtureDir> {
  const { dir, cleanup } = await tempDataDir();
  await writePages(dir, pages, { fetchedAt: new Date().toISOString(), ...(crawl ? { crawl } : {}) });
  await buildIndex(dir, { ...options, full: true });
  return { dataDir: dir, cleanup };
}

function atom(text: string, field?: QueryAtom['field']): QueryAtom {
  const phrase = text.startsWith('"');
  const body = phrase ? text.slice(1, -1) : text;
  return { kind: phrase ? 'phrase' : 'term', text: body, tokens: tokenize(body), ...(field ? { field } : {}) };
}

/**
 * A ParsedQuery from a tiny subset of the query language: space-separated words (all required),
 * `"phrases"` (write `_` for a space inside one), `a|b` alternatives, `-word`,
 * `intitle:word`, `inurl:word`, `site:host`, `-site:host`, `lang:xx`.
 */
export function query(input: string): ParsedQuery {
  const q: ParsedQuery = { required: [], excluded: [], sites: [], excludedSites: [], languages: [], understood: input, ignored: [] };
  for (const part of input.split(' ').filter(Boolean)) {
    const word = part.replace(/_/g, ' ');
    if (word.startsWith('site:')) q.sites.push(word.slice(5));
    else if (word.startsWith('-site:')) q.excludedSites.push(word.slice(6));
    else if (word.startsWith('lang:')) q.languages.push(word.slice(5));
    else if (word.startsWith('-')) q.excluded.push(atom(word.slice(1)));
    else if (word.startsWith('intitle:')) q.required.push([atom(word.slice(8), 'title')]);
    else if (word.startsWith('inurl:')) q.required.push([atom(word.slice(6), 'url')]);
    else q.required.push(word.split('|').map((w) => atom(w)));
  }
  return q;
}

/** Every word of `text` as one OR group: how the relevance bench asks natural-language queries. */
export function anyOf(text: string): ParsedQuery {
  const words = text.split(/\s+/).filter((w) => tokenize(w).length > 0);
  return { required: [words.map((w) => atom(w))], excluded: [], sites: [], excludedSites: [], languages: [], understood: text, ignored: [] };
}
