// Phrases answered from the index's word positions (shared/index-format positions.ts): a document has
// a phrase when the positions of its words, read from their postings, hold a run. No stored text is
// read, so checking a candidate costs a few binary searches and the decoding of the positions it needs.

import { FIELDS, hasEncodedRun, newRunScratch, type IndexGeneration } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

export class PositionReader {
  private readonly scratch = newRunScratch();
  private from = new Int32Array(8);
  private to = new Int32Array(8);

  constructor(
    private readonly gen: IndexGeneration,
    private readonly termId: (token: string) => number | undefined,
  ) {}

  /** The term numbers of a phrase's words, looked up once per query; undefined when one is not in the index. */
  terms(tokens: readonly string[]): Int32Array | undefined {
    const out = new Int32Array(tokens.length);
    for (let k = 0; k < tokens.length; k++) {
      const term = this.termId(tokens[k]!);
      if (term === undefined) return undefined;
      out[k] = term;
    }
    return out;
  }

  /** Whether the words `terms` (from `terms()`) stand in a row in document `doc` (in `field` only, when given). */
  inRow(doc: number, terms: Int32Array | undefined, field?: (typeof FIELDS)[number]): boolean {
    if (terms === undefined || terms.length === 0) return false;
    const n = terms.length;
    const { offsets, postings, positions, positionOffsets } = this.gen;
    if (this.from.length < n) {
      this.from = new Int32Array(n);
      this.to = new Int32Array(n);
    }
    const { from, to } = this;
    for (let k = 0; k < n; k++) {
      const term = terms[k]!;
      const p = findPosting(postings, offsets[term]!, offsets[term + 1]!, doc);
      if (p < 0) return false;
      from[k] = positionOffsets[p]!;
      to[k] = positionOffsets[p + 1]!;
      if (to[k] === from[k]) return false;
    }
    return hasEncodedRun(positions, from, to, field === undefined ? -1 : FIELDS.indexOf(field), this.scratch, n);
  }
}
