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
// terms are the strings the thread already holds. The worker's tokenizer numbers its words in the same
// dictionary as it meets them (shared/analysis token-numbers.ts), so most terms come numbered already.

import type { AnalyzedDoc } from './analyze-doc.js';
import { TermTranslation, type NumberedTerms } from './term-translation.js';
import { TokenNumbers } from '../shared/analysis/index.js';
import { FIELD_COUNT } from '../shared/index-format/index.js';

/** A document as the build thread gets it from an analysis thread: its terms and words by number,
 * read one string at a time (NumberedTerms). Made into two arrays a document, they were a fifth of the
 * build thread's allocation on SciFact x20 (DESIGN.md "A document's postings added at once, its
 * positions gathered flat"). */
export type UnpackedDoc = Omit<AnalyzedDoc, 'terms' | 'words' | 'forms' | 'tokenNumbers'> & { numbered: NumberedTerms };

/** An AnalyzedDoc without its terms, words and typed arrays, which its batch sends end to end
 * (PackedBatch); `termCount` of them are its, after the batch's documents before it. Its forms are
 * numbers as its terms' are (sent as strings, they were 750,000 strings over SciFact x20 for the build
 * thread to clone and look up in a Map each: DESIGN.md "Surface words counted by number"). */
export type PackedDoc = Omit<AnalyzedDoc, 'terms' | 'words' | 'forms' | 'tokenNumbers' | 'tfs' | 'positions' | 'positionEnds'> & { termCount: number; forms: (number[] | undefined)[] };

/** A batch's analyses, with the strings (terms, words, forms) its worker numbered since its last batch,
 * in number order, and the strings sent with this batch only (once the dictionary is full). The
 * documents' typed arrays are laid end to end, five arrays a batch, and transferred (batchTransfer),
 * not copied: cloned one by one, a document's six arrays cost both threads an allocation each, and the
 * clone was 15 us of the 160 a SciFact abstract takes to analyse (DESIGN.md "Two batches a thread,
 * batches moved, pairs by number"). Term ids are n >= 0 in the worker's dictionary, n < 0 the batch's
 * own string -1 - n (`inline`); a word that is its term's own string is SAME_AS_TERM. A document's
 * positionEnds count from its own positions. */
export interface PackedBatch {
  docs: PackedDoc[];
  termIds: Int32Array;
  wordIds: Int32Array;
  tfs: Uint8Array;
  positions: Uint8Array;
  positionEnds: Uint32Array;
  newStrings: string[];
  inline: string[];
}

/** The buffers a batch's message moves to the other thread rather than copies. */
export const batchTransfer = (batch: PackedBatch): ArrayBuffer[] => [batch.termIds, batch.wordIds, batch.tfs, batch.positions, batch.positionEnds].map((a) => a.buffer as ArrayBuffer);

/** Strings a worker's dictionary keeps, terms and words together. A site's vocabulary goes on growing
 * with its pages (names, numbers, identifiers), and every worker would hold it all beside the build's
 * own term table; past this, a new string is sent with its batch each time, as before. About 100 bytes
 * an entry: some 100 MB a dictionary. */
export const MAX_DICTIONARY_STRINGS = 1_000_000;

/** A word number meaning "the term itself": most words are their term (an unstemmed word, a number, an
 * identifier; 57% of SciFact's), and so need no lookup at all. No batch holds 2^31 inline strings. */
export const SAME_AS_TERM = -0x80000000;

/** The worker's side: numbers its terms and words, for the whole of its life, up to `maxStrings`. The
 * dictionary is `numbers`, which the worker's tokenizer numbers its words with (shared/analysis
 * numberTokens), so a document analysed there comes with its terms' numbers (AnalyzedDoc.tokenNumbers);
 * one analysed with another table, or none, is numbered here by its strings. */
export class TermPacker {
  readonly numbers: TokenNumbers;
  /** How many of `numbers`' strings the batches so far have sent. */
  private sent = 0;

  constructor(maxStrings = MAX_DICTIONARY_STRINGS) {
    this.numbers = new TokenNumbers(maxStrings);
  }

  pack(analyses: readonly AnalyzedDoc[]): PackedBatch {
    const inline: string[] = [];
    let terms = 0;
    let positionBytes = 0;
    for (const a of analyses) {
      terms += a.terms.length;
      positionBytes += a.positions.length;
    }
    const termIds = new Int32Array(terms);
    const wordIds = new Int32Array(terms);
    const tfs = new Uint8Array(terms * FIELD_COUNT);
    const positions = new Uint8Array(positionBytes);
    const positionEnds = new Uint32Array(terms);
    let t = 0;
    let p = 0;
    const docs = analyses.map((a): PackedDoc => {
      const own = a.tokenNumbers?.by === this.numbers ? a.tokenNumbers : undefined;
      const n = a.terms.length;
      this.ids(a.terms, own?.terms, inline, termIds, t);
      this.ids(a.words, own?.words, inline, wordIds, t, { strings: a.terms, ids: termIds });
      tfs.set(a.tfs.subarray(0, n * FIELD_COUNT), t * FIELD_COUNT);
      positions.set(a.positions, p);
      positionEnds.set(a.positionEnds.subarray(0, n), t);
      t += n;
      p += a.positions.length;
      // Sparse, as the forms are: map skips the holes.
      const forms = a.forms.map((list, s) => list?.map((form, k) => this.idOf(form, own?.forms[s]?.[k], inline)));
      return { termCount: n, forms, fieldLength: a.fieldLength, wordMap: a.wordMap };
    });
    // Every string numbered since the last batch, in number order: the build thread's table is then
    // this one (some were numbered by a lookup that sent no term, and cost only their bytes).
    const newStrings = this.numbers.strings.slice(this.sent);
    this.sent = this.numbers.strings.length;
    return { docs, termIds, wordIds, tfs, positions, positionEnds, newStrings, inline };
  }

