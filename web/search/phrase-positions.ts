// Phrases answered from the index's word positions (shared/index-format positions.ts): a document has
// a phrase when the positions of its words, read from their postings, hold a run. No stored text is
// read, so checking a candidate costs a few binary searches and the decoding of its positions.

import { decodePositionsInto, FIELDS, hasRun, type IndexGeneration } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

export class PositionReader {
  /** Scratch lists, one per phrase word, grown to the longest positions seen. */
  private lists: Int32Array[] = [];
  private readonly lengths: number[] = [];

  constructor(
    private readonly gen: IndexGeneration,
    private readonly termId: (token: string) => number | undefined,
  ) {}

  /** Whether `tokens` stand in a row in document `doc` (in `field` only, when given). */
  inRow(doc: number, tokens: readonly string[], field?: (typeof FIELDS)[number]): boolean {
    const n = tokens.length;
    if (n === 0) return false;
    const { offsets, postings, positions, positionOffsets } = this.gen;
    while (this.lists.length < n) this.lists.push(new Int32Array(64));
    this.lengths.length = n;
    for (let k = 0; k < n; k++) {
      const term = this.termId(tokens[k]!);
      if (term === undefined) return false;
      const p = findPosting(postings, offsets[term]!, offsets[term + 1]!, doc);
      if (p < 0) return false;
      const from = positionOffsets[p]!;
      const to = positionOffsets[p + 1]!;
      if (this.lists[k]!.length < to - from) this.lists[k] = new Int32Array(Math.max(to - from, this.lists[k]!.length * 2));
      const count = decodePositionsInto(positions, from, to, this.lists[k]!);
      if (count === 0) return false;
      this.lengths[k] = count;
    }
    return hasRun(this.lists.slice(0, n), field === undefined ? -1 : FIELDS.indexOf(field), this.lengths);
  }
}
