// What a search answers, between web/search (index + ranking) and the gateway's routes and pages.

import type { ParsedQuery } from '../query/index.js';
import type { TraceStep } from '../../shared/trace.js';
import type { PageSuggestion } from './page-typeahead.js';

/** Why a result scored what it did: shown to users as "why this result" and in the JSON API. */
export interface Explanation {
  /** Text relevance (BM25F) before the link boost. */
  textScore: number;
  /** Per query token and field: the BM25F contribution. */
  terms: { token: string; field: string; tf: number; contribution: number }[];
  /** Distinct pages linking here (self-links and nofollow excluded). */
  inboundLinks: number;
  /** The link boost's weight: linkBoost = 1 + linkWeight * ln(1 + inboundLinks) (web/search/rank.ts);
   * absent when contentLinks is known (then the boost is made of the two weights below). */
  linkWeight?: number;
  /** Where the index knows template links: of inboundLinks, those from page content; the boost is then
   * 1 + contentLinkWeight * ln(1 + contentLinks) + templateLinkWeight * ln(1 + inboundLinks - contentLinks). */
  contentLinks?: number;
  contentLinkWeight?: number;
  templateLinkWeight?: number;
  linkBoost: number;
  /** Share of the page's text that names or repeats other pages (indexer/hub.ts), and the multiplier
   * it puts on the score (rank.ts hubFactor; 1 = not a hub). */
  hubShare: number;
  hubFactor: number;
  /** How much the page is a source listing (indexer/listing.ts: its content's share inside `<pre>`, 0
   * when it has prose of its own), and the multiplier that puts on the score (rank.ts listingFactor). */
  listingShare: number;
  listingFactor: number;
  /** The language most pages of the result's site are in ('' when unknown or tied: rank.ts
   * mainLanguages), and the multiplier the page's own language puts on the score (rank.ts
   * languageFactor: below 1 for a page in another language, a translation; else 1). */
  siteLanguage: string;
  languageFactor: number;
  /** Of the query's neighbouring word pairs (proximity.ts), how many; absent when it has none or the
   * result was below the results proximity reorders. */
  queryPairs?: number;
  /** How many of them stand near each other in the page's text. */
  nearPairs?: number;
  /** The multiplier that puts on the score: 1 + weight * nearPairs / queryPairs (1 without pairs). */
  proximityFactor: number;
  /** The multiplier for a title that holds the query's plain words only inside code names
   * (name-title.ts): below 1 then, else 1. */
  nameTitleFactor: number;
  /** Of the query's plain words (lead.ts), how many; absent when the rule does not apply to the query
   * (phrases, OR, names typed) or the result was below the results it reorders. */
  queryWords?: number;
  /** How many of them stand in the opening of the page's body (its first few words). */
  openingWords?: number;
  /** The multiplier that puts on the score: 1 + weight * openingWords / queryWords (1 when absent). */
  openingFactor: number;
  /** Final score: textScore * linkBoost * hubFactor * listingFactor * languageFactor * proximityFactor * nameTitleFactor * openingFactor. Every part shown here ranks, and nothing else does. */
  score: number;
}

export interface SearchHit {
  /** The page. */
  url: string;
  /** The part of the page that matches best, when it is not the page's top (web/search/sections.ts):
   * results link to `section.url` (the page's URL with `#id`) and show its heading; the snippet is from it. */
  section?: { id: string; heading: string; url: string };
  /** The title of the page one level up in its site (indexer/parent-context.ts), as a breadcrumb shows
   * it: "GIN Indexes" before "70.1. Introduction". Absent when the page names no parent. */
  context?: string;
  title: string;
  /** Plain text around the best matching passage; `highlights` are [start, end) offsets into it. */
  snippet: string;
  highlights: [number, number][];
  language: string;
  /** The page's date (indexer/page-date.ts: the one it declares, else its Last-Modified), ISO 8601 in
   * UTC; absent when it has none. */
  date?: string;
  score: number;
  /** Why it scored what it did; absent when searched with `explain: false`. */
  explain?: Explanation;
  /** A partial match (web/search/partial.ts): the query's words, phrases or OR groups it lacks, as typed. */
  missing?: string[];
}

export interface SearchResult {
  total: number;
  /** `total` is estimated (phrase matches counted on a sample of the candidates past those checked):
   * "about N results", as large engines and Xapian say. Absent when it is exact. */
  totalIsEstimate?: true;
  /** With a `total` above it: the most matches the pages of results can show, since phrase checks stop
   * at SearcherOptions.maxPhraseChecks (exact once they did, else a bound), so pages are counted up to
   * it. The total may count more: matches the sample found past the checks. */
  reachable?: number;
  /** The phrase checks stopped (SearcherOptions.maxPhraseChecks) before the page was settled: pages
   * past the best `checked` of the `candidates` holding every word were not looked at, and some may
   * match. Absent when the page is sure. */
  phraseCheckStopped?: { checked: number; candidates: number };
  hits: SearchHit[];
  /** Query tokens unknown to (or rare in) the index, with a suggested replacement; `sure` when each is
   * one edit away or a common word (SearcherOptions.sureCorrectionDocFreq): only then is it searched
   * in the query's place. */
  didYouMean?: { query: string; replacements: Record<string, string>; sure?: true };
  tookMs: number;
}

export interface SearchOptions {
  offset: number;
  limit: number;
  /** Explain each hit (SearchHit.explain). Default true; the JSON API asks only with `explain=1`, and
   * recomputing every hit's score by field was 4% of serving one. */
  explain?: boolean;
  /** The order of the results: 'relevance' (the default), or 'date', newest first, pages without a date
   * after those with one and each run of the same date by relevance; no partial matches then. */
  sort?: SortOrder;
}

/** How results are ordered (SearchOptions.sort). */
export type SortOrder = 'relevance' | 'date';
export const SORT_ORDERS: readonly SortOrder[] = ['relevance', 'date'];

export interface IndexSummary {
  formatVersion: number;
  builtAt: string;
  documents: number;
  terms: number;
  bytesOnDisk: number;
  /** Pages whose language is unknown (none declared, none detected): `lang:` leaves them out. */
  unknownLanguage?: number;
  /** Pages without a date (none declared, no Last-Modified trusted): `after:` and `before:` leave them out. */
  undated?: number;
}

/** The searcher the gateway is given: opened read-only over what `gleaner index` wrote. */
export interface SearchEngine {
  search(query: ParsedQuery, options: SearchOptions): SearchResult;
  /** Prefix completions from the index vocabulary, most useful first: with `context` (the words typed
   * before), those that occur with them first. */
  suggest(prefix: string, limit: number, context?: string): string[];
  summary(): IndexSummary;
  /** Pages whose title or a section heading matches what is typed, the last word as a prefix
   * (page-typeahead.ts); absent on engines without a typeahead. */
  suggestPages?(text: string, limit: number): PageSuggestion[];
  /** Loads the page typeahead without blocking searches; suggestPages answers from it once this has
   * resolved (before, it loads it at once, blocking). */
  pagesReady?(): Promise<void>;
  /** The index-side steps of a page's trace (web/search/trace-index.ts); undefined when it is not indexed. */
  trace?(url: string): TraceStep[] | undefined;
  /** The indexed pages among `urls`, in their order, each as a result of `query` (its snippet and
   * section as the query finds them), scored 0 and unexplained: promoted pages (web/query/promoted.ts). */
  pagesAsResults?(urls: readonly string[], query: ParsedQuery): SearchHit[];
}
