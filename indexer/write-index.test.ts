import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { currentGeneration, decodeChunkTable, readCurrentGeneration, StoredChunks } from '../shared/index-format/index.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine } from '../web/search/index.js';
import { buildFromDocuments, type IndexDocument } from './build.js';
import { resolveIndexerOptions } from './options.js';
import { ChunkedFile, StreamedFile } from './write-index.js';

/** Writes `pieces` to `path` through a StreamedFile; its size. */
async function writeStreamed(path: string, pieces: Iterable<string>, chunkBytes: number): Promise<number> {
  const file = await StreamedFile.create(path, chunkBytes);
  await file.append(pieces);
  return file.finish();
}

const dir = mkdtempSync(join(tmpdir(), 'gleaner-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('StreamedFile', () => {
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

describe('ChunkedFile (stored.bin in deflated chunks)', () => {
  it('gives back every range of the pieces written, however they fall across chunks', async () => {
    const path = join(dir, 'chunked.bin');
    const tablePath = join(dir, 'chunked-table.bin');
    const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.uint8Array({ maxLength: 90 }));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), fc.array(fc.tuple(fc.nat(1500), fc.nat(400)), { maxLength: 20 }), async (pieces, chunkBytes, reads) => {
        const file = await ChunkedFile.create(path, tablePath, chunkBytes);
        await file.append(pieces);
        const { bytes: onDisk } = await file.finish();
        const plain = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
        const table = decodeChunkTable(readFileSync(tablePath));
        expect(table).toMatchObject({ chunkBytes, plainBytes: plain.length });
        expect(onDisk).toBe(statSync(path).size + statSync(tablePath).size);
        const fd = openSync(path, 'r');
        try {
          const chunks = new StoredChunks(fd, table);
          expect(chunks.read(0, plain.length).equals(plain)).toBe(true);
          for (const [offset, length] of reads) expect(chunks.read(offset, length).equals(plain.subarray(offset, offset + length))).toBe(true);
        } finally {
          closeSync(fd);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('takes far fewer bytes than the text for text that repeats, as a site’s pages do', async () => {
    const path = join(dir, 'text.bin');
    const file = await ChunkedFile.create(path, join(dir, 'text-table.bin'));
    const pages = Array.from({ length: 200 }, (_, i) => `{"language":"en"}Page ${i}. Ownership rules: every value has an owner, and borrowing lends it. `.repeat(20));
    await file.append(pages);
    await file.finish();
    expect(statSync(path).size * 4).toBeLessThan(Buffer.byteLength(pages.join('')));
  });

  it('turns a table that does not fit its chunks into an error saying why', () => {
    const table = (values: number[]) => new Uint8Array(Float64Array.from(values).buffer);
    expect(decodeChunkTable(table([16, 20, 0, 9, 14])).ends).toEqual(Float64Array.from([0, 9, 14]));
    expect(() => decodeChunkTable(table([16, 20, 0, 9]))).toThrow('1 chunks, not the 2 of 20 bytes');
    expect(() => decodeChunkTable(table([16, 20, 0, 9, 9]))).toThrow('chunk 1 does not end at a whole byte after it starts');
    expect(() => decodeChunkTable(table([16, 20, 0, 9.5, 14]))).toThrow('chunk 0 does not end at a whole byte after it starts');
    expect(() => decodeChunkTable(new Uint8Array(12))).toThrow('12 bytes, not a chunk table');
  });
});

describe('a generation written while the build goes', () => {
  const doc = (i: number): IndexDocument => ({
    stored: { title: `Page ${i}`, headings: [`Heading ${i}`], body: `copper lantern ${i} ferry`, url: `http://site.test/${i}`, anchor: ['a link'], language: 'en', sections: [{ id: 's', heading: 'Section', start: 0 }] },
    host: 'site.test',
    inbound: 1,
    inboundHosts: 1,
  });

  it('writes each record while later documents are still being made, and the index reads them', async () => {
    const data = join(dir, 'let-go');
    // 150 pages of 100 KB that do not deflate (random bytes in base64, which chunks of 16 KiB cannot
    // shrink below three quarters): a build that took every document before writing would have
    // written nothing when asked for the last; stored.bin is written 4 MiB at a time, and a document's
    // record once its batch of 64 is analysed.
    const random = seededRandom(5);
    const noise = Buffer.from(Array.from({ length: 75_000 }, () => Math.floor(random() * 256)))
      .toString('base64')
      .replace(/.{60}/g, '$& ');
    const long = (i: number): IndexDocument => ({ ...doc(i), stored: { ...doc(i).stored, body: `copper lantern ${i} ferry ${noise}` } });
    let writtenBeforeLast = -1;
    function* documents(): Generator<IndexDocument> {
      for (let i = 0; i < 150; i++) {
        if (i === 149) {
          const draft = readdirSync(join(data, 'index')).find((e) => e.startsWith('gen-'))!;
          writtenBeforeLast = statSync(join(data, 'index', draft, 'stored.bin')).size;
        }
        yield long(i);
      }
    }
    await buildFromDocuments(data, { count: 150, documents: documents() }, { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }));
    expect(writtenBeforeLast).toBeGreaterThanOrEqual(3 * 2 ** 20);
    const engine = await openSearchEngine(data);
    try {
      const { hits } = engine.search(parseQuery('lantern 42'), { offset: 0, limit: 10 });
      expect(hits[0]?.url).toBe('http://site.test/42');
      expect(hits[0]?.snippet).toContain('copper lantern 42 ferry');
    } finally {
      engine.close();
    }
  });

  it('copies the records of unchanged documents from the previous generation, behind the changed ones', async () => {
    const data = join(dir, 'reuse');
    await buildFromDocuments(data, Array.from({ length: 100 }, (_, i) => doc(i)), { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }));
    const changed = { ...doc(7), stored: { ...doc(7).stored, body: 'brass compass 7 harbour' } };
    const summary = await buildFromDocuments(data, Array.from({ length: 100 }, (_, i) => (i === 7 ? changed : doc(i))), { skipped: {} }, resolveIndexerOptions({ analyzeThreads: 0 }));
    expect(summary).toMatchObject({ analysed: 1, reused: 99 });
    // The changed page first, the others after it in their previous order.
    const gen = await readCurrentGeneration(data);
    gen.lists.close();
    expect([...gen.docs.url].slice(0, 3)).toEqual(['http://site.test/7', 'http://site.test/0', 'http://site.test/1']);
    const engine = await openSearchEngine(data);
    try {
      for (const [query, url, words] of [['compass', 7, 'brass compass 7 harbour'], ['lantern 42', 42, 'copper lantern 42 ferry'], ['lantern 99', 99, 'copper lantern 99 ferry']] as const) {
        const { hits } = engine.search(parseQuery(query), { offset: 0, limit: 10 });
        expect(hits[0]?.url).toBe(`http://site.test/${url}`);
        expect(hits[0]?.snippet).toContain(words);
      }
      const copper = engine.search(parseQuery('copper'), { offset: 0, limit: 100 });
      expect(copper.hits).toHaveLength(99);
      expect(copper.hits.map((h) => h.url)).not.toContain('http://site.test/7');
    } finally {
      engine.close();
    }
  });

  it('removes what a killed build left before writing, even when this build then fails; the live index stays', async () => {
    const data = join(dir, 'killed');
    await buildFromDocuments(data, [doc(1), doc(2)], { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }));
    const live = (await currentGeneration(data))!;
    const left = join(data, 'index', 'gen-cccc-4194305');
    mkdirSync(left);
    writeFileSync(join(left, 'stored.bin'), 'half a file');
    const broken = { ...doc(3), stored: { ...doc(3).stored, anchor: 7 as unknown as string[] } };
    await expect(buildFromDocuments(data, [broken], { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }))).rejects.toThrow();
    expect(existsSync(left)).toBe(false);
    expect(await currentGeneration(data)).toBe(live);
    expect(readdirSync(join(data, 'index')).filter((e) => e.startsWith('gen-'))).toEqual([basename(live)]);
  });

  it('removes the whole generation when one of the files written at once fails, the others still being written; the live index stays', async () => {
    // positions.bin is among the two started first, terms.bin among those encoded while they are written.
    for (const failing of ['positions.bin', 'terms.bin']) {
      const data = join(dir, `commit-fails-${failing}`);
      await buildFromDocuments(data, [doc(1), doc(2)], { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }));
      const live = (await currentGeneration(data))!;
      function* documents(): Generator<IndexDocument> {
        for (let i = 0; i < 40; i++) yield doc(i);
        // The draft is there once the first batch is written: a directory where the file should go.
        const draft = readdirSync(join(data, 'index')).find((e) => e.startsWith('gen-') && join(data, 'index', e) !== live)!;
        mkdirSync(join(data, 'index', draft, failing));
      }
      await expect(buildFromDocuments(data, { count: 40, documents: documents() }, { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }))).rejects.toThrow(/EISDIR/);
      expect(await currentGeneration(data)).toBe(live);
      expect(readdirSync(join(data, 'index')).filter((e) => e.startsWith('gen-'))).toEqual([basename(live)]);
      const engine = await openSearchEngine(data);
      try {
        expect(engine.search(parseQuery('lantern 2'), { offset: 0, limit: 10 }).hits[0]?.url).toBe('http://site.test/2');
      } finally {
        engine.close();
      }
    }
  });

  it('leaves another build’s generation under way alone and removes one whose build is gone', async () => {
    const data = join(dir, 'two-builds');
    const root = join(data, 'index');
    // The test's parent process is alive; no process has a number this large.
    const underWay = join(root, `gen-aaaa-${process.ppid}`);
    const gone = join(root, 'gen-bbbb-4194305');
    mkdirSync(underWay, { recursive: true });
    mkdirSync(gone, { recursive: true });
    await buildFromDocuments(data, [doc(1), doc(2)], { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 0 }));
    expect(existsSync(underWay)).toBe(true);
    expect(existsSync(gone)).toBe(false);
  });
});
