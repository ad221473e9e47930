import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { currentGeneration, readCurrentGeneration } from '../shared/index-format/index.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine } from '../web/search/index.js';
import { buildFromDocuments, type IndexDocument } from './build.js';
import { resolveIndexerOptions } from './options.js';
import { StreamedFile } from './write-index.js';

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

describe('a generation written while the build goes', () => {
  const doc = (i: number): IndexDocument => ({
    stored: { title: `Page ${i}`, headings: [`Heading ${i}`], body: `copper lantern ${i} ferry`, url: `http://site.test/${i}`, anchor: ['a link'], language: 'en', sections: [{ id: 's', heading: 'Section', start: 0 }] },
    host: 'site.test',
    inbound: 1,
    inboundHosts: 1,
  });

  it('writes each record while later documents are still being made, and the index reads them', async () => {
    const data = join(dir, 'let-go');
    // 150 pages of 100 KB: a build that took every document before writing would have written nothing
    // when asked for the last; stored.bin is written in 4 MiB chunks.
    const long = (i: number): IndexDocument => ({ ...doc(i), stored: { ...doc(i).stored, body: `copper lantern ${i} ferry ${'word '.repeat(20_000)}` } });
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
    expect(writtenBeforeLast).toBeGreaterThanOrEqual(8 * 2 ** 20);
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
    expect(gen.docs.url.slice(0, 3)).toEqual(['http://site.test/7', 'http://site.test/0', 'http://site.test/1']);
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
