// How one term's postings are compressed on disk (postings.bin and positions.bin, a term after another,
// each term's bytes found by term-offsets.bin). Read a term at a time (posting-lists.ts) and decoded
// once into the typed arrays the searcher scans, so the hot loops never see the compressed form; a
// list's frequencies may stay in it (StoredFrequencies) until a scan asks for all of them.
//
// postings.bin, per term of n postings:
//   n documents as gaps from the previous one (the first from 0), variable-byte;
//   n times: a byte with bit f set for each field f the term is in (FIELDS order), then that many
//            frequencies, a byte each (capped at 255 as before).
// positions.bin, per term: n byte lengths, variable-byte, then the n postings' positions one after
//   another (positions.ts: ascending deltas, variable-byte).
// Variable-byte: 7 bits a byte, low bits first, the high bit set on every byte but the last.
// On the Rust docs, 9 bytes a posting (a Uint32 document and 5 frequency bytes) become about 3, and
// the 4 bytes a posting of position-offsets.bin about 1 (figures in DESIGN.md).

import { FIELD_COUNT } from './index-format.js';

/** The last sum readRunningSums made, before it was stored (a sum past 2^32 wraps in a Uint32Array). */
let lastRunningSum = 0;

/**
 * Reads `n` variable-byte numbers from bytes[at...] and writes their running sums to out[outAt...]
 * (documents from their gaps, offsets from lengths); returns where they end, past bytes.length when
 * the bytes end early. One loop for both, written for speed: lists are decoded when first read, at
 * about 10 ns a posting.
 */
function readRunningSums(bytes: Uint8Array, at: number, n: number, out: Uint32Array, outAt: number): number {
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let b = bytes[at++] ?? 0;
    let value = b & 0x7f;
    for (let scale = 0x80; b > 0x7f; scale *= 0x80) {
      b = bytes[at++] ?? 0;
      value += (b & 0x7f) * scale;
    }
    sum += value;
    out[outAt + p] = sum;
  }
  lastRunningSum = sum;
  return at;
}

function checkEnd(at: number, bytes: Uint8Array, what: string): void {
  if (at > bytes.length) throw new RangeError(`a term's ${what} need ${at} bytes, the index holds ${bytes.length}`);
}

/**
 * Reads `n` postings' field frequencies from bytes[at...] (a mask of the fields present, then each
 * present field's frequency) into tfs; returns where they end. A function of its own, as every hot
 * loop here: a loop followed by other code in the same function was compiled on the stack and that
 * code thrown away after the loop, for every list read (`node --trace-deopt` under `serve`: 742 times
 * in 10 s).
 */
function readFrequencies(bytes: Uint8Array, at: number, n: number, tfs: Uint8Array): number {
  for (let p = 0; p < n; p++) {
    for (let mask = bytes[at++] ?? 0, to = p * FIELD_COUNT; mask !== 0; mask >>= 1, to++) if (mask & 1) tfs[to] = bytes[at++] ?? 0;
  }
  return at;
}

/** Postings a start is kept for in StoredFrequencies and PositionStarts: reading one posting's steps
 * over at most this many less one postings' before it. */
const START_EVERY = 16;

/** Set bits of each byte: a mask's count of frequency bytes after it. */
const BITS = Uint8Array.from({ length: 256 }, (_, mask) => {
  let bits = 0;
  for (let m = mask; m !== 0; m >>= 1) bits += m & 1;
  return bits;
});

/**
 * A term's field frequencies as postings.bin stores them (a mask, then a byte per field present),
 * read posting by posting, or decoded whole. Decoded, they take FIELD_COUNT bytes a posting; stored,
 * about 2.3 on the Rust docs, and a query galloping through a common word's list reads a few of them.
 */
export class StoredFrequencies {
  constructor(
    /** The term's frequency bytes, n postings of them. */
    private readonly bytes: Uint8Array,
    /** Where the frequencies of postings 0, START_EVERY, 2 x START_EVERY, ... start in `bytes`. */
    private readonly blockStarts: Uint32Array,
    readonly n: number,
  ) {}

