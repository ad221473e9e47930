// A title that holds the query's words only inside code names (issue 14): "prepared statements" met the
// view `pg_prepared_statements` first, "check constraint" the information-schema view `check_constraints`,
// "iterator collect" the module `std::collections`, "spawn a thread" `std::thread`. Identifiers are
// indexed as their parts too (shared/analysis/identifiers.ts), so the exact name finds its page and a
// page about `max_connections` still matches "max connections"; but a reader who types plain words asks
// for the topic, and one who means the name types it (then its whole token and its definition score:
// compile.ts). So of the best-scored results of an every-word query of plain words, a page whose title has the
// query's words, and each of them only inside a name, is multiplied by `factor` (below 1) and the pool
// sorted again, as proximity.ts reorders it. Words typed apart are more often words than a name: joining
// them into names measured worse (DESIGN.md, "Words typed apart as the identifier they join").
// Pure: titles, languages and the query's words come in as values.

import { analyze, isIdentifierToken } from '../../shared/analysis/index.js';
import { identifierTokens, type QueryPlan } from './compile.js';
import { reorderPool } from './reorder-pool.js';

/** Defaults of NameTitleOptions. */
export const DEFAULT_NAME_TITLE_OPTIONS: Readonly<NameTitleOptions> = { poolSize: 30, factor: 0.8 };

export interface NameTitleOptions {
  /** Results, best first, that may be reordered; the rest keep their order after them. */
  poolSize: number;
  /** The multiplier on such a page's score; 1 turns the rule off. */
  factor: number;
}

/** Marks a ranked result the rule looked at: `score` includes the factor. */
export interface NameRanked {
  score: number;
  /** The multiplier the rule put on the score (1: the title says the words as words, or none of them). */
  titleNames?: number;
}

/**
 * The query's plain words, as tokens, when the rule applies: the words of an every-word query (the
 * gateway's default). Undefined when some atom types a name (`pg_database_size`, `os.path.join`): that
 * reader asks for names, and the name's own token ranks them. Undefined too, for what it costs, when
 * some atom is a quoted phrase (words joined by hyphens are words here; the rule's pool would check phrases in three times the results: phrase
 * p99 1.5 -> 2.9 ms on the Rust docs) or some group is an OR (an any-word top 30 prunes far less than
 * a top 10: p99 0.2 -> 0.4 ms, above Xapian's); DESIGN.md has the figures.
 */
export function plainQueryTokens(plan: Pick<QueryPlan, 'groups'>): ReadonlySet<string> | undefined {
  const tokens = new Set<string>();
  for (const group of plan.groups) {
    if (group.length > 1) return undefined;
    for (const atom of group) {
      if (atom.quoted || identifierTokens(atom.atom).length > 0) return undefined;
      for (const token of atom.alternatives[0]?.tokens ?? []) if (!isIdentifierToken(token)) tokens.add(token);
    }
  }
  return tokens.size > 0 ? tokens : undefined;
}

/** A title's words as index tokens: those it says only inside code names, and those it says as words. */
export interface TitleWords {
  inNames: ReadonlySet<string>;
  asWords: ReadonlySet<string>;
  /** Every token of the title (tokenize's): which query words it holds (hits.ts titleTokens). */
  all: ReadonlySet<string>;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** `title`'s words, told apart by whether some occurrence stands outside every code name. */
export function titleWords(title: string, language: string): TitleWords {
  const spans = analyze(title, language);
  const names = spans.filter((s) => s.extra === true && isIdentifierToken(s.token));
  const all = new Set(spans.map((s) => s.token));
  if (names.length === 0) return { inNames: NO_NAMES, asWords: new Set(spans.filter((s) => s.extra !== true).map((s) => s.token)), all };
  const inNames = new Set<string>();
  const asWords = new Set<string>();
  for (const s of spans) {
    if (s.extra === true) continue;
    if (names.some((n) => s.start >= n.start && s.end <= n.end)) inNames.add(s.token);
    else asWords.add(s.token);
  }
  for (const token of asWords) inNames.delete(token);
  return { inNames, asWords, all };
}

/** Whether a title (its TitleWords) holds some of `words` (index tokens) and each only inside a code name. */
export function namesOnly(title: TitleWords, words: ReadonlySet<string>): boolean {
  if (title.inNames.size === 0) return false;
  let met = false;
  for (const w of words) {
    if (title.asWords.has(w)) return false;
    if (title.inNames.has(w)) met = true;
  }
  return met;
}

/** Whether a title (its TitleWords) says some of `words` as words, outside every code name. */
export function saysSome(title: TitleWords, words: ReadonlySet<string>): boolean {
  for (const w of words) if (title.asWords.has(w)) return true;
  return false;
}

/** Whether a title's names hold every one of `words`: `target_include_directories` for "include directories for a target". */
export function namesEvery(title: TitleWords, words: ReadonlySet<string>): boolean {
  for (const w of words) if (!title.inNames.has(w)) return false;
  return true;
}

/** Whether `title` holds some of `words` and each only inside a code name (titleWords, then namesOnly). */
export function titleNamesOnly(title: string, language: string, words: ReadonlySet<string>): boolean {
  return namesOnly(titleWords(title, language), words);
}

/** Documents' TitleWords, kept once made (a title is analysed in microseconds; the pool asks for 30 a
 * query). Two generations of up to `maxEntries` each: when the young one fills, it becomes the old one
 * and the old is let go, and a title found in the old one moves back: a site with more pages than the
 * cache holds no longer analyses every title again after each clear. */
export class TitleWordsCache {
  private young = new Map<number, TitleWords>();
  private old = new Map<number, TitleWords>();

  constructor(
    private readonly titleOf: (doc: number) => { title: string; language: string },
    private readonly maxEntries = 16_384,
  ) {}

  get(doc: number): TitleWords {
    let words = this.young.get(doc);
    if (words !== undefined) return words;
    words = this.old.get(doc);
    if (words === undefined) {
      const { title, language } = this.titleOf(doc);
      words = titleWords(title, language);
    }
    if (this.young.size >= this.maxEntries) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(doc, words);
    return words;
  }
}

/**
 * `ranked` (best first) with its first `poolSize` entries reordered by score x factor where the entry's
 * title (`titleOf`) holds the query's `words` only inside names (namesOnly). Not where its names hold
 * every word and no title of the pool says one as a word: the rule puts titles that say the words
 * before names, and on a site whose pages are each titled by the name they define (CMake's
 * `target_include_directories` for "include directories for a target") there is no such title, so
 * lowering the name that spells the whole query only raised pages whose titles hold none of the words.
 * A name holding some of the words stays lowered (PostgreSQL's view `sql_sizing` for "table size").
 * Ties keep their order; the entries after the pool keep theirs, after it. Reorders `ranked` and its
 * entries in place (reorder-pool.ts) and returns it.
 */
export function namesAfterWords<T extends NameRanked>(
  ranked: T[],
  titleOf: (entry: T) => TitleWords,
  words: ReadonlySet<string>,
  options: NameTitleOptions = DEFAULT_NAME_TITLE_OPTIONS,
): T[] {
  if (options.factor === 1) return ranked;
  let noneSays = true;
  for (let i = 0; i < Math.min(options.poolSize, ranked.length) && noneSays; i++) noneSays = !saysSome(titleOf(ranked[i]!), words);
  return reorderPool(ranked, options.poolSize, (entry) => {
    const title = titleOf(entry);
    const factor = namesOnly(title, words) && !(noneSays && namesEvery(title, words)) ? options.factor : 1;
    entry.score *= factor;
    entry.titleNames = factor;
  });
}
