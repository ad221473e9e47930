// The page typeahead's file in an index generation (typeahead.json): what the search box offers as
// pages while a word is typed. Built by the indexer (indexer/page-typeahead.ts), read by web
// (web/search/page-typeahead.ts). Entries are a page's title and its section headings; the index is
// flexsearch 0.8's export, keyed as flexsearch names its parts. Absent in generations built before it:
// readers then offer no pages.

import { analyze, isStopword } from '../analysis/index.js';

/** One thing the box can offer: a page (its title) or a section of it (its heading). */
export interface TypeaheadEntry {
  /** Document number in the generation. */
  doc: number;
  /** The section's fragment (`url#id`) and heading, for an entry that is a section. */
  id?: string;
  heading?: string;
}

export interface TypeaheadFile {
  entries: TypeaheadEntry[];
  /** flexsearch Index.export(): key -> data. */
  index: Record<string, string>;
}

export const TYPEAHEAD_FILE = 'typeahead.json';

/** Our analyzer as flexsearch's encoder, the same on both sides: the analysed tokens (stems, CJK
 * splits, identifier parts), language-neutral, without stopwords (their lists are the longest and
 * they narrow nothing) unless the text is nothing else. */
export function typeaheadEncode(text: string): string[] {
  const tokens = analyze(text, '').map((s) => s.token);
  const kept = tokens.filter((t) => !isStopword(t));
  return kept.length > 0 ? kept : tokens;
}

/** The flexsearch options both sides must use: prefixes of each analysed token are indexed ("iter" finds "iterator"). */
export const TYPEAHEAD_INDEX_OPTIONS = { tokenize: 'forward', resolution: 9, cache: false } as const;
