// Completing the last word of a query in the context of the words before it: "vacuum fr" should offer
// "freeze" (which pages about vacuum say) before "from" or "free" (which more pages say). A completion's
// affinity is c·√(c/df): c how many of its documents hold the earlier words (each document counted once per
// earlier word it holds), df its document count; the vocabulary ranks completions by affinity first,
// then by document frequency.
// Pure given the postings.

import { isFoldToken, isStopword, tokenize } from '../../shared/analysis/index.js';

export interface ContextOptions {
  /** Affinity is worked out for at most this many completions, the most frequent: a bound on the postings read per keystroke. */
  maxCandidates: number;
  /** Postings read per keystroke at most (~1 ms per million); completions past it get no affinity and keep their frequency order. */
  maxPostings: number;
}

export const DEFAULT_CONTEXT_OPTIONS: Readonly<ContextOptions> = { maxCandidates: 200, maxPostings: 1_000_000 };

/** What the context needs of an index: term ids and postings lists. */
export interface PostingsSource {
  termId(token: string): number | undefined;
  /** Document numbers of a term, ascending. */
  postings(term: number): ArrayLike<number>;
  documents: number;
}

/**
 * The affinity of a term to the earlier words of a query, or undefined when those words give no context
 * (none, only stopwords, or none known to the index).
 */
export function contextAffinity(context: string, source: PostingsSource, maxPostings = DEFAULT_CONTEXT_OPTIONS.maxPostings): ((term: number) => number) | undefined {
  const terms = [...new Set(tokenize(context).filter((t) => !isStopword(t) && !isFoldToken(t)))]
    .map((t) => source.termId(t))
    .filter((t): t is number => t !== undefined);
  if (terms.length === 0) return undefined;
  const held = new Uint8Array(source.documents);
  for (const term of terms) {
    const list = source.postings(term);
    for (let i = 0; i < list.length; i++) held[list[i]!] = Math.min(255, held[list[i]!]! + 1);
  }
  let budget = maxPostings;
  return (term) => {
    const list = source.postings(term);
    if (list.length > budget) return 0;
    budget -= list.length;
    let sum = 0;
    for (let i = 0; i < list.length; i++) sum += held[list[i]!]!;
    // Co-occurrences times the share of the completion's documents that hold the earlier words: a word
    // on every page ("in", "is") co-occurs with everything and says nothing of the context.
    return list.length === 0 ? 0 : sum * Math.sqrt(sum / list.length);
  };
}
