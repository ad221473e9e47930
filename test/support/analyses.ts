// Analyses compared with what analyzeDoc makes: a worker's come with their terms and words by number
// (indexer/term-wire.ts), read here into the arrays analyzeDoc gives.

import type { AnalyzedDoc } from '../../indexer/analyze-doc.js';
import type { PooledAnalysis } from '../../indexer/analyze-pool.js';

/** The analysis with its terms, words and forms as strings, without the numbers a thread sent them by. */
export function asAnalyzed(a: PooledAnalysis): AnalyzedDoc {
  if (!('numbered' in a)) return a;
  const { numbered, ...rest } = a;
  return {
    ...rest,
    terms: Array.from(numbered.numbers, (_, s) => numbered.term(s)),
    words: Array.from(numbered.numbers, (_, s) => numbered.word(s)),
    // Sparse as sent: map keeps the holes.
    forms: numbered.forms.map((list) => list?.map((n) => numbered.text(n))),
  };
}
