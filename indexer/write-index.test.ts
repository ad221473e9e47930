import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeStreamed } from './write-index.js';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeStreamed', () => {
  it('writes the pieces in order, whole, however they fall across chunks (pieces longer than one included)', async () => {
    const path = join(dir, 'stored.bin');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 4, max: 64 }), async (pieces, chunkBytes) => {
        const written = await writeStreamed(path, pieces, chunkBytes);
        const expected = Buffer.from(pieces.join(''), 'utf8');
        expect(written).toBe(expected.length);
        expect(readFileSync(path).equals(expected)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('takes the pieces one at a time from a generator', async () => {
    const taken: number[] = [];
    function* pieces(): Generator<string> {
      for (let i = 0; i < 5; i++) {
        taken.push(i);
        yield `piece ${i};`;
      }
    }
    const path = join(dir, 'gen.bin');
    expect(await writeStreamed(path, pieces(), 8)).toBe(40);
    expect(readFileSync(path, 'utf8')).toBe('piece 0;piece 1;piece 2;piece 3;piece 4;');
    expect(taken).toEqual([0, 1, 2, 3, 4]);
  });
});
