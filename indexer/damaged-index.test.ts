// An index generation whose files do not read back as written: one line naming the file, the fault
// and the command that rebuilds it, never a RangeError or a JSON error mid-query; and an incremental
// build over such a generation builds from scratch.

import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGleanerError } from '../shared/errors.js';
import { CHECKSUMMED_FILES, INDEX_FILES, currentGeneration, encodeTermTable, readCurrentGeneration, type IndexManifest } from '../shared/index-format/index.js';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { buildIndex } from './index.js';

const pages = Array.from({ length: 12 }, (_, i) => ({ url: `http://site.test/p${i}`, title: `Page ${i}`, text: `words of page ${i} about crawling and indexing` }));

let fixture: FixtureDir;
let pristine: Map<string, Buffer>;
let gen: string;
beforeAll(async () => {
  fixture = await buildFixtureIndex(pages);
  gen = (await currentGeneration(fixture.dataDir))!;
  pristine = new Map(await Promise.all(Object.values(INDEX_FILES).map(async (f) => [f, await readFile(join(gen, f))] as const)));
});
afterAll(async () => {
  await fixture.cleanup();
});

/** The generation as built; without its checksums, to reach the checks a generation written before
 * them still gets (and that stand behind the checksums). */
async function restore(checksums = false): Promise<void> {
  for (const [f, bytes] of pristine) await writeFile(join(gen, f), bytes);
  if (checksums) return;
  const manifest = JSON.parse(pristine.get(INDEX_FILES.manifest)!.toString('utf8')) as IndexManifest;
  delete manifest.checksums;
  await writeFile(join(gen, INDEX_FILES.manifest), JSON.stringify(manifest));
}

/** The file with `values` written over it from byte `at`, its size unchanged: a disk fault, not a cut. */
async function overwrite(path: string, at: number, values: Uint32Array | Float64Array): Promise<void> {
  const bytes = await readFile(path);
  bytes.set(new Uint8Array(values.buffer), at);
  await writeFile(path, bytes);
}

async function openFailure(): Promise<unknown> {
  return readCurrentGeneration(fixture.dataDir).then(
    (g) => {
      g.lists.close();
      return undefined;
    },
    (e: unknown) => e,
  );
}

