// Collects postings document by document (or, for the pages an incremental build reuses, term by
// term), then encodes them term by term, the shape the searcher reads. Each term's postings must be
// added in ascending document order.

import { constants as bufferConstants } from 'node:buffer';
import { GleanerError } from '../shared/errors.js';
import { encodePositionRuns, encodePostingRuns, FIELD_COUNT, FIELDS, joinEncoded, MAX_TF, phrasePairToken, type EncodedFile, type EncodedLists, type PostingRecords, type RecordParts } from '../shared/index-format/index.js';
import { commonPairs } from './phrase-pairs.js';
import type { NumberedTerms } from './term-translation.js';

/** Surface words kept per term beside its display word: "partition" keeps "partitions", "partitioning",
 * "partitioned", "partitioner"... enough for a correction to offer the word that was meant. */
export const MAX_FORMS = 6;

export interface PostingsLayout {
  terms: string[];
  words: string[];
  /** Per term, its other surface words, most documents first, space-separated ('' for none). */
  forms: string[];
  /** terms.length + 1 entries: term t's postings are numbered [offsets[t], offsets[t + 1]). */
  offsets: Uint32Array;
  /** postings.bin, positions.bin and term-offsets.bin (shared/index-format term-codec.ts). */
  lists: EncodedLists;
}

/** Encodes positions.bin of `records` somewhere else (another thread: encode-thread.ts) while `finish`
 * encodes postings.bin; the records are SharedArrayBuffers, read there where they are. */
export type PositionEncoder = (records: RecordParts, rank: Int32Array, terms: number) => Promise<EncodedFile>;

/** A typed array over shared memory, so another thread may read the records without a copy
 * (PositionEncoder); the same to this thread as any other. */
function shared<T>(Kind: { new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number }, length: number): T {
  return new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));
}

/** How the builder sizes its records (the constructor's `sizing`). */
export interface PostingsSizing {
  /** The share of the expected documents added before their rate of records sizes the rest (until then
   * the records double). A crawl's first pages may be far denser than the rest: a million pages whose
   * first 435 were the Python docs' long pages were projected at 961 million records, beyond what a
   * typed array may hold on Node 20, and the build stopped with a RangeError. */
  projectAfterShare: number;
  /** The most elements a typed array may have (`buffer.constants.MAX_LENGTH`: 2^32 on Node 20). */
  maxArrayLength: number;
  /** The most bytes of word positions a build holds, whatever the Node (MAX_POSITION_BYTES). */
  maxPositionBytes: number;
}

/** The most bytes of word positions one build holds (4 GiB, as `finish` refused more before): where a
 * record's positions end is a Uint32, four bytes a record, not a Float64's eight. The records are fresh
 * memory, and each 4 KiB page of it costs the build its first touch (11-18 us on this VM). */
export const MAX_POSITION_BYTES = 0xffffffff;

export const POSTINGS_SIZING: PostingsSizing = {
  projectAfterShare: 1 / 32,
  maxArrayLength: bufferConstants.MAX_LENGTH,
  maxPositionBytes: MAX_POSITION_BYTES,
};

