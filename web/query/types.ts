// What the gateway's query parser understood, in the form the searcher executes. The parser lives in
// web/query/; the searcher (web/search/) only reads this shape. Tokens come from shared/analysis/,
// the same tokenizer the indexer used, so a query word and an indexed word meet.

/** A word or an "exact phrase" the user typed, with the index tokens it became. */
export interface QueryAtom {
  kind: 'term' | 'phrase';
  /** What the user typed, for messages ("showing results for ..."). */
  text: string;
  /** Index tokens in order; a term may yield several (e.g. a Chinese word, or `e-mail`). */
  tokens: string[];
  /** Restrict the match to one field: `intitle:` and `inurl:`. */
  field?: 'title' | 'url';
}

export interface ParsedQuery {
  /** Every group must match; within a group any alternative may (`a OR b`). */
  required: QueryAtom[][];
  /** No result may match any of these (`-term`, `-"phrase"`). */
  excluded: QueryAtom[];
  /** `site:host` (a result's host is the host or a subdomain of it); several are alternatives. */
  sites: string[];
  excludedSites: string[];
  /** `lang:xx`; several are alternatives. */
  languages: string[];
  /** `after:2024-03`: only pages dated from the start of this year, month or day on (web/query/date-filter.ts);
   * absent when not given. Pages without a date are left out by either filter. */
  after?: string;
  /** `before:2025`: only pages dated before the start of this year, month or day. */
  before?: string;
  /** The query as understood, in the query language, e.g. `rust "borrow checker" -unsafe`. */
  understood: string;
  /** Parts of the input that were dropped, each with why (e.g. `"OR" at the start`, `input cut at 512 characters`). */
  ignored: string[];
}

// The site's synonyms (web/query/synonyms.ts), here so that the gateway's options can name them.

export interface SynonymOptions {
  /** Alternatives a query word may gain: a group of a hundred names would make every query that meets
   * it a hundred-way OR. Past this, the rest are left out and the result page says so. */
  maxAlternatives: number;
  /** Entries a line may list (a file past this is more likely a mistake than a thesaurus). */
  maxEntriesPerLine: number;
  /** The longest entry, in characters: a query's longest (WebOptions.maxQueryChars). */
  maxEntryChars: number;
}

/** One entry of a synonyms file as web/query/synonyms.ts applies it. */
export interface SynonymRule {
  /** Per word of the entry, its token key (QueryAtom tokens joined). */
  words: string[];
  /** Searched in the typed words' place (`=>`), rather than beside them. */
  replace: boolean;
  /** Each a term (one word) or a phrase (several). */
  alternatives: QueryAtom[];
}

export interface SynonymRules {
  /** Rules by the key of their first word, longest first. */
  readonly byFirst: ReadonlyMap<string, readonly SynonymRule[]>;
  readonly options: Readonly<SynonymOptions>;
  /** Lines that gave a rule, for a start-up message. */
  readonly lines: number;
}

/** How an entry meets a query: `exact`, the same words in the same order (Solr's default); `subset`,
 * every word of the entry among the query's, in any order. */
export type PromotedMatch = 'exact' | 'subset';

export interface PromotedEntry {
  /** The entry's words, each as its key (site-words.ts wordKey). */
  words: readonly string[];
  match: PromotedMatch;
  urls: readonly string[];
}

export interface PromotedRules {
  readonly entries: readonly PromotedEntry[];
  /** Every URL the file promotes, once each, in the order first listed. */
  readonly urls: readonly string[];
  /** Entries (their places in `entries`) by the words they meet: exact ones by all their words, subset
   * ones by their first. A query looks up its own words, not every entry (of 1,000 entries, read one by
   * one: 20-26 us a query; looked up: 7 us). */
  readonly exact: ReadonlyMap<string, readonly number[]>;
  readonly subsetByWord: ReadonlyMap<string, readonly number[]>;
}
