// One document's fields to term frequencies per field. Pure.

import { FIELD_COUNT, MAX_TF, fieldTexts, type StoredDoc } from '../shared/index-format.js';
import { analyze } from '../shared/tokenize.js';

export interface AnalyzedDoc {
  /** Distinct terms in first-seen order. */
  terms: string[];
  /** FIELD_COUNT frequencies per term, aligned with `terms`, capped at MAX_TF. */
  tfs: Uint8Array;
  /** The shortest surface word seen per term, aligned with `terms`. */
  words: string[];
  /** Tokens per field, in FIELDS order. */
  fieldLength: number[];
}

export function analyzeDoc(doc: StoredDoc): AnalyzedDoc {
  const slot = new Map<string, number>();
  const terms: string[] = [];
  const words: string[] = [];
  let counts: number[] = [];
  const fieldLength = new Array<number>(FIELD_COUNT).fill(0);
  const texts = fieldTexts(doc);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const spans = analyze(texts[f]!, doc.language);
    fieldLength[f] = spans.length;
    for (const span of spans) {
      let s = slot.get(span.token);
      if (s === undefined) {
        s = terms.length;
        slot.set(span.token, s);
        terms.push(span.token);
        words.push(span.word);
        for (let k = 0; k < FIELD_COUNT; k++) counts.push(0);
      } else if (span.word.length < words[s]!.length) {
        words[s] = span.word;
      }
      counts[s * FIELD_COUNT + f]!++;
    }
  }
  const tfs = new Uint8Array(counts.length);
  for (let i = 0; i < counts.length; i++) tfs[i] = Math.min(counts[i]!, MAX_TF);
  counts = [];
  return { terms, tfs, words, fieldLength };
}
