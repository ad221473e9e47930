// Pairs of common words, for phrases (Nutch's and Lucene's "common grams"). A phrase is checked on the
// positions of its words in each document that has them all, best first, up to a bound; a rare phrase
// of common words ("pub a", "with fn" on the Rust docs: a handful of pages among thousands holding
// both words) ran out of checks before finding its matches, and its results lacked pages that had it.
// So the indexer adds, for every two words that stand side by side in a document (in one field) and
// are each in at least `minDocs` documents, a term: the pair's token, with the documents that have it
// (no positions, never scored). A phrase asks for the pair terms of its neighbouring common words
// beside its words, so its candidates are the pages that have its pairs: few for a rare phrase,
// whatever its words; and a pair of common words the index lacks is a phrase no page has. A phrase
// with a word in fewer than `minDocs` documents has at most that many candidates, all checked.
//
// The manifest says which words are common (IndexManifest.phrasePairMinDocs): a word's document
// frequency is its posting list's length, the same when the index is built and when it is searched.

/** Joins the two words of a pair token; in no word's token (tokens hold no control characters) nor in
 * the heading word pairs' tokens (shared/analysis pairs.ts, joined by a space). */
export const PHRASE_PAIR_SEPARATOR = '\u0001';

export const phrasePairToken = (first: string, second: string): string => first + PHRASE_PAIR_SEPARATOR + second;

export const isPhrasePairToken = (token: string): boolean => token.includes(PHRASE_PAIR_SEPARATOR);