  /** The bytes this holds. */
  get byteLength(): number {
    return this.bytes.byteLength + this.blockStarts.byteLength;
  }

  /** Writes posting p's FIELD_COUNT frequencies to out[at, at + FIELD_COUNT). */
  read(p: number, out: Uint8Array, at = 0): void {
    const { bytes } = this;
    let i = this.startOf(p);
    let mask = bytes[i++]!;
    for (let f = 0; f < FIELD_COUNT; f++, mask >>= 1) out[at + f] = mask & 1 ? bytes[i++]! : 0;
  }

  /** Writes the frequencies of postings [from, from + count) to out[0, count x FIELD_COUNT). */
  readRange(from: number, count: number, out: Uint8Array): void {
    out.fill(0, 0, count * FIELD_COUNT);
    readFrequencies(this.bytes, this.startOf(from), count, out);
  }

  /** Where posting p's frequencies start in `bytes`. */
  private startOf(p: number): number {
    const { bytes } = this;
    let i = this.blockStarts[Math.floor(p / START_EVERY)]!;
    for (let q = p - (p % START_EVERY); q < p; q++) i += 1 + BITS[bytes[i]!]!;
    return i;
  }

  /** Every posting's frequencies, FIELD_COUNT each (TermList.tfs). */
  decodeAll(): Uint8Array {
    const tfs = new Uint8Array(this.n * FIELD_COUNT);
    readFrequencies(this.bytes, 0, this.n, tfs);
    return tfs;
  }
}

/**
 * The `n` postings encoded in `bytes`: documents decoded, frequencies kept as stored (copied out of
 * `bytes`, which may be reused). Throws on bytes that end early or name a document past `documents`.
 */
export function decodeTermDocs(bytes: Uint8Array, n: number, documents: number): { docs: Uint32Array; frequencies: StoredFrequencies } {
  const docs = new Uint32Array(n);
  const start = readRunningSums(bytes, 0, n, docs, 0);
  // Gaps are never negative, so the last sum is the largest document.
  if (n > 0 && lastRunningSum >= documents) throw new RangeError(`a term's postings name document ${lastRunningSum}, of ${documents}`);
  const blockStarts = new Uint32Array(Math.ceil(n / START_EVERY));
  const end = frequencyBlockStarts(bytes, start, n, blockStarts);
  checkEnd(end, bytes, 'postings');
  return { docs, frequencies: new StoredFrequencies(bytes.slice(start, end), blockStarts, n) };
}

/** Steps over `n` postings' frequencies from bytes[start...], noting where each block's start
 * (relative to `start`); returns where they end, past bytes.length when the bytes end early. */
function frequencyBlockStarts(bytes: Uint8Array, start: number, n: number, blockStarts: Uint32Array): number {
  let at = start;
  for (let p = 0; p < n; p++) {
    if (p % START_EVERY === 0) blockStarts[p / START_EVERY] = at - start;
    at += 1 + BITS[bytes[at] ?? 0]!;
  }
  return at;
}

/** The positions of `n` postings encoded in `bytes`: posting i's are bytes[offsets[i], offsets[i + 1]). */
export function decodeTermPositions(bytes: Uint8Array, n: number): { bytes: Uint8Array; offsets: Uint32Array } {
  const { offsets, start } = decodePositionOffsets(bytes, n, bytes.length);
  return { bytes: bytes.subarray(start, start + offsets[n]!), offsets };
}

/**
 * Where each of `n` postings' positions lie, from the lengths that open a term's positions: `head` is
 * the term's first bytes, holding at least all n lengths, `termBytes` its whole size. Posting i's
 * positions are the term's bytes [start + offsets[i], start + offsets[i + 1]). Lets a reader take a
 * long list's positions posting by posting, never all of them (posting-lists.ts).
 */
export function decodePositionOffsets(head: Uint8Array, n: number, termBytes: number): { offsets: Uint32Array; start: number } {
  const offsets = new Uint32Array(n + 1);
  const start = readRunningSums(head, 0, n, offsets, 1);
  checkEnd(start, head, 'position lengths');
  if (start + offsets[n]! > termBytes) throw new RangeError(`a term's positions need ${start + offsets[n]!} bytes, the index holds ${termBytes}`);
  return { offsets, start };
}

