// A page's opening says what it is about (issue 14): a man page's NAME line ("git-clean - Remove
// untracked files from the working tree"), rustdoc's one-line description, the first paragraph of a
// library module. BM25F counts how often a word appears, not where: "remove untracked files" met
// git-update-index, which says "untracked" 28 times in passing, before git-clean, whose opening line is
// the query. So of the best-scored results, a page whose body opens (its first `leadWords` places, the
// description first, template text already left out) with the query's words is multiplied by up to
// 1 + `weight`: 1 + weight x (share of the query's plain words found there). Pure: the positions come in
// through a function. DESIGN.md "A page's opening" has the figures that chose the defaults.

import { reorderPool } from './reorder-pool.js';

/** Defaults of LeadOptions. */
export const DEFAULT_LEAD_OPTIONS: Readonly<LeadOptions> = { poolSize: 10, leadWords: 20, weight: 0.1 };

export interface LeadOptions {
  /** Results, best first, that may be reordered; the rest keep their order after them. 10, a page of
   * results: a pool of 30 measured the same and made one-word queries ask for three times the results. */
  poolSize: number;
  /** The opening is the body's first this many word places. */
  leadWords: number;
  /** The factor's ceiling above 1, reached when every query word stands in the opening; 0 turns it off. */
  weight: number;
}

/** A result as ranked: its score and, once the rule has looked at it, its factor. */
export interface LeadRanked {
  score: number;
  /** Of the query's words, how many stand in the page's opening, and the factor applied. */
  lead?: { words: number; opening: number; factor: number };
}

/**
 * `ranked` (best first) with its first `poolSize` entries reordered by score x factor;
 * `firstBodyPlaceOf(entry, token)` gives the first body place of a token in that entry's page (-1:
 * none). Ties keep their order; entries after the pool keep theirs, below it (factors are at least 1).
 * Reorders `ranked` and its entries in place (reorder-pool.ts) and returns it.
 */
export function openingFirst<T extends LeadRanked>(
  ranked: T[],
  words: ReadonlySet<string>,
  firstBodyPlaceOf: (entry: T, token: string) => number,
  options: LeadOptions = DEFAULT_LEAD_OPTIONS,
): T[] {
  if (words.size === 0 || options.weight === 0) return ranked;
  return reorderPool(ranked, options.poolSize, (entry) => {
    let opening = 0;
    for (const token of words) {
      const first = firstBodyPlaceOf(entry, token);
      if (first >= 0 && first < options.leadWords) opening++;
    }
    const factor = 1 + (options.weight * opening) / words.size;
    entry.score *= factor;
    entry.lead = { words: words.size, opening, factor };
  });
}
