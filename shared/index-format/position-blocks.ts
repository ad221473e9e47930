// positions.bin read in small blocks, kept until the clock below reuses their slot, for the terms
// whose positions are too many to read whole. A phrase check or the proximity of the best results
// needs the positions of a few hundred documents; reading all of a common word's positions for them
// cost more than the rest of the query: at a million pages "function" holds 840,000 postings and 12 MB
// of positions, and its first read took 55 ms, most of it the kernel handing over fresh memory (about
// 4 ms a MiB on this VM, DESIGN.md). A block is a view the caller may keep: an evicted one is forgotten.

/** Where one posting's encoded positions are: bytes[from, to) (positions.ts). */
export interface PositionsRange {
  bytes: Uint8Array;
  from: number;
  to: number;
}

export interface PositionBlocksOptions {
  /** Bytes a block; a range inside one block is served from it. */
  blockBytes: number;
  /** Blocks are kept up to this many MiB; 0 reads every range anew. */
  cacheMiB: number;
}

export const DEFAULT_POSITION_BLOCKS_OPTIONS: Readonly<PositionBlocksOptions> = { blockBytes: 4096, cacheMiB: 64 };

/** A range longer than this is read on its own: a page's many positions must not push out the
 * blocks every query shares. */
const MAX_CACHED_RANGE_BYTES = 16 * 1024;

export class PositionBlocks {
  // A buffer pool with a page table, as databases keep theirs: per block of the file its slot (plus
  // one; 0 when not cached), per slot its block, its bytes and a reference bit for the clock that
  // picks the slot to reuse. A lookup is two typed-array reads: a phrase of common words checks
  // thousands of postings a query, and a Map kept in recency order cost 3 ms of its p99 on the Rust docs
  // (with their 47 longest terms read this way).
  private readonly slotOf: Int32Array;
  private readonly blockOf: Int32Array;
  private readonly referenced: Uint8Array;
  private readonly buffers: Uint8Array[] = [];
  private hand = 0;
  private cachedBytes = 0;

  constructor(
    /** The file's bytes [position, position + length), exactly (a range past the end is the reader's error). */
    private readonly read: (position: number, length: number) => Uint8Array,
    /** The file's length in bytes. */
    private readonly fileBytes: number,
    private readonly options: PositionBlocksOptions = DEFAULT_POSITION_BLOCKS_OPTIONS,
  ) {
    const slots = Math.floor((options.cacheMiB * 2 ** 20) / options.blockBytes);
    this.slotOf = new Int32Array(slots === 0 ? 0 : Math.ceil(fileBytes / options.blockBytes));
    this.blockOf = new Int32Array(slots);
    this.referenced = new Uint8Array(slots);
  }

  /** Sets `out` to the file's bytes [position, position + length) and returns it. */
  locate(position: number, length: number, out: PositionsRange): PositionsRange {
    const size = this.options.blockBytes;
    const first = Math.floor(position / size);
    const last = Math.floor((position + length - 1) / size);
    if (length > 0 && this.blockOf.length > 0 && last === first) {
      out.bytes = this.block(first);
      out.from = position - first * size;
      out.to = out.from + length;
      return out;
    }
    // A range across a boundary is put together from its blocks (a long page's positions of a common
    // word cross one often); one longer than MAX_CACHED_RANGE_BYTES is read on its own, past the cache.
    out.bytes = length > 0 && this.blockOf.length > 0 && length <= MAX_CACHED_RANGE_BYTES ? this.assemble(position, length, first, last) : this.read(position, length);
    out.from = 0;
    out.to = out.bytes.length;
    return out;
  }

  /** MiB the cache holds now. */
  get cachedMiB(): number {
    return this.cachedBytes / 2 ** 20;
  }

  clear(): void {
    this.slotOf.fill(0);
    this.buffers.length = 0;
    this.cachedBytes = 0;
  }

  private assemble(position: number, length: number, first: number, last: number): Uint8Array {
    const size = this.options.blockBytes;
    const bytes = new Uint8Array(length);
    for (let b = first, at = 0; b <= last; b++) {
      const block = this.block(b);
      const from = b === first ? position - first * size : 0;
      const to = Math.min(block.length, position + length - b * size);
      bytes.set(block.subarray(from, to), at);
      at += to - from;
    }
    return bytes;
  }

  private block(b: number): Uint8Array {
    const cached = this.slotOf[b]! - 1;
    if (cached >= 0) {
      this.referenced[cached] = 1;
      return this.buffers[cached]!;
    }
    let slot = this.buffers.length;
    if (slot === this.blockOf.length) {
      // The clock: the first slot not referenced since the hand last passed it.
      while (this.referenced[this.hand] === 1) {
        this.referenced[this.hand] = 0;
        this.hand = (this.hand + 1) % this.blockOf.length;
      }
      slot = this.hand;
      this.hand = (this.hand + 1) % this.blockOf.length;
      this.slotOf[this.blockOf[slot]!] = 0;
      this.cachedBytes -= this.buffers[slot]!.length;
    }
    // A new buffer, not the evicted one's: a caller may still hold a view of that.
    const size = this.options.blockBytes;
    const bytes = this.read(b * size, Math.max(0, Math.min(size, this.fileBytes - b * size)));
    this.buffers[slot] = bytes;
    this.blockOf[slot] = b;
    this.slotOf[b] = slot + 1;
    this.referenced[slot] = 1;
    this.cachedBytes += bytes.length;
    return bytes;
  }
}
