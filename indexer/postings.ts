// Collects postings document by document, then lays them out term by term (a stable counting sort),
// the shape the searcher scans. Documents must be added in ascending number order, so every term's
// postings come out ascending.

import { FIELD_COUNT } from '../shared/index-format/index.js';
import type { TermTranslation } from './term-translation.js';

/** Surface words kept per term beside its display word: "partition" keeps "partitions", "partitioning",
 * "partitioned", "partitioner"... enough for a correction to offer the word that was meant. */
export const MAX_FORMS = 6;

export interface PostingsLayout {
  terms: string[];
  words: string[];
  /** Per term, its other surface words, most documents first, space-separated ('' for none). */
  forms: string[];
  /** terms.length + 1 entries. */
  offsets: Uint32Array;
  postings: Uint32Array;
  tfs: Uint8Array;
  /** Per posting, its encoded word positions (shared/index-format positions.ts): posting p's are
   * positions[positionOffsets[p], positionOffsets[p + 1]). */
  positions: Uint8Array;
  positionOffsets: Uint32Array;
}

export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly words: string[] = [];
  /** Documents per term that had its display word (the fast path: most postings) ... */
  private readonly displayDocs: number[] = [];
  /** ... and per other surface word (the terms with several forms only). */
  private readonly formDocs = new Map<number, Map<string, number>>();
  private recTerm = new Uint32Array(1 << 16);
  private recDoc = new Uint32Array(1 << 16);
  private recTf = new Uint8Array((1 << 16) * FIELD_COUNT);
  /** Per record, where its positions end in `recPositions.bytes` (they start where the previous ends). */
  private recPosEnd = new Float64Array(1 << 16);
  private readonly recPositions = { bytes: new Uint8Array(1 << 20) };
  private count = 0;

  /** The term's number, creating it; keeps the shortest display word. Called once per document with
   * the term, so the surface words are counted in documents. */
  termId(term: string, word: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
      this.words.push(word);
      this.displayDocs.push(1);
      return id;
    }
    this.countForm(id, word);
    return id;
  }

  /** termId for a term an analysis thread numbered `n` (NumberedTerms), looked up by its string only
   * the first time the build meets that number; n < 0 (a string sent with its batch) each time. */
  numberedTermId(translation: TermTranslation, n: number, term: string, word: string): number {
    let id = n >= 0 ? translation.get(n) : -1;
    if (id < 0) {
      id = this.termId(term, word);
      if (n >= 0) translation.set(n, id);
      return id;
    }
    this.countForm(id, word);
    return id;
  }

  /** More surface words of a term in one document (AnalyzedDoc.forms), after its termId. */
  addForms(id: number, forms: readonly string[] | undefined): void {
    if (forms) for (const word of forms) this.countForm(id, word);
  }

  private countForm(id: number, word: string): void {
    const display = this.words[id]!;
    if (word === display) {
      this.displayDocs[id]!++;
      return;
    }
    let counts = this.formDocs.get(id);
    if (counts === undefined) this.formDocs.set(id, (counts = new Map<string, number>()));
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (word.length < display.length) {
      // The shorter word becomes the display word: the two swap places in the counts.
      counts.set(display, this.displayDocs[id]!);
      this.displayDocs[id] = counts.get(word)!;
      counts.delete(word);
      this.words[id] = word;
    }
  }

  /** A term's surface words other than its display word, most documents first, at most MAX_FORMS. */
  private formsOf(id: number): string {
    const counts = this.formDocs.get(id);
    if (counts === undefined) return '';
    return [...counts]
      .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
      .slice(0, MAX_FORMS)
      .map(([w]) => w)
      .join(' ');
  }

  /** One posting; `tfs` holds FIELD_COUNT frequencies starting at `tfsAt`, `positions` its encoded
   * word positions from `positionsFrom` to `positionsTo`. */
  add(termId: number, doc: number, tfs: Uint8Array, tfsAt: number, positions: Uint8Array, positionsFrom: number, positionsTo: number): void {
    if (this.count === this.recTerm.length) this.grow();
    const i = this.count++;
    this.recTerm[i] = termId;
    this.recDoc[i] = doc;
    const to = i * FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) this.recTf[to + f] = tfs[tfsAt + f]!;
    const at = i === 0 ? 0 : this.recPosEnd[i - 1]!;
    const length = positionsTo - positionsFrom;
    let buf = this.recPositions.bytes;
    if (at + length > buf.length) {
      buf = new Uint8Array(Math.max(buf.length * 2, at + length));
      buf.set(this.recPositions.bytes.subarray(0, at));
      this.recPositions.bytes = buf;
    }
    // Byte by byte: a posting's positions are a few bytes, and a subarray view per posting was the
    // build thread's largest allocation after the pages themselves (381 MB over the Rust docs).
    for (let b = 0; b < length; b++) buf[at + b] = positions[positionsFrom + b]!;
    this.recPosEnd[i] = at + length;
  }

  private grow(): void {
    const size = this.recTerm.length * 2;
    const term = new Uint32Array(size);
    term.set(this.recTerm);
    const doc = new Uint32Array(size);
    doc.set(this.recDoc);
    const tf = new Uint8Array(size * FIELD_COUNT);
    tf.set(this.recTf);
    this.recTerm = term;
    this.recDoc = doc;
    this.recTf = tf;
    const posEnd = new Float64Array(size);
    posEnd.set(this.recPosEnd);
    this.recPosEnd = posEnd;
  }

  /** Terms in alphabetical order (so the file is deterministic), terms without postings dropped. Once:
   * the builder lets go of its postings. */
  finish(): PostingsLayout {
    const nTerms = this.terms.length;
    const df = new Uint32Array(nTerms);
    for (let i = 0; i < this.count; i++) df[this.recTerm[i]!]!++;
    const order = [...this.terms.keys()].filter((t) => df[t]! > 0).sort((a, b) => cmp(this.terms[a]!, this.terms[b]!));
    const newId = new Int32Array(nTerms).fill(-1);
    const offsets = new Uint32Array(order.length + 1);
    order.forEach((t, rank) => {
      newId[t] = rank;
      offsets[rank + 1] = offsets[rank]! + df[t]!;
    });
    const cursor = offsets.slice(0, order.length);
    const postings = new Uint32Array(this.count);
    const tfs = new Uint8Array(this.count * FIELD_COUNT);
    const slot = new Uint32Array(this.count);
    const positionOffsets = new Uint32Array(this.count + 1);
    for (let i = 0; i < this.count; i++) {
      const t = newId[this.recTerm[i]!]!;
      const at = cursor[t]!++;
      slot[i] = at;
      postings[at] = this.recDoc[i]!;
      for (let f = 0; f < FIELD_COUNT; f++) tfs[at * FIELD_COUNT + f] = this.recTf[i * FIELD_COUNT + f]!;
      positionOffsets[at + 1] = this.recPosEnd[i]! - (i === 0 ? 0 : this.recPosEnd[i - 1]!);
    }
    const totalBytes = this.count === 0 ? 0 : this.recPosEnd[this.count - 1]!;
    if (totalBytes > 0xffffffff) throw new RangeError(`word positions take ${totalBytes} bytes, more than the index format's 4 GiB`);
    for (let p = 0; p < this.count; p++) positionOffsets[p + 1] = positionOffsets[p + 1]! + positionOffsets[p]!;
    const positions = new Uint8Array(totalBytes);
    const bytes = this.recPositions.bytes;
    for (let i = 0; i < this.count; i++) {
      // Byte by byte, as in add(): no view allocated per posting.
      const to = positionOffsets[slot[i]!]!;
      for (let b = i === 0 ? 0 : this.recPosEnd[i - 1]!, end = this.recPosEnd[i]!, at = to; b < end; b++, at++) positions[at] = bytes[b]!;
    }
    // The records are let go: a build keeps its builder until the generation is written, and the
    // records were as large as the layout (500 MB at 100,000 pages).
    this.recTerm = new Uint32Array(0);
    this.recDoc = new Uint32Array(0);
    this.recTf = new Uint8Array(0);
    this.recPosEnd = new Float64Array(0);
    this.recPositions.bytes = new Uint8Array(0);
    this.count = 0;
    return {
      positions,
      positionOffsets,
      terms: order.map((t) => this.terms[t]!),
      words: order.map((t) => this.words[t]!),
      forms: order.map((t) => this.formsOf(t)),
      offsets,
      postings,
      tfs,
    };
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
