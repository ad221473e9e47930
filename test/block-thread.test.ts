// Template detection's block summaries made on a worker thread while the index build reads the store
// (indexer/block-thread.ts): the same summaries as made in the calling thread, given to their pages in
// order, and made there when the worker cannot. Uses the compiled build (dist/, made by `npm test`):
// worker threads run JavaScript, not the TypeScript sources.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockShapesOf, type BlockShapes, type ShapedPage } from '../indexer/templates.js';
import { packedShapesOf, shapesAt } from '../indexer/block-thread.js';
import type { BlockShapeQueue as Queue } from '../indexer/block-thread.js';

const DIST = join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
const THREAD = join(DIST, 'indexer', 'block-thread.js');
if (!existsSync(THREAD)) {
  if (process.env.CI === 'true') throw new Error('dist/ is not built: `npm test` builds it before the tests');
  console.warn('block thread test skipped: dist/ is not built (run `npm run build`; `npm test` does)');
}

/** A page of `blocks` joined as the crawler joins them (one space), or without block facts. */
function shaped(blocks: readonly string[] | undefined, headings: string[] = []): ShapedPage {
  if (blocks === undefined) return { text: 'a page stored before blocks were kept', blockEnds: undefined, headings, description: '' };
  const ends: number[] = [];
  let length = 0;
  blocks.forEach((b, i) => {
    length += (i > 0 ? 1 : 0) + b.length;
    ends.push(length);
  });
  return { text: blocks.join(' '), blockEnds: ends, linkBlocks: [0], sections: [{ id: 's', heading: headings[0] ?? 'Intro', start: 0 }], description: '', headings };
}

const somePages = fc.array(
  fc.option(fc.array(fc.constantFrom('Home', 'Next', 'Prev', 'Table of Contents', 'Intro', 'A paragraph of its own', 'Überblick'), { maxLength: 8 }), { nil: undefined }).map((b) => shaped(b, ['Intro'])),
  { maxLength: 30 },
);

const plain = (s: BlockShapes | undefined) => (s === undefined ? undefined : { prints: [...s.prints], shape: [...s.shape] });

describe('block shapes packed for a thread', () => {
  it('unpack to each page its own shapes, and none for a page without blocks', () => {
    fc.assert(
      fc.property(somePages, (pages) => {
        const packed = packedShapesOf(pages);
        pages.forEach((p, i) => expect(plain(shapesAt(packed, i))).toEqual(plain(blockShapesOf(p))));
      }),
    );
  });
});

describe.skipIf(!existsSync(THREAD))('block shapes made on a worker thread', () => {
  let BlockShapeQueue: typeof Queue;
  let dir = '';
  beforeAll(async () => {
    ({ BlockShapeQueue } = (await import(pathToFileURL(THREAD).href)) as { BlockShapeQueue: typeof Queue });
    dir = await mkdtemp(join(tmpdir(), 'gleaner-blocks-'));
    await writeFile(join(dir, 'broken-worker.mjs'), "throw new Error('this build is broken');\n");
    await writeFile(join(dir, 'wrong-worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => parentPort.postMessage({ prints: 'not a batch' }));\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** What a queue gives each page, in the order it gives them. */
  async function given(pages: readonly ShapedPage[], threads: boolean, workerScript?: URL): Promise<{ page: number; shapes: ReturnType<typeof plain> }[]> {
    const out: { page: number; shapes: ReturnType<typeof plain> }[] = [];
    const queue = new BlockShapeQueue<number>(threads, (page, shapes) => out.push({ page, shapes: plain(shapes) }), { batchPages: 4, inFlight: 2 }, workerScript);
    for (const [i, p] of pages.entries()) await queue.add(i, p);
    await queue.finish();
    return out;
  }

  it('gives every page the shapes the calling thread makes, in the order added, batch after batch', async () => {
    await fc.assert(
      fc.asyncProperty(somePages, async (pages) => {
        const want = pages.map((p, i) => ({ page: i, shapes: plain(blockShapesOf(p)) }));
        expect(await given(pages, true)).toEqual(want);
        expect(await given(pages, false)).toEqual(want);
      }),
      { numRuns: 10 },
    );
  });

  it('makes them in the calling thread when the worker cannot start or answers something else', async () => {
    const pages = Array.from({ length: 11 }, (_, i) => shaped(['Home', `Page ${i}`, 'Next'], [`Page ${i}`]));
    const want = pages.map((p, i) => ({ page: i, shapes: plain(blockShapesOf(p)) }));
    for (const script of ['broken-worker.mjs', 'wrong-worker.mjs']) expect(await given(pages, true, pathToFileURL(join(dir, script)))).toEqual(want);
  });
});
