// The block cache is invisible: any range read through it, with any chunk size and any cache size
// (evicting at every read, or holding the whole file), is the plain bytes, fewer only past their end.

import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeChunkTable, StoredChunks } from '../../shared/index-format/index.js';
import { BlockCache } from './stored-blocks.js';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-blocks-'));
const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251));
const opened: number[] = [];
afterAll(() => {
  for (const fd of opened) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/** `content` as stored.bin in chunks of `chunkBytes` (written here the plain way, as the format says). */
const files = new Map<number, StoredChunks>();
function chunked(chunkBytes: number): StoredChunks {
  let file = files.get(chunkBytes);
  if (file !== undefined) return file;
  const parts: Buffer[] = [];
  const ends = [0];
  for (let at = 0; at < content.length; at += chunkBytes) {
    parts.push(deflateRawSync(content.subarray(at, at + chunkBytes)));
    ends.push(ends[ends.length - 1]! + parts[parts.length - 1]!.length);
  }
  const path = join(dir, `stored-${chunkBytes}.bin`);
  writeFileSync(path, Buffer.concat(parts));
  const fd = openSync(path, 'r');
  opened.push(fd);
  file = new StoredChunks(fd, { chunkBytes, plainBytes: content.length, ends: Float64Array.from(ends) });
  // The table round-trips through its encoding.
  expect(encodeChunkTable(file.table).byteLength).toBe(8 * (ends.length + 2));
  files.set(chunkBytes, file);
  return file;
}

describe('BlockCache', () => {
  it('reads every range as the plain bytes hold it, whatever the chunk and cache sizes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5200 }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 30 }),
        (blockBytes, cachedBlocks, reads) => {
          const cache = new BlockCache(chunked(blockBytes), { cacheMiB: (cachedBlocks * blockBytes) / 2 ** 20 });
          for (const [offset, length] of reads) {
            const got = cache.bytes(offset, length);
            expect(Buffer.compare(got, content.subarray(offset, offset + length))).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps no more blocks than its budget and serves a repeated range from memory', () => {
    const cache = new BlockCache(chunked(100), { cacheMiB: 300 / 2 ** 20 });
    const same = (a: Buffer, b: Buffer) => a.buffer === b.buffer && a.byteOffset === b.byteOffset;
    const first = cache.bytes(1000, 50);
    // A view of the cached block, not a fresh read: the same memory comes back.
    expect(same(cache.bytes(1000, 50), first)).toBe(true);
    for (let b = 0; b < 10; b++) cache.bytes(b * 100, 10);
    // Block 10 (bytes 1000-1099) was pushed out by ten later blocks: it is read anew.
    expect(same(cache.bytes(1000, 50), first)).toBe(false);
    expect(Buffer.compare(cache.bytes(1000, 50), content.subarray(1000, 1050))).toBe(0);
  });
});