export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Per term, the key of its display word: the shortest of its surface words, the first met of that
   * length. A key names a (term, surface word) pair met, in the order they were first met. */
  private readonly display: number[] = [];
  /** Per term, the key of the first surface word met with it ... */
  private readonly firstForm: number[] = [];
  /** ... and the keys of its others by word (terms with several only). */
  private readonly otherForms = new Map<number, Map<string, number>>();
  /** Per key: its word, the word's length, its term, and the documents that had it. Arrays of numbers:
   * most postings count a word by its key alone (numberedTermId). */
  private readonly formWord: string[] = [];
  private readonly formLength: number[] = [];
  private readonly formTerm: number[] = [];
  private readonly formDocs: number[] = [];
  private recTerm: Uint32Array;
  private recDoc: Uint32Array;
  private recTf: Uint8Array;
  /** Per record, where its positions end in `recPositions.bytes` (they start where the previous ends). */
  private recPosEnd: Uint32Array;
  private readonly recPositions: { bytes: Uint8Array };
  private count = 0;
  /** The phrase-pair postings (addPhrasePairs), kept apart from the pages' own: added to the same
   * arrays at the end of a build, they grew them once more, a copy of every record before them (SciFact
   * x20: 1.2 of the 3.2 s of adding them). The encoders read them all as one (RecordParts). */
  private pairs: readonly PostingRecords[] = [];
  /** The highest document number added so far (-1: none). */
  private highestDoc = -1;
  private readonly sizing: PostingsSizing;
  /** The most records the arrays can hold (a record's frequencies take FIELD_COUNT elements). */
  private readonly maxRecords: number;

  /** `expectedDocuments`: how many documents the build will add (0 when not known), so the records are
   * sized for all of them from the rate of the first ones: grown by doubling, a build of 100,000 pages
   * copied them ten times and touched twice their memory (DESIGN.md "Fresh memory"). `firstRecords`:
   * room for that many to begin with (tests make it small to grow). */
  constructor(
    private readonly expectedDocuments = 0,
    firstRecords = 1 << 16,
    sizing: Partial<PostingsSizing> = {},
  ) {
    this.sizing = { ...POSTINGS_SIZING, ...sizing };
    this.maxRecords = Math.floor(this.sizing.maxArrayLength / FIELD_COUNT);
    firstRecords = Math.min(firstRecords, this.maxRecords);
    this.recTerm = shared(Uint32Array, firstRecords);
    this.recDoc = shared(Uint32Array, firstRecords);
    this.recTf = shared(Uint8Array, firstRecords * FIELD_COUNT);
    this.recPosEnd = shared(Uint32Array, firstRecords);
    this.recPositions = { bytes: shared(Uint8Array, Math.min(firstRecords * 16, this.sizing.maxPositionBytes)) };
  }

  /** The term's number, creating it; keeps the shortest display word. Called once per document with
   * the term, so the surface words are counted in documents. */
  termId(term: string, word: string): number {
    const id = this.ids.get(term);
    if (id === undefined) return this.newTerm(term, word);
    this.countForm(id, this.formKey(id, word));
    return id;
  }

  /**
   * termId for term s of a document an analysis thread numbered (NumberedTerms): the term looked up by
   * its string only the first time the build meets the thread's number for it, and its surface word
   * counted by the thread's number for the word once known (by string for a string sent with its batch,
   * each time).
   */
  numberedTermId(numbered: NumberedTerms, s: number): number {
    const { terms, forms } = numbered.translation;
    const n = numbered.numbers[s]!;
    const w = numbered.wordNumber(s);
    let id = n >= 0 ? terms.get(n) : -1;
    if (id < 0) {
      const term = numbered.term(s);
      const known = this.ids.get(term);
      if (known === undefined) {
        id = this.newTerm(term, numbered.word(s));
        if (n >= 0) terms.set(n, id);
        if (w >= 0) forms.set(w, this.firstForm[id]!);
        return id;
      }
      id = known;
      if (n >= 0) terms.set(n, id);
    }
    this.countForm(id, this.numberedFormKey(id, w, numbered));
    return id;
  }

  /** More surface words of a term in one document (AnalyzedDoc.forms), after its termId. */
  addForms(id: number, forms: readonly string[] | undefined): void {
    if (forms) for (const word of forms) this.countForm(id, this.formKey(id, word));
  }

  /** addForms for term s of a numbered document (NumberedTerms.forms), its term's id `id`: each word
   * counted by the thread's number for it once known, as numberedTermId counts a term's word. */
  addNumberedForms(id: number, numbered: NumberedTerms, s: number): void {
    const list = numbered.forms[s];
    if (list !== undefined) for (const n of list) this.countForm(id, this.numberedFormKey(id, n, numbered));
  }

  /** The key of term `id`'s surface word that the thread numbered `n` (NumberedTerms.text), looked up by
   * its string only the first time the build meets the number (each time for n < 0). */
  private numberedFormKey(id: number, n: number, numbered: NumberedTerms): number {
    const table = numbered.translation.forms;
    let key = n >= 0 ? table.get(n) : -1;
    // A word met with another term before (another language's stem) is looked up for this one.
    if (key < 0 || this.formTerm[key] !== id) {
      key = this.formKey(id, numbered.text(n));
      if (n >= 0) table.set(n, key);
    }
    return key;
  }

  private newTerm(term: string, word: string): number {
    const id = this.terms.length;
    this.ids.set(term, id);
    this.terms.push(term);
    const key = this.newForm(id, word);
    this.firstForm.push(key);
    this.display.push(key);
    this.formDocs[key] = 1;
    return id;
  }

  /** The key of the term's surface word `word`, made (no documents yet) when first met. */
  private formKey(id: number, word: string): number {
    const first = this.firstForm[id]!;
    if (this.formWord[first] === word) return first;
    let others = this.otherForms.get(id);
    if (others === undefined) this.otherForms.set(id, (others = new Map<string, number>()));
    let key = others.get(word);
    if (key === undefined) {
      key = this.newForm(id, word);
      others.set(word, key);
    }
    return key;
  }

  private newForm(id: number, word: string): number {
    const key = this.formWord.length;
    this.formWord.push(word);
    this.formLength.push(word.length);
    this.formTerm.push(id);
    this.formDocs.push(0);
    return key;
  }

  /** One more document with the term's surface word `key`; a shorter word becomes the display word. */
  private countForm(id: number, key: number): void {
    this.formDocs[key]!++;
    const display = this.display[id]!;
    if (key !== display && this.formLength[key]! < this.formLength[display]!) this.display[id] = key;
  }

  /** Per term, its surface words other than its display word, most documents first, at most MAX_FORMS,
   * space-separated ('' for none). The keys gathered by term (a counting sort), in the order met. */
  private allForms(): string[] {
    const nTerms = this.terms.length;
    const starts = new Int32Array(nTerms + 1);
    for (const t of this.formTerm) starts[t + 1]!++;
    for (let t = 0; t < nTerms; t++) starts[t + 1]! += starts[t]!;
    const fill = starts.slice(0, nTerms);
    const keys = new Int32Array(this.formTerm.length);
    this.formTerm.forEach((t, key) => (keys[fill[t]!++] = key));
    const out = new Array<string>(nTerms).fill('');
    for (let t = 0; t < nTerms; t++) {
      if (starts[t + 1]! - starts[t]! < 2) continue;
      out[t] = [...keys.subarray(starts[t], starts[t + 1])]
        .filter((key) => key !== this.display[t])
        .sort((a, b) => this.formDocs[b]! - this.formDocs[a]! || cmp(this.formWord[a]!, this.formWord[b]!))
        .slice(0, MAX_FORMS)
        .map((key) => this.formWord[key]!)
        .join(' ');
    }
    return out;
  }

  /** One posting; `tfs` holds FIELD_COUNT frequencies starting at `tfsAt`, `positions` its encoded
   * word positions from `positionsFrom` to `positionsTo`. */
  add(termId: number, doc: number, tfs: Uint8Array, tfsAt: number, positions: Uint8Array, positionsFrom: number, positionsTo: number): void {
    if (doc > this.highestDoc) this.highestDoc = doc;
    if (this.count === this.recTerm.length) this.grow();
    const i = this.count;
    const at = i === 0 ? 0 : this.recPosEnd[i - 1]!;
    const length = positionsTo - positionsFrom;
    // Room first: a build stopped for its size leaves no half-added record.
    const buf = this.positionRoom(at, length);
    this.count++;
    this.recTerm[i] = termId;
    this.recDoc[i] = doc;
    const to = i * FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) this.recTf[to + f] = tfs[tfsAt + f]!;
    // Byte by byte: a posting's positions are a few bytes, and a subarray view per posting was the
    // build thread's largest allocation after the pages themselves (381 MB over the Rust docs).
    for (let b = 0; b < length; b++) buf[at + b] = positions[positionsFrom + b]!;
    this.recPosEnd[i] = at + length;
  }

  /** A document's postings, its terms' ids in the order of its analysis (AnalyzedDoc): `add` for each,
   * with their frequencies and positions copied whole, as they lie in the same order there. `tfs` holds
   * FIELD_COUNT frequencies a term, `positionEnds` where each term's positions end in `positions`. One
   * copy a document instead of a few bytes a posting: on SciFact x20, `add` was the build thread's
   * second cost (DESIGN.md "A document's postings added at once, its positions gathered flat"). */
  addDocument(termIds: Int32Array, doc: number, tfs: Uint8Array, positions: Uint8Array, positionEnds: Uint32Array): void {
    const n = termIds.length;
    if (n === 0) return;
    if (doc > this.highestDoc) this.highestDoc = doc;
    if (this.count + n > this.maxRecords) throw tooLarge(`${this.maxRecords} postings`);
    while (this.count + n > this.recTerm.length) this.grow();
    const first = this.count;
    const at = first === 0 ? 0 : this.recPosEnd[first - 1]!;
    const length = positionEnds[n - 1]!;
    this.positionRoom(at, length).set(positions.subarray(0, length), at);
    this.recTf.set(tfs.subarray(0, n * FIELD_COUNT), first * FIELD_COUNT);
    const recTerm = this.recTerm;
    const recDoc = this.recDoc;
    const recPosEnd = this.recPosEnd;
    for (let s = 0; s < n; s++) {
      recTerm[first + s] = termIds[s]!;
      recDoc[first + s] = doc;
      recPosEnd[first + s] = at + positionEnds[s]!;
    }
    this.count += n;
  }

  /** The positions' buffer, grown if `length` more bytes from `at` would not fit. */
  private positionRoom(at: number, length: number): Uint8Array {
    let buf = this.recPositions.bytes;
    if (at + length > buf.length) {
      const most = this.sizing.maxPositionBytes;
      if (at + length > most) throw new GleanerError('INDEX_TOO_LARGE', `the pages to index hold more than ${most} bytes of word positions, the most one index build can hold: index fewer pages`);
      const limit = this.sizing.maxArrayLength;
      if (at + length > limit) throw tooLarge(`${limit} bytes of word positions`);
      // Never past `most`: the check above is made only when the buffer is full.
      buf = shared(Uint8Array, Math.min(Math.max(buf.length * 2, at + length, this.projected(at)), limit, most));
      buf.set(this.recPositions.bytes.subarray(0, at));
      this.recPositions.bytes = buf;
    }
    return buf;
  }

  /** What `sofar` of something for the documents up to the highest added so far comes to for the
   * expected documents, with a tenth more (0 past them). By the highest, not the last: an incremental
   * build copies the reused pages' postings term by term (build.ts copyPostings), so a term's first
   * posting may be document 0 after millions of records, and "records so far per document up to 0"
   * asked for 1.4 billion records (`gleaner index` run twice over the Rust docs: RangeError). Nothing
   * (0) before `projectAfterShare` of the expected documents: a few pages are no sample. */
  private projected(sofar: number): number {
    const seen = this.highestDoc + 1;
    const expected = this.expectedDocuments;
    if (expected <= seen || seen < expected * this.sizing.projectAfterShare) return 0;
    return Math.ceil((sofar / seen) * expected * 1.1);
  }

  /** Records (postings) added so far. */
  get records(): number {
    return this.pairs.reduce((n, part) => n + part.count, this.count);
  }

  /** Room for records: how many the build may add before they are grown again. */
  get capacity(): number {
    return this.recTerm.length;
  }

  private grow(): void {
    if (this.count >= this.maxRecords) throw tooLarge(`${this.maxRecords} postings`);
    const size = Math.min(Math.max(this.recTerm.length * 2, this.projected(this.count)), this.maxRecords);
    const term = shared(Uint32Array, size);
    term.set(this.recTerm);
    const docs = shared(Uint32Array, size);
    docs.set(this.recDoc);
    const tf = shared(Uint8Array, size * FIELD_COUNT);
    tf.set(this.recTf);
    this.recTerm = term;
    this.recDoc = docs;
    this.recTf = tf;
    const posEnd = shared(Uint32Array, size);
    posEnd.set(this.recPosEnd);
    this.recPosEnd = posEnd;
  }

  /** Per document (of `documents`), the sum of its postings' body frequencies, and how many postings
   * have one (k1's unit, web/search rank.ts). Before `finish`. */
  bodyFrequencies(documents: number): { bodyFrequency: Uint32Array; postingsWithBody: number } {
    const bodyFrequency = new Uint32Array(documents);
    let postingsWithBody = 0;
    for (let i = 0; i < this.count; i++) {
      const tf = this.recTf[i * FIELD_COUNT + BODY]!;
      if (tf === 0) continue;
      bodyFrequency[this.recDoc[i]!]! += tf;
      postingsWithBody++;
    }
    return { bodyFrequency, postingsWithBody };
  }

  /** Adds the phrase-pair terms (shared/index-format phrase-pairs.ts) of the common words: the
   * `mostWords` words in most documents, each in at least `minDocs` of the `documents`. After every
   * page's postings, before `finish`. Returns the document frequency that makes a word common. */
  addPhrasePairs(documents: number, minDocs: number, mostWords: number): number {
    const before = this.count;
    const df = new Uint32Array(this.terms.length);
    // Words: terms with positions (identifier, fold and heading-pair tokens have none).
    const positioned = new Uint8Array(this.terms.length);
    for (let i = 0; i < before; i++) {
      const t = this.recTerm[i]!;
      df[t]!++;
      if (this.recPosEnd[i]! > (i === 0 ? 0 : this.recPosEnd[i - 1]!)) positioned[t] = 1;
    }
    const wordFrequencies = df.filter((_, t) => positioned[t] === 1).sort();
    const threshold = Math.max(minDocs, wordFrequencies[wordFrequencies.length - mostWords] ?? 0);
    const common = Uint8Array.from(df, (n, t) => (positioned[t] === 1 && n >= threshold ? 1 : 0));
    const ids: number[] = [];
    const records = { count: before, term: this.recTerm, doc: this.recDoc, positionEnds: this.recPosEnd, positions: this.recPositions.bytes };
    const pairs = new PairRecords(this.maxRecords);
    commonPairs(records, common, documents, (doc, pair, first, second, times) => {
      let id = ids[pair];
      if (id === undefined) {
        const token = phrasePairToken(this.terms[first]!, this.terms[second]!);
        ids[pair] = id = this.termId(token, token);
      } else this.formDocs[this.display[id]!]!++;
      pairs.add(id, doc, Math.min(times, MAX_TF));
    });
    this.pairs = pairs.records();
    return threshold;
  }

  /** Terms in alphabetical order (so the file is deterministic), terms without postings dropped, and
   * their postings encoded (shared/index-format encodePostingRuns and encodePositionRuns: from the
   * records in the order they were added, no layout term by term made first); positions.bin by
   * `positionsElsewhere` when given, while this thread encodes postings.bin. Once: the builder lets go
   * of its postings. */
  async finish(positionsElsewhere?: PositionEncoder): Promise<PostingsLayout> {
    const nTerms = this.terms.length;
    const parts: RecordParts = [
      { count: this.count, term: this.recTerm, doc: this.recDoc, tfs: this.recTf, positionEnds: this.recPosEnd, positions: this.recPositions.bytes },
      ...this.pairs,
    ];
    const df = new Uint32Array(nTerms);
    for (const { count, term } of parts) for (let i = 0; i < count; i++) df[term[i]!]!++;
    const order = [...this.terms.keys()].filter((t) => df[t]! > 0).sort((a, b) => cmp(this.terms[a]!, this.terms[b]!));
    const rank = new Int32Array(nTerms).fill(-1);
    const offsets = new Uint32Array(order.length + 1);
    order.forEach((t, r) => {
      rank[t] = r;
      offsets[r + 1] = offsets[r]! + df[t]!;
    });
    const positions = positionsElsewhere?.(parts, rank, order.length);
    // Awaited below; a failure while postings.bin is encoded is not an unhandled rejection.
    positions?.catch(() => {});
    const postings = encodePostingRuns(parts, rank, order.length);
    const lists = joinEncoded(postings, positions ? await positions : encodePositionRuns(parts, rank, order.length), order.length);
    // The records are let go: a build keeps its builder until the generation is written, and the
    // records were as large as the layout (500 MB at 100,000 pages).
    this.recTerm = new Uint32Array(0);
    this.recDoc = new Uint32Array(0);
    this.recTf = new Uint8Array(0);
    this.recPosEnd = new Uint32Array(0);
    this.recPositions.bytes = new Uint8Array(0);
    this.count = 0;
    this.pairs = [];
    const forms = this.allForms();
    return {
      terms: order.map((t) => this.terms[t]!),
      words: order.map((t) => this.formWord[this.display[t]!]!),
      forms: order.map((t) => forms[t]!),
      offsets,
      lists,
    };
  }
}

