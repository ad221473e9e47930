// stored.bin read through a cache of its chunks, inflated, least recently used out, as LevelDB's and
// RocksDB's block caches hold uncompressed blocks. A page of ten results reads a dozen small ranges of
// stored.bin (each result's header, then the passage its snippet shows); each chunk read is a system
// call of about 5 us on this VM and an inflate of about 30 us (shared/index-format stored-chunks.ts).
// Popular pages and the neighbours of a page read share chunks, so most ranges come from memory as a
// view of a chunk.

import type { StoredChunks } from '../../shared/index-format/index.js';

export interface BlockCacheOptions {
  /** Inflated chunks are kept up to this many MiB; 0 inflates every range anew. */
  cacheMiB: number;
}

export const DEFAULT_BLOCK_CACHE_OPTIONS: Readonly<BlockCacheOptions> = { cacheMiB: 64 };

/** A range longer than this many chunks is read on its own, not through the cache: one page's whole
 * record (a phrase check of Chinese text) must not push out the chunks every snippet shares. */
const MAX_CACHED_BLOCKS_PER_READ = 4;

export class BlockCache {
  /** Cached blocks by number, least recently used first (a Map keeps insertion order). */
  private readonly blocks = new Map<number, Buffer>();
  private cachedBytes = 0;
  private readonly maxBytes: number;
  private readonly cachedBlock = (b: number): Buffer => this.block(b);

  constructor(
    private readonly file: StoredChunks,
    options: BlockCacheOptions = DEFAULT_BLOCK_CACHE_OPTIONS,
  ) {
    this.maxBytes = options.cacheMiB * 2 ** 20;
  }

  /** The plain bytes [offset, offset + length), fewer at the end. The result may be a view of a cached
   * chunk: read it, do not write it. */
  bytes(offset: number, length: number): Buffer {
    const size = this.file.chunkBytes;
    const first = Math.floor(offset / size);
    const last = Math.floor((offset + Math.max(length, 1) - 1) / size);
    if (this.maxBytes === 0 || last - first >= MAX_CACHED_BLOCKS_PER_READ) return this.file.read(offset, length);
    return this.file.read(offset, length, this.cachedBlock);
  }

  private block(b: number): Buffer {
    let block = this.blocks.get(b);
    if (block !== undefined) {
      this.blocks.delete(b);
      this.blocks.set(b, block);
      return block;
    }
    block = this.file.chunk(b);
    this.blocks.set(b, block);
    this.cachedBytes += block.length;
    for (const [old, e] of this.blocks) {
      if (this.cachedBytes <= this.maxBytes || old === b) break;
      this.blocks.delete(old);
      this.cachedBytes -= e.length;
    }
    return block;
  }
}
