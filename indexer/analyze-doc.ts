// One document's fields to term frequencies per field. Pure.

import { FIELD_COUNT, FIELDS, MAX_TF, fieldTexts, type StoredDoc } from '../shared/index-format/index.js';
import { countsInLength, primaryTokens, scanTokens, wordPairs, type TokenSink } from '../shared/analysis/index.js';

export interface AnalyzedDoc {
  /** Distinct terms in first-seen order. */
  terms: string[];
  /** FIELD_COUNT frequencies per term, aligned with `terms`, capped at MAX_TF. */
  tfs: Uint8Array;
  /** The shortest surface word seen per term, aligned with `terms`. */
  words: string[];
  /** The other surface words of a term in this document ("partitioning" beside "partition"), aligned
   * with `terms`; undefined (most terms) when there is none. "Did you mean" offers real words from them. */
  forms: (string[] | undefined)[];
  /** Tokens per field, in FIELDS order. */
  fieldLength: number[];
}

// Per-field counts of the document being analysed, reused across documents (grown when needed).
let scratch = new Uint32Array(1024 * FIELD_COUNT);

export function analyzeDoc(doc: StoredDoc): AnalyzedDoc {
  const slot = new Map<string, number>();
  const terms: string[] = [];
  const words: string[] = [];
  const forms: (string[] | undefined)[] = [];
  const fieldLength = new Array<number>(FIELD_COUNT).fill(0);
  const texts = fieldTexts(doc);
  let field = 0;
  const sink: TokenSink = (token, word, _start, _end, _position, extra) => {
    let s = slot.get(token);
    if (s === undefined) {
      s = terms.length;
      slot.set(token, s);
      terms.push(token);
      words.push(word);
      forms.push(undefined);
      if ((s + 1) * FIELD_COUNT > scratch.length) {
        const bigger = new Uint32Array(scratch.length * 2);
        bigger.set(scratch);
        scratch = bigger;
      }
      scratch.fill(0, s * FIELD_COUNT, (s + 1) * FIELD_COUNT);
    } else if (word !== words[s]) {
      const other = forms[s] ?? (forms[s] = []);
      const kept = word.length < words[s]!.length ? words[s]! : word;
      if (kept === words[s]) words[s] = word;
      if (!other.includes(kept)) other.push(kept);
    }
    scratch[s * FIELD_COUNT + field]!++;
    if (countsInLength(token, extra)) fieldLength[field]!++;
  };
  for (field = 0; field < FIELD_COUNT; field++) scanTokens(texts[field]!, doc.language, sink);
  // Word pairs of the short fields (see shared/analysis wordPairs); they are not words, so the
  // field lengths stay as counted.
  const pairSources: [number, readonly string[]][] = [
    [FIELDS.indexOf('title'), [doc.title]],
    [FIELDS.indexOf('headings'), doc.headings],
    [FIELDS.indexOf('anchor'), doc.anchor],
  ];
  const lengths = [...fieldLength];
  for (const [f, texts] of pairSources) {
    field = f;
    for (const text of texts) for (const pair of wordPairs(primaryTokens(text, doc.language))) sink(pair, pair, 0, 0, 0, false);
  }
  for (let f = 0; f < FIELD_COUNT; f++) fieldLength[f] = lengths[f]!;
  const tfs = new Uint8Array(terms.length * FIELD_COUNT);
  for (let i = 0; i < tfs.length; i++) tfs[i] = Math.min(scratch[i]!, MAX_TF);
  return { terms, tfs, words, forms, fieldLength };
}