const BODY = FIELDS.indexOf('body');

/** Phrase-pair postings as addPhrasePairs finds them, document by document: a body frequency each, no
 * positions (every record's end is 0). A quarter as many as the pages' own records on SciFact x20, and
 * far fewer bytes a record. Kept in parts, each twice as large as the one before up to PAIR_PART_MOST
 * records: grown by doubling, every record was copied once more on average and the arrays touched
 * twice the fresh memory they ended with. */
class PairRecords {
  private readonly full: PostingRecords[] = [];
  /** Records in the part being filled, and in the full ones. */
  private count = 0;
  private before = 0;
  private term = shared(Uint32Array, 1 << 16);
  private doc = shared(Uint32Array, 1 << 16);
  private tfs = shared(Uint8Array, (1 << 16) * FIELD_COUNT);

  constructor(private readonly maxRecords: number) {}

  add(term: number, doc: number, tf: number): void {
    if (this.count === this.term.length) {
      if (this.before + this.count >= this.maxRecords) throw tooLarge(`${this.maxRecords} phrase-pair postings`);
      this.full.push(this.part());
      this.before += this.count;
      const size = Math.min(this.term.length * 2, PAIR_PART_MOST, this.maxRecords - this.before);
      this.count = 0;
      this.term = shared(Uint32Array, size);
      this.doc = shared(Uint32Array, size);
      this.tfs = shared(Uint8Array, size * FIELD_COUNT);
    }
    this.term[this.count] = term;
    this.doc[this.count] = doc;
    this.tfs[this.count++ * FIELD_COUNT + BODY] = tf;
  }

  /** The records, part after part, their arrays in shared memory (the encoders may read them on another thread). */
  records(): PostingRecords[] {
    return [...this.full, this.part()];
  }

  private part(): PostingRecords {
    return { count: this.count, term: this.term, doc: this.doc, tfs: this.tfs, positionEnds: shared(Uint32Array, this.count), positions: shared(Uint8Array, 0) };
  }
}

/** The most records in a part of PairRecords: 1 << 20, 13 MiB. */
const PAIR_PART_MOST = 1 << 20;

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The error of a build past what one process's arrays can hold. */
function tooLarge(what: string): GleanerError {
  return new GleanerError(
    'INDEX_TOO_LARGE',
    `the pages to index hold more than ${what}, the most one index build can hold on Node ${process.versions.node}: index fewer pages, or use a newer Node`,
  );
}
