// Proximity as terms: the pairs of neighbouring words of a short text (a title, one heading, one
// anchor text), stopwords skipped, each as one token "a b". The indexer adds them to those fields and
// the searcher asks for the pairs of the query's words, so "reading and writing files" favours the
// page whose heading says "Reading and Writing Files" over a long page that has the words far apart.

import { isStopword } from './registry.js';

/** Separates the two tokens of a word-pair token; never inside a token (tokens have no spaces). */
export const PAIR_SEPARATOR = ' ';

/** The word pairs of a short text's tokens (without CJK bigrams), in order. */
export function wordPairs(tokens: readonly string[]): string[] {
  const words = tokens.filter((t) => !isStopword(t));
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const first = words[i]!;
    const second = words[i + 1]!;
    if (first !== second) pairs.push(first + PAIR_SEPARATOR + second);
  }
  return pairs;
}
