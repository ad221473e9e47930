// Phrases answered from the index's word positions (shared/index-format positions.ts): a document has
// a phrase when the positions of its words, read from their postings, hold a run. No stored text is
// read, so checking a candidate costs a few binary searches and the decoding of its positions.

import { decodePositions, FIELDS, hasRun, type IndexGeneration } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

export class PositionReader {
  private readonly lists: number[][] = [];

  constructor(
    private readonly gen: IndexGeneration,
    private readonly termId: (token: string) => number | undefined,
  ) {}

  /** Whether `tokens` stand in a row in document `doc` (in `field` only, when given). */
  inRow(doc: number, tokens: readonly string[], field?: (typeof FIELDS)[number]): boolean {
    if (tokens.length === 0) return false;
    const { offsets, postings, positions, positionOffsets } = this.gen;
    while (this.lists.length < tokens.length) this.lists.push([]);
    const lists = this.lists.slice(0, tokens.length);
    for (let k = 0; k < tokens.length; k++) {
      const term = this.termId(tokens[k]!);
      if (term === undefined) return false;
      const p = findPosting(postings, offsets[term]!, offsets[term + 1]!, doc);
      if (p < 0 || decodePositions(positions, positionOffsets[p]!, positionOffsets[p + 1]!, lists[k]!) === 0) return false;
    }
    return hasRun(lists, field === undefined ? -1 : FIELDS.indexOf(field));
  }
}
