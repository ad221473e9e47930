// Partial matches: when a query of several words has fewer every-word matches than a page of results,
// the pages that have some of its words follow the full matches, each saying which words it lacks
// ("Missing: binary"). Full matches always come first; partial ones are ordered by how many of the
// query's groups they have, then by score. The pages lacking one group are found first, as the
// every-word matches of the query with that group left out (queriesLacking), then those lacking two
// and more, each level while it takes few queries, and the any-word query's best only when those
// are too few.
// Pure given the index arrays.

import { FIELD_COUNT, isPhrasePairToken, type IndexGeneration, type TermList } from '../../shared/index-format/index.js';
import type { ParsedQuery, QueryAtom } from '../query/index.js';
import type { AtomPlan, QueryPlan } from './compile.js';
import type { Candidate } from './hits.js';
import { findPosting } from './find-posting.js';

export interface PartialOptions {
  /** Partial matches are added when the every-word matches are fewer than this many (the engine passes
   * the page size asked for: 10 by default, so a first page is never left short). */
  belowFullMatches: number;
  /** Candidates of the any-word query read per partial match wanted, to find those with the most words. */
  poolPerResult: number;
  /** The pages lacking `n` groups are looked for (n = 1, 2, ...) while that takes at most this many
   * queries (k choose n for a query of k groups): a query of 2 to 4 groups never reads the any-word
   * pool, one of 5 or 6 does after the pages lacking one, and one of 7 or 8 reads only the pool (eight
   * every-word queries of seven words cost more than one any-word scan: "hash map entry insert remove
   * key value capacity" on the Rust docs 2.9-3.5 ms that way, 4.1-4.9 the other). */
  maxLackingQueries: number;
  /** Queries of more groups (words, phrases, OR groups) than this get none: a pasted sentence's partial
   * matches would each lack a list of words and cost an any-word search with snippets (15-word
   * every-word queries over the Rust docs went from 3 ms to 74 ms p50 on a loaded machine); the
   * no-results page offers the any-word search as a link instead. */
  maxGroups: number;
}

export const DEFAULT_PARTIAL_OPTIONS: Readonly<Omit<PartialOptions, 'belowFullMatches'>> = { poolPerResult: 5, maxLackingQueries: 6, maxGroups: 8 };

/** A partial match: the candidate and what it lacks, as typed (`binary`, `"exact phrase"`, `a OR b`). */
export interface PartialCandidate extends Candidate {
  missing: string[];
}

/** The query loosened to "any of its words" (filters and exclusions kept), or undefined when it has
 * fewer than two required groups (then there is nothing to leave out) or more than `maxGroups`. */
export function anyWordQuery(query: ParsedQuery, maxGroups = DEFAULT_PARTIAL_OPTIONS.maxGroups): ParsedQuery | undefined {
  if (query.required.length < 2 || query.required.length > maxGroups) return undefined;
  return { ...query, required: [query.required.flat()] };
}

/** The query without `lacking` of its required groups, for every choice of them (filters and
 * exclusions kept): the every-word matches of the one without groups G are the pages lacking at
 * most G. */
export function queriesLacking(query: ParsedQuery, lacking: number): ParsedQuery[] {
  const k = query.required.length;
  const out: ParsedQuery[] = [];
  const choose = (from: number, left: number, chosen: readonly number[]): void => {
    if (left === 0) {
      out.push({ ...query, required: query.required.filter((_, i) => !chosen.includes(i)) });
      return;
    }
    for (let g = from; g <= k - left; g++) choose(g + 1, left - 1, [...chosen, g]);
  };
  if (lacking >= 1 && lacking < k) choose(0, lacking, []);
  return out;
}

/** How many queries queriesLacking makes: k choose `lacking`. */
export function lackingCount(k: number, lacking: number): number {
  let n = 1;
  for (let i = 0; i < lacking; i++) n = (n * (k - i)) / (i + 1);
  return n;
}

const showAtom = (atom: QueryAtom): string => (atom.kind === 'phrase' ? `"${atom.text}"` : atom.text);

/** How a missing group is named: its alternatives joined by OR. */
export const groupLabel = (group: readonly AtomPlan[]): string => group.map((a) => showAtom(a.atom)).join(' OR ');

/** One key of an alternative as presence reads it: its postings, and where they count. */
interface KeyPostings {
  list: TermList;
  /** Field index the key is restricted to, -1 for any. */
  field: number;
  /** The pages' language the key is restricted to (KeyPlan.language), if any. */
  language: string | undefined;
}

/**
 * For a plan's groups, whether a document has group g: every key of one alternative of one of its
 * atoms, where the key counts (its field, its language), as the match masks say it. A phrase counts
 * when its words are all there: a partial match is not checked for word order. Each key's postings
 * are looked up once, here, not once a document and atom: a pool of 50 documents asked of four
 * groups made 400 lookups and as many closures.
 */
export function groupPresence(gen: IndexGeneration, plan: Pick<QueryPlan, 'groups' | 'keys'>): (group: number, doc: number) => boolean {
  const byBit = new Map<number, KeyPostings>();
  for (const k of plan.keys) {
    // A phrase's pair terms (shared/index-format phrase-pairs.ts) are its word order, which a
    // partial match is not checked for.
    if (k.bit < 0 || isPhrasePairToken(k.token)) continue;
    byBit.set(k.bit, { list: gen.lists.list(k.term), field: k.field, language: k.language });
  }
  const resolved = plan.groups.map((group) => group.flatMap((atom) => atom.alternatives.map((alt) => alt.bits.flatMap((b) => byBit.get(b) ?? []))));
  const language = gen.docs.language;
  return (group, doc) => {
    for (const keys of resolved[group]!) if (hasEvery(keys, doc, language.at(doc)!)) return true;
    return false;
  };
}

function hasEvery(keys: readonly KeyPostings[], doc: number, language: string): boolean {
  for (const { list, field, language: only } of keys) {
    if (only !== undefined && only !== language) return false;
    const p = findPosting(list.docs, 0, list.docs.length, doc);
    if (p < 0) return false;
    if (field < 0) continue;
    list.frequencies(p, tfs);
    if (tfs[field] === 0) return false;
  }
  return true;
}

/** Reused by hasEvery: one posting's frequencies. */
const tfs = new Uint8Array(FIELD_COUNT);

/**
 * The best `limit` partial matches among `pool` (ranked candidates of the any-word query): documents
 * not in `full`, missing at least one of the plan's groups and not all, most groups first, then score.
 */
export function pickPartial(
  pool: readonly Candidate[],
  full: ReadonlySet<number>,
  plan: QueryPlan,
  /** Whether a document has group g of `plan` (groupPresence). */
  present: (group: number, doc: number) => boolean,
  limit: number,
): PartialCandidate[] {
  // Missing groups as their numbers, named only for the matches kept: a pool is 5 a match wanted.
  const out: { c: Candidate; missing: number[] }[] = [];
  const groups = plan.groups;
  for (const c of pool) {
    if (full.has(c.doc)) continue;
    const missing: number[] = [];
    for (let g = 0; g < groups.length; g++) if (!present(g, c.doc)) missing.push(g);
    // None missing: the words are there but not as a phrase asks; all missing: only a variant matched.
    if (missing.length === 0 || missing.length === groups.length) continue;
    out.push({ c, missing });
  }
  out.sort((a, b) => a.missing.length - b.missing.length || b.c.score - a.c.score);
  return out.slice(0, limit).map(({ c, missing }) => ({ ...c, missing: missing.map((g) => groupLabel(groups[g]!)) }));
}
