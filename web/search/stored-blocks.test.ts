// The block cache is invisible: any range read through it, with any block size and any cache size
// (evicting at every read, or holding the whole file), is the file's bytes, fewer only past its end.

import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockCache } from './stored-blocks.js';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-blocks-'));
const file = join(dir, 'stored.bin');
const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251));
writeFileSync(file, content);
const fd = openSync(file, 'r');
afterAll(() => {
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

describe('BlockCache', () => {
  it('reads every range as the file holds it, whatever the block and cache sizes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5200 }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 30 }),
        (blockBytes, cachedBlocks, reads) => {
          const cache = new BlockCache(fd, { blockBytes, cacheMiB: (cachedBlocks * blockBytes) / 2 ** 20 });
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
    const cache = new BlockCache(fd, { blockBytes: 100, cacheMiB: 300 / 2 ** 20 });
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