/**
 * Where each posting's positions lie in a long term's positions, worked out from the lengths that open
 * them as a posting is asked for: the lengths are kept as stored (a byte a posting, mostly) with, for
 * every 16th posting, where its length and its positions start. decodePositionOffsets' array is 4 bytes
 * a posting of fresh memory, for a phrase check that reads a few thousand postings of a million.
 */
export class PositionStarts {
  /** The length of the posting the last `startOf` found. */
  lastLength = 0;
  /** startOf's running sums of one block's lengths. */
  private readonly sums = new Uint32Array(START_EVERY);

  constructor(
    /** The term's lengths as stored: n variable-byte numbers. */
    private readonly lengths: Uint8Array,
    /** Per block of START_EVERY postings, where its first length starts in `lengths`. */
    private readonly lengthAt: Uint32Array,
    /** Per block, where its first posting's positions start, after the lengths. */
    private readonly blockStart: Uint32Array,
  ) {}

  /** The bytes this holds. */
  get byteLength(): number {
    return this.lengths.byteLength + this.lengthAt.byteLength + this.blockStart.byteLength;
  }

  /** Where posting p's positions start, after the lengths; sets `lastLength` to how many bytes they take. */
  startOf(p: number): number {
    const b = Math.floor(p / START_EVERY);
    const k = p - b * START_EVERY;
    // The block's lengths up to p's, summed as they go.
    readRunningSums(this.lengths, this.lengthAt[b]!, k + 1, this.sums, 0);
    const before = k === 0 ? 0 : this.sums[k - 1]!;
    this.lastLength = this.sums[k]! - before;
    return this.blockStart[b]! + before;
  }
}

/**
 * A long term's PositionStarts from `head`, its first bytes holding at least all n lengths, and
 * `termBytes`, its whole size; and where its positions start. Throws as decodePositionOffsets does.
 */
export function decodePositionStarts(head: Uint8Array, n: number, termBytes: number): { starts: PositionStarts; start: number } {
  const blocks = Math.ceil(n / START_EVERY);
  const lengthAt = new Uint32Array(blocks);
  const blockStart = new Uint32Array(blocks);
  const { end, total } = lengthBlocks(head, n, lengthAt, blockStart);
  checkEnd(end, head, 'position lengths');
  if (end + total > termBytes) throw new RangeError(`a term's positions need ${end + total} bytes, the index holds ${termBytes}`);
  return { starts: new PositionStarts(head.slice(0, end), lengthAt, blockStart), start: end };
}

/** Steps over `n` variable-byte lengths from bytes[0], noting for each block where its lengths and its
 * positions start; returns where the lengths end and the sum of all. */
function lengthBlocks(bytes: Uint8Array, n: number, lengthAt: Uint32Array, blockStart: Uint32Array): { end: number; total: number } {
  const sums = new Uint32Array(START_EVERY);
  let at = 0;
  let total = 0;
  for (let b = 0; b < lengthAt.length; b++) {
    const count = Math.min(START_EVERY, n - b * START_EVERY);
    lengthAt[b] = at;
    blockStart[b] = total;
    at = readRunningSums(bytes, at, count, sums, 0);
    total += sums[count - 1]!;
  }
  return { end: at, total };
}

/** postings.bin, positions.bin and term-offsets.bin of a generation (encodeRecords). */
export interface EncodedLists {
  postings: Uint8Array;
  positions: Uint8Array;
  /** Term t's postings are postings.bin bytes [termOffsets[t], termOffsets[t + 1]), its positions
   * positions.bin bytes [termOffsets[T + 1 + t], termOffsets[T + 2 + t]), T terms. */
  termOffsets: Float64Array;
}

/** Postings as an indexer collects them: one record per term and document, in ascending document
 * order; record i's positions are positions[positionEnds[i - 1] (0 for the first), positionEnds[i]). */
