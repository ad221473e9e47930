// How an analysis worker hands its documents' terms to the build thread: by number, each distinct term
// and surface word sent as text once per worker, the first time that worker meets it (up to a bound:
// MAX_DICTIONARY_STRINGS).
//
// Why: sent as strings, every analysed document arrived as about 1,200 new strings (its distinct terms
// and their surface words), made in the build thread's heap only to be looked up in the term table and
// dropped: 591 MB over the Rust docs' 21,187 pages, most of that thread's allocation while it analyses.
// That thread's heap holds what a large build keeps (the link graph's strings, every document's
// figures), and there each young-generation collection costs more: with 4 GB live, the Rust docs'
// analysis took twice as long (DESIGN.md). By number, a document arrives as two Int32Arrays, and its
// terms are the strings the thread already holds.

import type { AnalyzedDoc } from './analyze-doc.js';
import { TermTranslation } from './term-translation.js';

/** An AnalyzedDoc whose terms and words are numbers: n >= 0 in its worker's dictionary, n < 0 the
 * batch's own string -1 - n (PackedBatch.inline); a word that is its term's own string is SAME_AS_TERM. */
export type PackedDoc = Omit<AnalyzedDoc, 'terms' | 'words'> & { termIds: Int32Array; wordIds: Int32Array };

/** A batch's analyses, with the terms and words its worker met for the first time in it, in number
 * order, and the strings sent with this batch only (once the dictionary is full). */
export interface PackedBatch {
  docs: PackedDoc[];
  newTerms: string[];
  newWords: string[];
  inline: string[];
}

/** Strings a worker's dictionary keeps, terms and words each. A site's vocabulary goes on growing with
 * its pages (names, numbers, identifiers), and every worker would hold it all beside the build's own
 * term table; past this, a new string is sent with its batch each time, as before. About 100 bytes an
 * entry: some 50 MB a dictionary. */
export const MAX_DICTIONARY_STRINGS = 500_000;

/** A word number meaning "the term itself": most words are their term (an unstemmed word, a number, an
 * identifier; 57% of SciFact's), and so need no lookup at all. No batch holds 2^31 inline strings. */
export const SAME_AS_TERM = -0x80000000;

/** The worker's side: numbers its terms and words, for the whole of its life, up to `maxStrings` each. */
export class TermPacker {
  private readonly terms = new Map<string, number>();
  private readonly words = new Map<string, number>();

  constructor(private readonly maxStrings = MAX_DICTIONARY_STRINGS) {}

  pack(analyses: readonly AnalyzedDoc[]): PackedBatch {
    const batch: PackedBatch = { docs: [], newTerms: [], newWords: [], inline: [] };
    for (const { terms, words, ...rest } of analyses) {
      batch.docs.push({ ...rest, termIds: this.numbered(terms, this.terms, batch.newTerms, batch.inline), wordIds: this.numbered(words, this.words, batch.newWords, batch.inline, terms) });
    }
    return batch;
  }

  /** Numbers of `strings`; with `same`, a string equal to its place's there is SAME_AS_TERM. */
  private numbered(strings: readonly string[], known: Map<string, number>, added: string[], inline: string[], same?: readonly string[]): Int32Array {
    const ids = new Int32Array(strings.length);
    for (let i = 0; i < strings.length; i++) {
      const s = strings[i]!;
      if (same !== undefined && s === same[i]) {
        ids[i] = SAME_AS_TERM;
        continue;
      }
      let id = known.get(s);
      if (id === undefined) {
        if (known.size < this.maxStrings) {
          id = known.size;
          known.set(s, id);
          added.push(s);
        } else {
          inline.push(s);
          id = -inline.length; // -1 - its place in `inline`
        }
      }
      ids[i] = id;
    }
    return ids;
  }
}

/** The build thread's side, one per worker: batches must be given in the order the worker sent them. */
export class TermUnpacker {
  private readonly terms: string[] = [];
  private readonly words: string[] = [];
  /** The worker's term numbers as the build's term ids (term-translation.ts), filled in by the build. */
  private readonly translation = new TermTranslation();

  unpack(batch: PackedBatch): AnalyzedDoc[] {
    for (const t of batch.newTerms) this.terms.push(t);
    for (const w of batch.newWords) this.words.push(w);
    return batch.docs.map(({ termIds, wordIds, ...rest }) => {
      const terms = this.strings(termIds, this.terms, batch.inline);
      return { ...rest, terms, words: this.strings(wordIds, this.words, batch.inline, terms), numbered: { numbers: termIds, translation: this.translation } };
    });
  }

  private strings(ids: Int32Array, table: readonly string[], inline: readonly string[], same?: readonly string[]): string[] {
    const out = new Array<string>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const n = ids[i]!;
      const s = n === SAME_AS_TERM ? same?.[i] : n >= 0 ? table[n] : inline[-1 - n];
      if (s === undefined) throw new RangeError(`term number ${ids[i]!} was never sent`);
      out[i] = s;
    }
    return out;
  }
}
