// How an analysis worker hands its documents' terms to the build thread: by number, each distinct term
// and surface word sent as text once per worker, the first time that worker meets it.
//
// Why: sent as strings, every analysed document arrived as about 1,200 new strings (its distinct terms
// and their surface words), made in the build thread's heap only to be looked up in the term table and
// dropped: 591 MB over the Rust docs' 21,187 pages, most of that thread's allocation while it analyses.
// That thread's heap holds what a large build keeps (the link graph's strings, every document's
// figures), and there each young-generation collection costs more: with 4 GB live, the Rust docs'
// analysis took twice as long (DESIGN.md). By number, a document arrives as two Int32Arrays, and its
// terms are the strings the thread already holds.

import type { AnalyzedDoc } from './analyze-doc.js';

/** An AnalyzedDoc whose terms and words are numbers in its worker's dictionary. */
export type PackedDoc = Omit<AnalyzedDoc, 'terms' | 'words'> & { termIds: Int32Array; wordIds: Int32Array };

/** A batch's analyses, with the terms and words its worker met for the first time in it, in number order. */
export interface PackedBatch {
  docs: PackedDoc[];
  newTerms: string[];
  newWords: string[];
}

/** The worker's side: numbers its terms and words, for the whole of its life. */
export class TermPacker {
  private readonly terms = new Map<string, number>();
  private readonly words = new Map<string, number>();

  pack(analyses: readonly AnalyzedDoc[]): PackedBatch {
    const newTerms: string[] = [];
    const newWords: string[] = [];
    const docs = analyses.map(({ terms, words, ...rest }) => ({
      ...rest,
      termIds: numbered(terms, this.terms, newTerms),
      wordIds: numbered(words, this.words, newWords),
    }));
    return { docs, newTerms, newWords };
  }
}

function numbered(strings: readonly string[], known: Map<string, number>, added: string[]): Int32Array {
  const ids = new Int32Array(strings.length);
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i]!;
    let id = known.get(s);
    if (id === undefined) {
      id = known.size;
      known.set(s, id);
      added.push(s);
    }
    ids[i] = id;
  }
  return ids;
}

/** The build thread's side, one per worker: batches must be given in the order the worker sent them. */
export class TermUnpacker {
  private readonly terms: string[] = [];
  private readonly words: string[] = [];

  unpack(batch: PackedBatch): AnalyzedDoc[] {
    for (const t of batch.newTerms) this.terms.push(t);
    for (const w of batch.newWords) this.words.push(w);
    return batch.docs.map(({ termIds, wordIds, ...rest }) => ({ ...rest, terms: this.strings(termIds, this.terms), words: this.strings(wordIds, this.words) }));
  }

  private strings(ids: Int32Array, table: readonly string[]): string[] {
    const out = new Array<string>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const s = table[ids[i]!];
      if (s === undefined) throw new RangeError(`term number ${ids[i]!} was never sent`);
      out[i] = s;
    }
    return out;
  }
}
