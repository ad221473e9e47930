// The postings of an index generation, read a term at a time. Loading a generation used to read the
// postings, frequencies and positions whole: 290 MB and 0.9 s for 106k pages, most of it the kernel
// handing over fresh pages, before the first query; and an index larger than memory could not serve
// at all. Now only offsets.bin and term-offsets.bin (12 bytes a term) are read when a generation
// opens, and a term's documents and frequencies, and its positions, are each read with one `readSync`
// the first time a query needs them, decoded (term-codec.ts; the frequencies only when all of them are
// asked for, one posting's read from their stored form until then), then kept in a cache of at most
// `cacheMiB` (least recently used out). A term's positions are read whole only when they are few
// (`wholePositionBytes`); a longer term keeps only its positions' lengths (where they start worked out
// a posting at a time), and a query reads the postings it checks through small cached blocks of
// positions.bin (position-blocks.ts).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { damagedReadError, decodedOrDamaged } from './damage.js';
import { DEFAULT_POSITION_BLOCKS_OPTIONS, PositionBlocks, type PositionBlocksOptions, type PositionsRange } from './position-blocks.js';
import { FIELD_COUNT, INDEX_FILES } from './index-format.js';
import { decodePositionStarts, decodeTermDocs, decodeTermPositions, type PositionStarts, type StoredFrequencies } from './term-codec.js';

/** One term's postings: its documents, ascending, and FIELD_COUNT frequencies per document. */
export interface TermList {
  readonly term: number;
  readonly docs: Uint32Array;
  /** FIELD_COUNT frequencies per posting, decoded whole the first time they are read. */
  readonly tfs: Uint8Array;
  /** Writes posting p's FIELD_COUNT frequencies to out[at, at + FIELD_COUNT), decoding no other's. */
  frequencies(p: number, out: Uint8Array, at?: number): void;
  /** Writes the frequencies of postings [from, from + count) to out[0, count x FIELD_COUNT): a scan
   * over every posting, a slice at a time, without decoding them all at once as `tfs` does. */
  frequencyRange(from: number, count: number, out: Uint8Array): void;
}

/** A list read from postings.bin: its frequencies decoded whole only when `tfs` is read. A query
 * galloping through a common word's list reads the frequencies of the few postings it reaches, and
 * FIELD_COUNT bytes a posting of fresh memory were a fifth to a third of that list's first read. */
class ReadList implements TermList {
  private whole: Uint8Array | undefined;

  constructor(
    readonly term: number,
    readonly docs: Uint32Array,
    private readonly stored: StoredFrequencies,
    /** Told of the bytes the list grows by when its frequencies are decoded whole. */
    private readonly grew: (list: ReadList, bytes: number) => void,
  ) {}

  get tfs(): Uint8Array {
    if (this.whole === undefined) {
      this.whole = this.stored.decodeAll();
      this.grew(this, this.whole.byteLength);
    }
    return this.whole;
  }

  frequencies(p: number, out: Uint8Array, at = 0): void {
    if (this.whole === undefined) {
      this.stored.read(p, out, at);
      return;
    }
    for (let f = 0; f < FIELD_COUNT; f++) out[at + f] = this.whole[p * FIELD_COUNT + f]!;
  }

  frequencyRange(from: number, count: number, out: Uint8Array): void {
    if (this.whole === undefined) this.stored.readRange(from, count, out);
    else out.set(this.whole.subarray(from * FIELD_COUNT, (from + count) * FIELD_COUNT));
  }
}

/** All of one term's word positions: document i of its list has bytes[offsets[i], offsets[i + 1]) (positions.ts). */
export interface AllPositions {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
}

/** One term's word positions, read posting by posting. */
export interface TermPositions {
  /** Sets `out` to where the positions of the term's posting p are, and returns it. The bytes stay
   * valid after later calls: read them, do not write them. */
  locate(p: number, out: PositionsRange): PositionsRange;
}

export interface PostingListsOptions {
  /** The most the cache of read lists holds, in MiB; 0 keeps nothing (a build reading each term once). */
  cacheMiB: number;
  /** A term's positions are read whole up to this many bytes, and posting by posting beyond. */
  wholePositionBytes: number;
  /** How positions beyond wholePositionBytes are read and kept. */
  positionBlocks: PositionBlocksOptions;
}

