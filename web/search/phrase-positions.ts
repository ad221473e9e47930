// Phrases answered from the index's word positions (shared/index-format positions.ts): a document has
// a phrase when the positions of its words, read from their postings, hold a run. No stored text is
// read, so checking a candidate costs a few binary searches and the decoding of the positions it needs.

import { FIELDS, hasEncodedRun, newRunScratch, type IndexGeneration, type PositionsRange, type TermPositions } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

/** A phrase's words as a query checks them: each word's documents and positions, looked up once per query. */
export interface PhraseTerms {
  docs: Uint32Array[];
  positions: TermPositions[];
}

export class PositionReader {
  private readonly scratch = newRunScratch();
  private from = new Int32Array(8);
  private to = new Int32Array(8);
  private readonly bytes: Uint8Array[] = [];
  private readonly range: PositionsRange = { bytes: new Uint8Array(0), from: 0, to: 0 };

  constructor(
    private readonly gen: IndexGeneration,
    private readonly termId: (token: string) => number | undefined,
  ) {}

  /** The lists of a phrase's words, read once per query (not once per candidate); undefined when one is not in the index. */
  terms(tokens: readonly string[]): PhraseTerms | undefined {
    const out: PhraseTerms = { docs: [], positions: [] };
    for (const token of tokens) {
      const term = this.termId(token);
      if (term === undefined) return undefined;
      out.docs.push(this.gen.lists.list(term).docs);
      out.positions.push(this.gen.lists.positions(term));
    }
    return out;
  }

  /** Whether the words `terms` (from `terms()`) stand in a row in document `doc` (in `field` only, when given). */
  inRow(doc: number, terms: PhraseTerms | undefined, field?: (typeof FIELDS)[number]): boolean {
    if (terms === undefined || terms.docs.length === 0) return false;
    const n = terms.docs.length;
    if (this.from.length < n) {
      this.from = new Int32Array(n);
      this.to = new Int32Array(n);
    }
    const { from, to, bytes } = this;
    for (let k = 0; k < n; k++) {
      const docs = terms.docs[k]!;
      const p = findPosting(docs, 0, docs.length, doc);
      if (p < 0) return false;
      const { bytes: b, from: f, to: t } = terms.positions[k]!.locate(p, this.range);
      from[k] = f;
      to[k] = t;
      bytes[k] = b;
      if (t === f) return false;
    }
    return hasEncodedRun(bytes, from, to, field === undefined ? -1 : FIELDS.indexOf(field), this.scratch, n);
  }
}