export interface PostingRecords {
  count: number;
  /** Per record, its term's number (any numbering: `rank` maps it to the files' order). */
  term: Uint32Array;
  doc: Uint32Array;
  /** FIELD_COUNT frequencies per record. */
  tfs: Uint8Array;
  positionEnds: Uint32Array;
  positions: Uint8Array;
}

const varintBytes = (value: number): number => (value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5);

/** Writes `value` as variable-byte at bytes[at...]; returns where it ends. */
function putVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

/**
 * The files of the postings in `records`, term t of the files being the records whose term number n
 * has rank[n] = t (every one of the `terms` ranks has records; a term's records in ascending document
 * order). Passes in record order, each file apart (encodePostingRuns, encodePositionRuns): the first
 * sizes each term's two runs (document gaps and frequencies; position lengths and positions), then one
 * pass a run writes every record into its term's.
 * No layout of the postings term by term is made, and no record is read out of order: laid out first
 * (a counting sort), 14.3 million postings took 4 s of scatter and encoding them 2 s more, and
 * gathering each term's records by number instead (random reads) took 6 s (DESIGN.md "Fresh memory").
 */
export function encodeRecords(records: PostingRecords | RecordParts, rank: Int32Array, terms: number): EncodedLists {
  return joinEncoded(encodePostingRuns(records, rank, terms), encodePositionRuns(records, rank, terms), terms);
}

/** Records in parts, read one after the other as if they were one: an index build keeps its phrase-pair
 * postings apart from the pages' own (indexer/postings.ts), so adding them copies none of the millions
 * before. Each part's positionEnds index its own positions. */
export type RecordParts = readonly PostingRecords[];

const partsOf = (records: PostingRecords | RecordParts): RecordParts => ('count' in records ? [records] : records);

/** One file of encodeRecords: its bytes, and where each term's bytes end (term t's at ends[t + 1];
 * ends[0] = 0). */
export interface EncodedFile {
  bytes: Uint8Array;
  ends: Float64Array;
}

/** encodeRecords' lists from its two files, which encodePostingRuns and encodePositionRuns make apart
 * (they read the same records and write nothing in common: a build may make them on two threads). */
export function joinEncoded(postings: EncodedFile, positions: EncodedFile, terms: number): EncodedLists {
  const termOffsets = new Float64Array(2 * (terms + 1));
  termOffsets.set(postings.ends, 0);
  termOffsets.set(positions.ends, terms + 1);
  return { postings: postings.bytes, positions: positions.bytes, termOffsets };
}

/** postings.bin of encodeRecords: per term, its document gaps then its frequencies. */
export function encodePostingRuns(records: PostingRecords | RecordParts, rank: Int32Array, terms: number): EncodedFile {
  const parts = partsOf(records);
  const last = new Float64Array(terms);
  // Each term's two runs: their sizes after the first pass, then where the next byte of each goes.
  const gapAt = new Float64Array(terms);
  const freqAt = new Float64Array(terms);
  for (const { count, term, doc, tfs } of parts) sizePostingRuns(count, term, doc, tfs, rank, last, gapAt, freqAt);
  const ends = placeRuns(gapAt, freqAt, terms);
  const bytes = new Uint8Array(ends[terms]!);
  // The second pass is one loop a run: each record's writes land in runs far apart, and one loop
  // writing all four runs of both files kept fewer writes in flight than four small loops do (SciFact
  // x20, 19.5 million records: 5.5-5.8 s in one loop, 2.8-3.1 s in four). Written a stretch of terms
  // at a time instead (runs within 2-32 MB, several passes over the records), it took as long or longer.
  last.fill(0);
  for (const { count, term, doc } of parts) writeGaps(count, term, doc, rank, last, gapAt, bytes);
  for (const { count, term, tfs } of parts) writeFrequencies(count, term, tfs, rank, freqAt, bytes);
  return { bytes, ends };
}

