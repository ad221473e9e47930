// What a search answers, between web/search (index + ranking) and the gateway's routes and pages.

import type { ParsedQuery } from '../query/index.js';

/** Why a result scored what it did: shown to users as "why this result" and in the JSON API. */
export interface Explanation {
  /** Text relevance (BM25F) before the link boost. */
  textScore: number;
  /** Per query token and field: the BM25F contribution. */
  terms: { token: string; field: string; tf: number; contribution: number }[];
  /** Distinct pages linking here (self-links and nofollow excluded). */
  inboundLinks: number;
  /** The link boost's weight: linkBoost = 1 + linkWeight * ln(1 + inboundLinks) (web/search/rank.ts). */
  linkWeight: number;
  linkBoost: number;
  /** Final score: textScore * linkBoost. Every part shown here ranks, and nothing else does. */
  score: number;
}

export interface SearchHit {
  url: string;
  title: string;
  /** Plain text around the best matching passage; `highlights` are [start, end) offsets into it. */
  snippet: string;
  highlights: [number, number][];
  language: string;
  score: number;
  explain: Explanation;
  /** A partial match (web/search/partial.ts): the query's words, phrases or OR groups it lacks, as typed. */
  missing?: string[];
}

export interface SearchResult {
  total: number;
  hits: SearchHit[];
  /** Query tokens unknown to (or rare in) the index, with a suggested replacement. */
  didYouMean?: { query: string; replacements: Record<string, string> };
  tookMs: number;
}

export interface SearchOptions {
  offset: number;
  limit: number;
}

export interface IndexSummary {
  formatVersion: number;
  builtAt: string;
  documents: number;
  terms: number;
  bytesOnDisk: number;
  /** Pages whose language is unknown (none declared, none detected): `lang:` leaves them out. */
  unknownLanguage?: number;
}

/** The searcher the gateway is given: opened read-only over what `gleaner index` wrote. */
export interface SearchEngine {
  search(query: ParsedQuery, options: SearchOptions): SearchResult;
  /** Prefix completions from the index vocabulary, most useful first. */
  suggest(prefix: string, limit: number): string[];
  summary(): IndexSummary;
}