  /** The number of `text` (`known` when the tokenizer gave it), or -1 - its place in `inline`, where it
   * goes when it has none. */
  private idOf(text: string, known: number | undefined, inline: string[]): number {
    const id = known ?? this.numbers.numberOf(text);
    if (id >= 0) return id;
    inline.push(text);
    return -inline.length;
  }

  /** Numbers of `strings` (`known` when the tokenizer gave them) into `out` from `at`; a string without
   * one goes inline. With `same` (the terms, their numbers in `same.ids` from `at`), a word that is its
   * term's string is SAME_AS_TERM, neither looked up nor sent. */
  private ids(strings: readonly string[], known: Int32Array | undefined, inline: string[], out: Int32Array, at: number, same?: { strings: readonly string[]; ids: Int32Array }): void {
    for (let i = 0; i < strings.length; i++) {
      const id = known !== undefined ? known[i]! : -1;
      // Equal numbers are equal strings; a string without a number is compared as a string.
      if (same !== undefined && (id >= 0 ? id === same.ids[at + i] : strings[i] === same.strings[i])) {
        out[at + i] = SAME_AS_TERM;
        continue;
      }
      out[at + i] = this.idOf(strings[i]!, known?.[i], inline);
    }
  }
}

/** The build thread's side, one per worker: batches must be given in the order the worker sent them. */
export class TermUnpacker {
  private readonly strings: string[] = [];
  /** The worker's term numbers as the build's term ids (term-translation.ts), filled in by the build. */
  private readonly translation = new TermTranslation();

  /** The batch's analyses, their terms and words by number; a number the worker never sent throws a
   * RangeError here, not while the build adds the document. */
  unpack(batch: PackedBatch): UnpackedDoc[] {
    for (const s of batch.newStrings) this.strings.push(s);
    this.check(batch.termIds, batch.inline, false);
    this.check(batch.wordIds, batch.inline, true);
    for (const d of batch.docs) for (const list of d.forms) if (list) this.check(list, batch.inline, false);
    let t = 0;
    let p = 0;
    return batch.docs.map(({ termCount, forms, ...rest }) => {
      const positionEnds = batch.positionEnds.subarray(t, t + termCount);
      const positionBytes = termCount === 0 ? 0 : positionEnds[termCount - 1]!;
      const analysed: UnpackedDoc = {
        ...rest,
        tfs: batch.tfs.subarray(t * FIELD_COUNT, (t + termCount) * FIELD_COUNT),
        positions: batch.positions.subarray(p, p + positionBytes),
        positionEnds,
        numbered: new BatchTerms(batch.termIds.subarray(t, t + termCount), batch.wordIds.subarray(t, t + termCount), forms, this.strings, batch.inline, this.translation),
      };
      t += termCount;
      p += positionBytes;
      return analysed;
    });
  }

  /** Throws a RangeError for a number in `ids` that names no string sent (SAME_AS_TERM allowed when `same`). */
  private check(ids: ArrayLike<number>, inline: readonly string[], same: boolean): void {
    const known = this.strings.length;
    for (let i = 0; i < ids.length; i++) {
      const n = ids[i]!;
      if (n >= 0 ? n < known : (same && n === SAME_AS_TERM) || -1 - n < inline.length) continue;
      throw new RangeError(`term number ${n} was never sent`);
    }
  }
}

/** A document's terms and words by the numbers its batch sent (NumberedTerms), checked by unpack. */
class BatchTerms implements NumberedTerms {
  constructor(
    readonly numbers: Int32Array,
    private readonly wordIds: Int32Array,
    readonly forms: readonly (readonly number[] | undefined)[],
    private readonly strings: readonly string[],
    private readonly inline: readonly string[],
    readonly translation: TermTranslation,
  ) {}

  term(s: number): string {
    return this.text(this.numbers[s]!);
  }

  word(s: number): string {
    const n = this.wordIds[s]!;
    return n === SAME_AS_TERM ? this.term(s) : this.text(n);
  }

  text(n: number): string {
    return n >= 0 ? this.strings[n]! : this.inline[-1 - n]!;
  }

  wordNumber(s: number): number {
    const n = this.wordIds[s]!;
    return n === SAME_AS_TERM ? this.numbers[s]! : n;
  }
}