/** positions.bin of encodeRecords: per term, its records' position lengths then their positions. */
export function encodePositionRuns(records: PostingRecords | RecordParts, rank: Int32Array, terms: number): EncodedFile {
  const parts = partsOf(records);
  const lengthAt = new Float64Array(terms);
  const positionAt = new Float64Array(terms);
  for (const { count, term, positionEnds } of parts) sizePositionRuns(count, term, positionEnds, rank, lengthAt, positionAt);
  const ends = placeRuns(lengthAt, positionAt, terms);
  const bytes = new Uint8Array(ends[terms]!);
  for (const { count, term, positionEnds } of parts) writePositionLengths(count, term, positionEnds, rank, lengthAt, bytes);
  for (const { count, term, positionEnds, positions } of parts) writePositions(count, term, positionEnds, positions, rank, positionAt, bytes);
  return { bytes, ends };
}

/** Lays out a file whose term t is its first run then its second: given each run's size in `firstAt`
 * and `secondAt`, turns them into where each run starts, and returns where each term's bytes end
 * (term t's at ends[t + 1]; ends[0] = 0). */
function placeRuns(firstAt: Float64Array, secondAt: Float64Array, terms: number): Float64Array {
  const ends = new Float64Array(terms + 1);
  let end = 0;
  for (let t = 0; t < terms; t++) {
    const first = firstAt[t]!;
    firstAt[t] = end;
    end += first + secondAt[t]!;
    secondAt[t] = firstAt[t]! + first;
    ends[t + 1] = end;
  }
  return ends;
}

/** The first pass of encodePostingRuns: adds each record's bytes to its term's two runs. */
function sizePostingRuns(count: number, term: Uint32Array, doc: Uint32Array, tfs: Uint8Array, rank: Int32Array, last: Float64Array, gapAt: Float64Array, freqAt: Float64Array): void {
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const d = doc[i]!;
    gapAt[t]! += varintBytes(d - last[t]!);
    last[t] = d;
    let present = 1;
    for (let f = 0; f < FIELD_COUNT; f++) if (tfs[i * FIELD_COUNT + f]! > 0) present++;
    freqAt[t]! += present;
  }
}

/** The first pass of encodePositionRuns. */
function sizePositionRuns(count: number, term: Uint32Array, positionEnds: Uint32Array, rank: Int32Array, lengthAt: Float64Array, positionAt: Float64Array): void {
  let start = 0;
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const end = positionEnds[i]!;
    lengthAt[t]! += varintBytes(end - start);
    positionAt[t]! += end - start;
    start = end;
  }
}

// The second pass of encodeRecords, a run at a time: `at` holds where each term's next byte goes and is
// moved past what is written.

function writeGaps(count: number, term: Uint32Array, doc: Uint32Array, rank: Int32Array, last: Float64Array, at: Float64Array, out: Uint8Array): void {
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const d = doc[i]!;
    at[t] = putVarint(out, at[t]!, d - last[t]!);
    last[t] = d;
  }
}

function writeFrequencies(count: number, term: Uint32Array, tfs: Uint8Array, rank: Int32Array, at: Float64Array, out: Uint8Array): void {
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const base = i * FIELD_COUNT;
    let to = at[t]!;
    let mask = 0;
    for (let f = 0; f < FIELD_COUNT; f++) if (tfs[base + f]! > 0) mask |= 1 << f;
    out[to++] = mask;
    for (let f = 0; f < FIELD_COUNT; f++) if (tfs[base + f]! > 0) out[to++] = tfs[base + f]!;
    at[t] = to;
  }
}

function writePositionLengths(count: number, term: Uint32Array, positionEnds: Uint32Array, rank: Int32Array, at: Float64Array, out: Uint8Array): void {
  let start = 0;
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const end = positionEnds[i]!;
    at[t] = putVarint(out, at[t]!, end - start);
    start = end;
  }
}

function writePositions(count: number, term: Uint32Array, positionEnds: Uint32Array, positions: Uint8Array, rank: Int32Array, at: Float64Array, out: Uint8Array): void {
  let start = 0;
  for (let i = 0; i < count; i++) {
    const t = rank[term[i]!]!;
    const end = positionEnds[i]!;
    let to = at[t]!;
    // Byte by byte: a record's positions are a few bytes, and a view per record would be an allocation each.
    for (let b = start; b < end; b++) out[to++] = positions[b]!;
    at[t] = to;
    start = end;
  }
}