/**
 * wholePositionBytes 1 MiB: a term read whole costs about 70 ns a posting on this VM (15 bytes of
 * positions and offsets, most of it fresh memory) and serves every later query; a posting read through
 * a missed 4 KiB block costs about 25 us and serves only the postings in that block. Every Rust docs
 * term is read whole (the largest has 0.3 MiB); at a million pages the 164 largest terms, 51% of the
 * positions and up to 19 MiB each, are read by blocks. 600 distinct queries of common words there
 * (pairs, OR, phrases), each once in a fresh process: 13.0-13.5 s all read whole, 11.3-12.8 s this way,
 * 11.7-12.7 s at 64 KiB (DESIGN.md).
 */
export const DEFAULT_POSTING_LISTS_OPTIONS: Readonly<PostingListsOptions> = { cacheMiB: 512, wholePositionBytes: 1024 * 1024, positionBlocks: DEFAULT_POSITION_BLOCKS_OPTIONS };

/** A term's positions read whole. */
class WholePositions implements TermPositions {
  constructor(
    readonly bytes: Uint8Array,
    readonly offsets: Uint32Array,
  ) {}

  locate(p: number, out: PositionsRange): PositionsRange {
    out.bytes = this.bytes;
    out.from = this.offsets[p]!;
    out.to = this.offsets[p + 1]!;
    return out;
  }
}

/** A term's positions read posting by posting through the blocks of positions.bin. */
class PagedPositions implements TermPositions {
  constructor(
    private readonly blocks: PositionBlocks,
    /** Where in positions.bin posting 0's positions start. */
    private readonly base: number,
    readonly starts: PositionStarts,
  ) {}

  locate(p: number, out: PositionsRange): PositionsRange {
    const from = this.starts.startOf(p);
    this.blocks.locate(this.base + from, this.starts.lastLength, out);
    // A block past the end of a file cut short before it was opened comes back short.
    if (out.to > out.bytes.length) throw damagedReadError(`${INDEX_FILES.positions} ends early, at byte ${this.base + from}`);
    return out;
  }
}

type Entry = ReadList | WholePositions | PagedPositions;

export class PostingLists {
  private readonly fds: { postings: number; positions: number };
  /** Lists under 2t, positions under 2t + 1, each with the count of reads when it was last asked for. */
  private readonly cache = new Map<number, { entry: Entry; bytes: number; lastUse: number }>();
  private cachedBytes = 0;
  private uses = 0;
  private isClosed = false;
  private readonly maxBytes: number;
  private readonly wholePositionBytes: number;
  private readonly blocks: PositionBlocks;
  /** Reused for bytes read only to be decoded (a list's, the lengths opening a long term's positions):
   * fresh memory costs its first touch, about 4 ms a MiB on this VM. */
  private scratch = new Uint8Array(0);

  constructor(
    dir: string,
    /** offsets.bin: term t's postings are numbers [offsets[t], offsets[t + 1]). */
    readonly offsets: Uint32Array,
    /** term-codec.ts EncodedLists.termOffsets: where each term's bytes are. */
    readonly termOffsets: Float64Array,
    /** Documents in the generation: a list naming one past them is damaged. */
    readonly documents: number,
    options: Partial<PostingListsOptions> = {},
  ) {
    const all = { ...DEFAULT_POSTING_LISTS_OPTIONS, ...options };
    this.maxBytes = all.cacheMiB * 1024 * 1024;
    this.wholePositionBytes = all.wholePositionBytes;
    const opened: number[] = [];
    try {
      for (const name of [INDEX_FILES.postings, INDEX_FILES.positions]) opened.push(openSync(join(dir, name), 'r'));
    } catch (e) {
      for (const fd of opened) closeSync(fd);
      throw e;
    }
    const [postings, positions] = opened as [number, number];
    this.fds = { postings, positions };
    const positionsBytes = fstatSync(positions).size;
    this.blocks = new PositionBlocks((at, length) => this.read(positions, at, length), positionsBytes, all.positionBlocks);
  }

  /** Terms in the generation. */
  get terms(): number {
    return this.offsets.length - 1;
  }

  /** MiB the cache holds now. */
  get cachedMiB(): number {
    return this.cachedBytes / (1024 * 1024);
  }

  /** Whether close() was called: nothing may be read after it. */
  get closed(): boolean {
    return this.isClosed;
  }

  docFreq(term: number): number {
    return this.offsets[term + 1]! - this.offsets[term]!;
  }

  list(term: number): TermList {
    // The read is a method of its own: its closure would otherwise make every call, hits included,
    // allocate a context for the variables it captures (56 bytes a call, several hundred calls a query).
    return (this.recall(2 * term) as TermList | undefined) ?? this.readList(term);
  }

