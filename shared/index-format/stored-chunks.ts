// stored.bin in compressed chunks. The records (index-format.ts) are laid end to end as before, and
// their offsets (DocColumns.storedOffset) still count those plain bytes; on disk the plain bytes are cut
// into chunks of `chunkBytes` and each chunk is deflated on its own, so a reader inflates only the
// chunk a range lies in. stored-chunks.bin says where each chunk's compressed bytes lie.
//
// Why: the stored text was most of an index (3.97 of 5.6 GB at a million pages), larger than this
// machine's page cache together with the postings, so a query's first read of a list went to the disk.
// Deflated in 16 KiB chunks it takes a third (Python and PostgreSQL docs) to a sixth (Rust docs, whose
// std, core and alloc pages repeat each other) of the bytes.
// Lucene compresses its stored fields in chunks of 16-60 KB for the same reason, and Xapian deflates
// its document data. 16 KiB is the block the searcher's cache already read (web/search/stored-blocks.ts),
// and inflating one takes about 30 us.
//
// stored-chunks.bin, Float64 LE: chunkBytes, plainBytes (the records' total), then chunks + 1 entries:
// chunk c's deflated bytes are stored.bin [ends[c], ends[c + 1]), where ends[0] = 0.

import { readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/** Plain bytes per chunk: what one inflate gives. */
export const STORED_CHUNK_BYTES = 16 * 1024;

/** zlib's level for the chunks, by their ratio on the Rust, Python and PostgreSQL docs' stored text:
 * level 1 5.4x / 2.7x / 2.8x, level 4 5.9x / 2.9x / 3.0x, level 6 6.1x / 3.0x / 3.1x; level 4 deflated the
 * Rust docs' at about 120 MiB/s against level 6's 100 (one core), and inflating does not depend on it. */
export const STORED_DEFLATE_LEVEL = 4;

export interface StoredChunkTable {
  chunkBytes: number;
  /** The records' plain bytes in all: offsets past it read nothing. */
  plainBytes: number;
  /** chunks + 1 offsets into stored.bin. */
  ends: Float64Array;
}

const HEAD = 2;

export function encodeChunkTable(table: StoredChunkTable): Uint8Array {
  const out = new Float64Array(HEAD + table.ends.length);
  out[0] = table.chunkBytes;
  out[1] = table.plainBytes;
  out.set(table.ends, HEAD);
  return new Uint8Array(out.buffer);
}

/** The table, or a RangeError saying why the bytes are not one. */
export function decodeChunkTable(bytes: Uint8Array): StoredChunkTable {
  if (bytes.byteLength % 8 !== 0 || bytes.byteLength < 8 * (HEAD + 1)) throw new RangeError(`${bytes.byteLength} bytes, not a chunk table`);
  const all = new Float64Array(bytes.byteLength / 8);
  new Uint8Array(all.buffer).set(bytes);
  const [chunkBytes, plainBytes] = [all[0]!, all[1]!];
  const ends = all.subarray(HEAD);
  const chunks = ends.length - 1;
  if (!(Number.isInteger(chunkBytes) && chunkBytes > 0) || !(Number.isInteger(plainBytes) && plainBytes >= 0)) throw new RangeError('its sizes are not counts');
  if (chunks !== Math.ceil(plainBytes / chunkBytes)) throw new RangeError(`${chunks} chunks, not the ${Math.ceil(plainBytes / chunkBytes)} of ${plainBytes} bytes`);
  for (let c = 0; c < chunks; c++) if (!(ends[c + 1]! > ends[c]!) || !Number.isInteger(ends[c + 1])) throw new RangeError(`chunk ${c} does not end at a whole byte after it starts`);
  if (ends[0] !== 0) throw new RangeError('the first chunk does not start the file');
  return { chunkBytes, plainBytes, ends };
}

/** Reads stored.bin's plain bytes through its chunk table. Synchronous: see web/search/stored-fields.ts. */
export class StoredChunks {
  constructor(
    private readonly fd: number,
    readonly table: StoredChunkTable,
  ) {}

  get chunkBytes(): number {
    return this.table.chunkBytes;
  }

  get chunkCount(): number {
    return this.table.ends.length - 1;
  }

  /** Chunk c's plain bytes (a fresh buffer; shorter for the last chunk, empty past the end). A chunk
   * that does not inflate to its size throws a RangeError (the file was cut short or changed). */
  chunk(c: number): Buffer {
    if (c < 0 || c >= this.chunkCount) return Buffer.alloc(0);
    const { ends, chunkBytes, plainBytes } = this.table;
    const from = ends[c]!;
    const deflated = Buffer.allocUnsafe(ends[c + 1]! - from);
    const read = readSync(this.fd, deflated, 0, deflated.length, from);
    const expected = Math.min(chunkBytes, plainBytes - c * chunkBytes);
    let plain: Buffer;
    try {
      // An output buffer a little larger than a chunk: one piece, not two joined.
      plain = inflateRawSync(deflated.subarray(0, read), { chunkSize: chunkBytes + 64 });
    } catch (e) {
      throw new RangeError(`chunk ${c} does not inflate (${(e as Error).message})`);
    }
    if (plain.length !== expected) throw new RangeError(`chunk ${c} inflates to ${plain.length} bytes, not ${expected}`);
    return plain;
  }

  /** The plain bytes [offset, offset + length), fewer past the end; a range inside one chunk is a view
   * of it. `chunkOf` gives chunks (a cache's, web/search/stored-blocks.ts); by default each is read and
   * inflated anew. */
  read(offset: number, length: number, chunkOf: (c: number) => Buffer = (c) => this.chunk(c)): Buffer {
    const end = Math.min(offset + length, this.table.plainBytes);
    if (end <= offset) return Buffer.alloc(0);
    const size = this.chunkBytes;
    const first = Math.floor(offset / size);
    const last = Math.floor((end - 1) / size);
    if (first === last) return chunkOf(first).subarray(offset - first * size, end - first * size);
    const out = Buffer.allocUnsafe(end - offset);
    let filled = 0;
    for (let c = first; c <= last; c++) {
      const plain = chunkOf(c);
      filled += plain.copy(out, filled, Math.max(0, offset - c * size), Math.min(plain.length, end - c * size));
    }
    return out;
  }
}
