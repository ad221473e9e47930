// Proximity as terms: the pairs of neighbouring words of a short text (a title, one heading, one
// anchor text), stopwords skipped, each as one token "a b". The indexer adds them to those fields and
// the searcher asks for the pairs of the query's words, so "reading and writing files" favours the
// page whose heading says "Reading and Writing Files" over a long page that has the words far apart.
// Body text gets no pairs: measured (issue 14 item 6) as terms of the body field, at today's pair weight,
// they lost everywhere (success@1 / MRR@10 / nDCG@10, bench/site-relevance.ts): Python docs .876 / .919
// / .922 to .838 / .901 / .905, Rust docs .650 / .764 / .713 to .625 / .742 / .709, the intranet
// (bench/intranet.ts) .807 / .865 / .883 to .789 / .856 / .880; IR nDCG@10 (bench/relevance.ts)
// Cranfield .391 to .386, CISI .412 to .411, CACM .526 to .522 (SciFact .694 to .697). A rare pair has a
// high idf, so an incidental neighbour pair in a long body outscores the page that names the topic; and
// the Rust index grew from 93 to 131 MiB (terms 41,729 to 276,534), its build from 120 s to 318 s.
// Proximity in the body is done with word positions instead (web/search/proximity.ts).
// A stopword also pairs with its neighbour ("here document", "if let", "is ownership", "with statement"):
// the query drops the stopword as a word, but the pair says the heading it stands in. Scored at a
// quarter of a pair's weight (web/search/compile.ts stopPair), it took Rust docs .713 / .817 / .755 to
// .738 / .832 / .763 and left Python (.867 / .915 / .921 to .922), the intranet, the unseen sites and IR
// nDCG@10 as they were; at half the weight CACM lost .001, at full weight Python .010 success@1 and
// CACM .002. Rust docs terms 91,172 to 96,936, index 146.2 to 146.9 MiB.

import { isStopword } from './registry.js';

/** Separates the two tokens of a word-pair token; never inside a token (tokens have no spaces). */
export const PAIR_SEPARATOR = ' ';

/** The word pairs of a short text's tokens (without CJK bigrams), in order: neighbours once stopwords
 * are skipped ("Reading and Writing Files": "read write", "write file"), then each stopword with a
 * neighbour that is none ("and write"; "Here Documents": "here document", which the first kind never
 * holds). Two stopwords make no pair. */
export function wordPairs(tokens: readonly string[]): string[] {
  const pairs: string[] = [];
  pairPlaces(tokens, (first, second) => pairs.push(tokens[first]! + PAIR_SEPARATOR + tokens[second]!));
  return pairs;
}

/** wordPairs as places: `pair(i, j)` for each pair of tokens[i] and tokens[j], in wordPairs' order.
 * The rule lives here; an analysis thread that numbers its tokens names pairs by number with it
 * (token-numbers.ts pairNumberOf), the string made only for a pair it has not met. */
export function pairPlaces(tokens: readonly string[], pair: (first: number, second: number) => void): void {
  const stop = tokens.map((t) => isStopword(t));
  let previous = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (stop[i]) continue;
    if (previous >= 0 && tokens[previous] !== tokens[i]) pair(previous, i);
    previous = i;
  }
  for (let i = 0; i + 1 < tokens.length; i++) if (stop[i] !== stop[i + 1]) pair(i, i + 1);
}