  private readList(term: number): TermList {
    const from = this.termOffsets[term]!;
    const bytes = this.readScratch(this.fds.postings, from, this.termOffsets[term + 1]! - from);
    const { docs, frequencies } = decodedOrDamaged(() => decodeTermDocs(bytes, this.docFreq(term), this.documents), INDEX_FILES.postings);
    const list = new ReadList(term, docs, frequencies, this.grew);
    this.keep(2 * term, list, docs.byteLength + frequencies.byteLength);
    return list;
  }

  /** A kept list's frequencies decoded whole: the cache counts them from now on. */
  private readonly grew = (list: ReadList, bytes: number): void => {
    const kept = this.cache.get(2 * list.term);
    if (kept?.entry !== list) return;
    kept.bytes += bytes;
    this.cachedBytes += bytes;
  };

  positions(term: number): TermPositions {
    return (this.recall(2 * term + 1) as TermPositions | undefined) ?? this.readPositions(term);
  }

  private readPositions(term: number): TermPositions {
    const at = this.terms + 1 + term;
    const from = this.termOffsets[at]!;
    const length = this.termOffsets[at + 1]! - from;
    const n = this.docFreq(term);
    let entry: WholePositions | PagedPositions;
    if (length <= this.wholePositionBytes) {
      const { bytes, offsets } = decodedOrDamaged(() => decodeTermPositions(this.read(this.fds.positions, from, length), n), INDEX_FILES.positions);
      entry = new WholePositions(bytes, offsets);
    } else {
      // The lengths take at most 5 bytes a posting (variable-byte, below 2^32).
      const head = this.readScratch(this.fds.positions, from, Math.min(length, 5 * n));
      const { starts, start } = decodedOrDamaged(() => decodePositionStarts(head, n, length), INDEX_FILES.positions);
      entry = new PagedPositions(this.blocks, from + start, starts);
    }
    this.keep(2 * term + 1, entry, entry instanceof WholePositions ? entry.offsets.byteLength + entry.bytes.byteLength : entry.starts.byteLength);
    return entry;
  }

  /** All of a term's positions at once, not kept (an incremental build copying a term). */
  allPositions(term: number): AllPositions {
    const at = this.terms + 1 + term;
    const from = this.termOffsets[at]!;
    return decodedOrDamaged(() => decodeTermPositions(this.read(this.fds.positions, from, this.termOffsets[at + 1]! - from), this.docFreq(term)), INDEX_FILES.positions);
  }

  /** MiB the blocks of long terms' positions hold now. */
  get positionBlocksMiB(): number {
    return this.blocks.cachedMiB;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const fd of Object.values(this.fds)) closeSync(fd);
    this.cache.clear();
    this.cachedBytes = 0;
    this.blocks.clear();
  }

  private read(fd: number, position: number, length: number): Uint8Array {
    // A closed descriptor's number may already name another file: never read through it.
    if (this.isClosed) throw new Error('posting lists read after their index generation was closed');
    return readRange(fd, position, length, new Uint8Array(length));
  }

  /** `read` into the scratch buffer: valid until the next call. */
  private readScratch(fd: number, position: number, length: number): Uint8Array {
    if (this.isClosed) throw new Error('posting lists read after their index generation was closed');
    if (this.scratch.length < length) this.scratch = new Uint8Array(Math.max(length, 2 * this.scratch.length));
    return readRange(fd, position, length, this.scratch.subarray(0, length));
  }

  private recall(key: number): Entry | undefined {
    const kept = this.cache.get(key);
    if (kept === undefined) return undefined;
    // A counter, not a reordering of the Map: a phrase query asks for the same lists thousands of times.
    kept.lastUse = ++this.uses;
    return kept.entry;
  }

  private keep(key: number, entry: Entry, bytes: number): void {
    if (bytes > this.maxBytes) return;
    this.cache.set(key, { entry, bytes, lastUse: ++this.uses });
    this.cachedBytes += bytes;
    if (this.cachedBytes <= this.maxBytes) return;
    // Least recently used out, down to 90% of the budget, so the next few reads do not sort again.
    const byAge = [...this.cache].sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [oldest, old] of byAge) {
      if (this.cachedBytes <= 0.9 * this.maxBytes) break;
      this.cache.delete(oldest);
      this.cachedBytes -= old.bytes;
    }
  }
}

/** `length` bytes of a file from `position`, into `bytes`. */
function readRange(fd: number, position: number, length: number, bytes: Uint8Array): Uint8Array {
  let done = 0;
  while (done < length) {
    const got = readSync(fd, bytes, done, length - done, position + done);
    if (got === 0) throw damagedReadError(`it ends ${length - done} bytes early, at byte ${position + done}`);
    done += got;
  }
  return bytes;
}