describe('a damaged index generation', () => {
  const cases: [string, (path: string) => Promise<void>, RegExp][] = [
    [INDEX_FILES.docStrings, async (p) => truncate(p, (await readFile(p)).byteLength - 3), /^ends inside site \(\d+ bytes\)$/],
    [INDEX_FILES.manifest, (p) => rm(p), /^missing$/],
    [INDEX_FILES.terms, (p) => writeFile(p, encodeTermTable({ terms: [], words: [] })), /^not \d+ terms$/],
    [INDEX_FILES.terms, async (p) => truncate(p, (await readFile(p)).byteLength - 9), /^ends inside (words|forms) \(\d+ bytes\)$/],
    [INDEX_FILES.offsets, async (p) => truncate(p, (await readFile(p)).byteLength - 4), /^\d+ bytes, not the \d+ of \d+ terms$/],
    [INDEX_FILES.termOffsets, async (p) => truncate(p, (await readFile(p)).byteLength - 8), /^\d+ bytes, not the \d+ of \d+ terms$/],
    [INDEX_FILES.docNumbers, async (p) => truncate(p, (await readFile(p)).byteLength - 3), /^has \d+ bytes, not the \d+ of 12 documents$/],
    [INDEX_FILES.wordMap, async (p) => truncate(p, (await readFile(p)).byteLength - 4), /^\d+ entries, not the \d+ that word-map-offsets\.bin counts$/],
    [INDEX_FILES.wordMapOffsets, async (p) => truncate(p, (await readFile(p)).byteLength - 2), /^\d+ bytes, not the 52 of 12 documents$/],
    [INDEX_FILES.storedChunks, async (p) => truncate(p, (await readFile(p)).byteLength - 8), /^\d+ chunks, not the \d+ of \d+ bytes$/],
    [INDEX_FILES.storedChunks, (p) => rm(p), /^missing$/],
    // Overwritten, as a copy gone wrong can: found at load, not by the queries that read past its end.
    [INDEX_FILES.postings, (p) => writeFile(p, Buffer.alloc(1000, 7)), /^1000 bytes, not the \d+ term-offsets\.bin records$/],
    [INDEX_FILES.positions, async (p) => truncate(p, (await readFile(p)).byteLength - 1), /^\d+ bytes, not the \d+ term-offsets\.bin records$/],
    [INDEX_FILES.postings, (p) => rm(p), /^missing$/],
    [INDEX_FILES.stored, async (p) => truncate(p, (await readFile(p)).byteLength - 3), /^\d+ bytes, not the \d+ stored-chunks\.bin records$/],
    // Right sizes, wrong bytes (index-consistency.ts). Term 0 said to have billions of postings was
    // decoded at load, at full CPU and a growing heap, before the check.
    [INDEX_FILES.offsets, (p) => overwrite(p, 4, Uint32Array.of(0xffffff00)), /^term 0 has \d+ postings, of 12 documents$/],
    [INDEX_FILES.termOffsets, (p) => overwrite(p, 8, Float64Array.of(0.5)), /^term 0's bytes do not end at a whole byte$/],
    [INDEX_FILES.termOffsets, (p) => overwrite(p, 8, Float64Array.of(1)), /^term 0's \d+ postings do not fit in its 1 bytes of postings and \d+ of positions$/],
    [INDEX_FILES.docNumbers, async (p) => overwrite(p, 16, Float64Array.of(new Float64Array((await readFile(p)).buffer.slice(16, 24))[0]! + 1)), /^document 1's stored record starts at \d+, not \d+$/],
    [INDEX_FILES.wordMapOffsets, (p) => overwrite(p, 4, Uint32Array.of(0xfffffff0)), /^document 1's entries end before they start$/],
    [INDEX_FILES.storedChunks, (p) => overwrite(p, 24, Float64Array.of(0.5)), /^chunk 0 does not end at a whole byte after it starts$/],
  ];
  async function expectDamage(file: string, damage: (path: string) => Promise<void>, why: RegExp, checksums: boolean): Promise<void> {
    await restore(checksums);
    expect(await openFailure()).toBeUndefined();
    await damage(join(gen, file));
    try {
      const e = await openFailure();
      expect(isGleanerError(e) && e.code).toBe('INDEX_FORMAT');
      const m = /^the index in (.+) is damaged \((.+?): (.+)\): rebuild it with `gleaner index --full --data (.+)`$/.exec((e as Error).message);
      expect(m?.slice(1, 3)).toEqual([gen, file]);
      expect(m![3]).toMatch(why);
      expect(m![4]).toBe(fixture.dataDir);
    } finally {
      await restore();
    }
  }

  it.each(cases)('%s: the open fails with one line naming the file, the fault and the rebuild', async (file, damage, why) => {
    await expectDamage(file, damage, why, false);
  });

  it('has a checksum for each file read whole at open', () => {
    const manifest = JSON.parse(pristine.get(INDEX_FILES.manifest)!.toString('utf8')) as IndexManifest;
    expect(Object.keys(manifest.checksums ?? {}).sort()).toEqual([...CHECKSUMMED_FILES].sort());
  });

  // One byte changed, the size kept: whatever the file, found by its checksum before it is decoded.
  it.each(CHECKSUMMED_FILES.map((f) => [f]))('%s garbled in place: the open fails on its checksum', async (file) => {
    const flipOne = async (p: string) => {
      const bytes = await readFile(p);
      const middle = bytes.length >> 1;
      bytes[middle] = bytes[middle]! ^ 0x10;
      await writeFile(p, bytes);
    };
    await expectDamage(file, flipOne, /^its checksum is not the one written \(\d+ bytes\)$/, true);
  });

  it('an incremental build over a damaged generation builds from scratch instead of failing', async () => {
    await writeFile(join(gen, INDEX_FILES.fingerprints), '["only one"]');
    const summary = await buildIndex(fixture.dataDir, {});
    expect(summary.full).toBe(true);
    expect(summary.analysed).toBe(pages.length);
    const g = await readCurrentGeneration(fixture.dataDir);
    g.lists.close();
    expect(g.docs.url).toHaveLength(pages.length);
  });

  it('a CURRENT that names no generation is a damaged index in one line, and a build replaces it', async () => {
    // Bytes written over it, or a folder in its place: what it held had been taken as a path (a NUL
    // was an unexpected error, `../..` advice to rebuild an index in `/`), and `index` could not build.
    const current = join(fixture.dataDir, 'index', 'CURRENT');
    for (const damage of [() => writeFile(current, '\u0000\u00ff garbage'), () => writeFile(current, '../../..'), async () => {
      await rm(current);
      await mkdir(current);
    }]) {
      await damage();
      const failure = await openFailure();
      expect(isGleanerError(failure) && failure.code).toBe('INDEX_FORMAT');
      expect((failure as Error).message).toBe(`the index in ${join(fixture.dataDir, 'index')} is damaged (CURRENT names no generation): rebuild it with \`gleaner index --full --data ${fixture.dataDir}\``);
      const summary = await buildIndex(fixture.dataDir, {});
      expect(summary.full).toBe(true);
      const g = await readCurrentGeneration(fixture.dataDir);
      g.lists.close();
      expect(g.docs.url).toHaveLength(pages.length);
    }
    expect(await currentGeneration(fixture.dataDir)).toMatch(/gen-[0-9a-z]+-\d+$/);
  });
});

