// The worker threads that analyse documents for an index build give what analyzeDoc gives, in order,
// and an index built with them is byte for byte the one built without. Uses the compiled build (dist/,
// made by `npm test`): worker threads run JavaScript, not the TypeScript sources.

import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDoc, type AnalyzedDoc } from '../indexer/analyze-doc.js';
import type { createDocAnalyzer as CreateDocAnalyzer, PooledAnalysis } from '../indexer/analyze-pool.js';
import type { buildFromDocuments as BuildFromDocuments, buildIndex as BuildIndex } from '../indexer/index.js';
import { currentGeneration } from '../shared/index-format/index.js';
import type { StoredDoc } from '../shared/index-format/index.js';
import { writePages, type PageSpec } from './support/index-fixture.js';
import { asAnalyzed } from './support/analyses.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const POOL = join(DIST, 'indexer', 'analyze-pool.js');
if (!existsSync(POOL)) console.warn('index analyze-pool test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

const WORDS = ['parse', 'e-mail', 'HashMap', 'iterator', 'the', 'Ärger', 'données', '日本語', 'std::vec::Vec', 'x86_64', '--verbose', 'of', 'café'];
function doc(i: number): StoredDoc {
  const body = Array.from({ length: 40 + (i % 60) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
  return {
    url: `http://site.test/p/${i}`,
    title: `Page ${i} ${WORDS[i % WORDS.length]}`,
    headings: [`Heading ${i}`, WORDS[(i + 3) % WORDS.length]!],
    body,
    anchor: i % 4 === 0 ? [] : [`link to ${i}`],
    language: i % 9 === 0 ? 'de' : 'en',
    sections: [{ id: 's1', heading: `Heading ${i}`, start: 0 }],
    ...(i % 5 === 0 ? { defines: [`Type${i}`, 'std::io::Read'] } : {}),
  };
}
/** Analyses as the pool gives them, without the term numbers a thread adds (term-wire.test.ts checks those). */
const plain = (analyses: readonly PooledAnalysis[]): AnalyzedDoc[] => analyses.map(asAnalyzed);
const batches = (docs: StoredDoc[], size: number): StoredDoc[][] => Array.from({ length: Math.ceil(docs.length / size) }, (_, b) => docs.slice(b * size, b * size + size));

// A worker that does what analyze-worker.js does, except that a batch holding a page whose URL ends in
// /exit ends the thread, and one ending in /throw throws out of it.
const DYING_WORKER = (dist: string) => `
import { parentPort } from 'node:worker_threads';
import { analyzeDoc } from ${JSON.stringify(`${dist}/indexer/analyze-doc.js`)};
parentPort.on('message', (msg) => {
  if (msg.docs.some((d) => d.url.endsWith('/exit'))) process.exit(7);
  if (msg.docs.some((d) => d.url.endsWith('/throw'))) throw new Error('boom in the worker');
  parentPort.postMessage({ id: msg.id, analyses: msg.docs.map(analyzeDoc) });
});
`;

// A worker that answers a batch only once the next has reached it, and the last when told there is no
// more (a batch of no documents): it finishes only if the pool sends a thread its next batch before the
// answer to the one it holds.
const QUEUE_WORKER = (dist: string) => `
import { parentPort } from 'node:worker_threads';
import { analyzeDoc } from ${JSON.stringify(`${dist}/indexer/analyze-doc.js`)};
let held;
parentPort.on('message', (msg) => {
  if (held) parentPort.postMessage({ id: held.id, analyses: held.docs.map(analyzeDoc) });
  held = msg.docs.length > 0 ? msg : undefined;
  if (!held) parentPort.postMessage({ id: msg.id, analyses: [] });
});
`;

describe.skipIf(!existsSync(POOL))('index analysis threads', () => {
  let dir = '';
  let createDocAnalyzer: typeof CreateDocAnalyzer;
  let buildIndex: typeof BuildIndex;
  let buildFromDocuments: typeof BuildFromDocuments;
  beforeAll(async () => {
    ({ createDocAnalyzer } = (await import(pathToFileURL(POOL).href)) as { createDocAnalyzer: typeof CreateDocAnalyzer });
    ({ buildIndex, buildFromDocuments } = (await import(pathToFileURL(join(DIST, 'indexer', 'index.js')).href)) as { buildIndex: typeof BuildIndex; buildFromDocuments: typeof BuildFromDocuments });
    dir = await mkdtemp(join(tmpdir(), 'gleaner-index-pool-'));
    await writeFile(join(dir, 'dying-worker.mjs'), DYING_WORKER(pathToFileURL(DIST).href));
    await writeFile(join(dir, 'broken-worker.mjs'), "throw new Error('this build is broken');\n");
    await writeFile(join(dir, 'queue-worker.mjs'), QUEUE_WORKER(pathToFileURL(DIST).href));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('analyses batches across 2 threads exactly as analyzeDoc does, each batch in its own order', async () => {
    const pool = createDocAnalyzer(2);
    try {
      expect(pool.threads).toBe(2);
      const docs = Array.from({ length: 300 }, (_, i) => doc(i));
      const got = (await Promise.all(batches(docs, 37).map((b) => pool.analyze(b)))).flat();
      expect(plain(got)).toEqual(docs.map(analyzeDoc));
    } finally {
      await pool.close();
    }
  });

  it('a thread is sent its next batch before it answers the one it holds', async () => {
    const pool = createDocAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'queue-worker.mjs')) });
    try {
      const docs = Array.from({ length: 30 }, (_, i) => doc(i));
      // Three batches and the empty one that ends them: the worker answers each when the next comes.
      const answers = Promise.all([...batches(docs, 10), []].map((b) => pool.analyze(b)));
      expect(plain((await answers).flat())).toEqual(docs.map(analyzeDoc));
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('a batch whose worker dies is analysed in the calling thread, and the pool goes on without that worker', async () => {
    const pool = createDocAnalyzer(2, { workerScript: pathToFileURL(join(dir, 'dying-worker.mjs')) });
    try {
      const docs = Array.from({ length: 120 }, (_, i) => doc(i));
      docs[10] = { ...docs[10]!, url: 'http://site.test/exit' };
      docs[70] = { ...docs[70]!, url: 'http://site.test/throw' };
      const got = (await Promise.all(batches(docs, 20).map((b) => pool.analyze(b)))).flat();
      expect(plain(got)).toEqual(docs.map(analyzeDoc));
      expect(pool.threads).toBe(0);
      // With no thread left, batches are analysed here.
      expect(plain(await pool.analyze(docs.slice(0, 3)))).toEqual(docs.slice(0, 3).map(analyzeDoc));
    } finally {
      await pool.close();
    }
  });

  it('a batch that analyzeDoc itself cannot analyse fails in its own promise, and the others are answered', async () => {
    const pool = createDocAnalyzer(2);
    try {
      const broken = { ...doc(1), body: undefined } as unknown as StoredDoc;
      const docs = Array.from({ length: 10 }, (_, i) => doc(i));
      const [bad, good] = await Promise.allSettled([pool.analyze([broken]), pool.analyze(docs)]);
      expect(bad).toMatchObject({ status: 'rejected', reason: expect.any(TypeError) as unknown });
      expect(good.status).toBe('fulfilled');
      expect(plain((good as PromiseFulfilledResult<AnalyzedDoc[]>).value)).toEqual(docs.map(analyzeDoc));
    } finally {
      await pool.close();
    }
  });

  it('a worker that cannot start leaves the analysis to the calling thread', async () => {
    const pool = createDocAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'broken-worker.mjs')) });
    try {
      const docs = Array.from({ length: 5 }, (_, i) => doc(i));
      expect(plain(await pool.analyze(docs))).toEqual(docs.map(analyzeDoc));
      expect(pool.threads).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('an index built with 2 analysis threads and positions.bin encoded on a third is byte for byte the one built in one thread, full and incremental', async () => {
    const pages: PageSpec[] = Array.from({ length: 400 }, (_, i) => {
      const d = doc(i);
      return { url: d.url, title: d.title, text: d.body, links: [`http://site.test/p/${(i * 13) % 400}`] };
    });
    const one = join(dir, 'one');
    const two = join(dir, 'two');
    await writePages(one, pages);
    await cp(one, two, { recursive: true });
    const files = async (data: string): Promise<Map<string, Buffer>> => {
      const gen = (await currentGeneration(data))!;
      const out = new Map<string, Buffer>();
      // The manifest and stats hold the build's time.
      for (const f of (await readdir(gen)).filter((f) => f !== 'manifest.json' && f !== 'stats.json')) out.set(f, await readFile(join(gen, f)));
      return out;
    };
    // The encode thread (encode-thread.ts) starts at 2 million postings by default: here at any number.
    const threads = { analyzeThreads: 2, encodeThreadMinRecords: 0 };
    const alone = { analyzeThreads: 0, encodeThreadMinRecords: Infinity };
    expect(await buildIndex(one, alone)).toMatchObject({ analysed: 400 });
    expect(await buildIndex(two, threads)).toMatchObject({ analysed: 400 });
    const full = await files(one);
    expect(full.size).toBeGreaterThan(5);
    expect(await files(two)).toEqual(full);
    // 100 pages changed: the reused postings come first, the analysed ones after.
    const changed = pages.slice(100, 200).map((p) => ({ ...p, text: `${p.text} changed words here` }));
    await writePages(one, changed);
    await writePages(two, changed);
    expect(await buildIndex(one, alone)).toMatchObject({ analysed: 100, reused: 300 });
    expect(await buildIndex(two, threads)).toMatchObject({ analysed: 100, reused: 300 });
    expect(await files(two)).toEqual(await files(one));
  });

  it('a build whose pages fail analysis in two batches fails with the error, leaving no batch unheard', async () => {
    const docs = Array.from({ length: 400 }, (_, i) => doc(i));
    for (const i of [70, 140]) docs[i] = { ...docs[i]!, anchor: 7 } as unknown as StoredDoc;
    const data = join(dir, 'broken');
    const { resolveIndexerOptions } = (await import(pathToFileURL(join(DIST, 'indexer', 'options.js')).href)) as typeof import('../indexer/options.js');
    const documents = docs.map((stored) => ({ stored, host: 'site.test', inbound: 0, inboundHosts: 0 }));
    // A rejection nobody heard would fail this file (vitest reports unhandled rejections as errors).
    await expect(buildFromDocuments(data, documents, { skipped: {} }, resolveIndexerOptions({ full: true, analyzeThreads: 2 }))).rejects.toThrow(TypeError);
    expect(await currentGeneration(data)).toBeUndefined();
    // Nor half a generation: the directory its stored.bin was being written to is gone.
    expect(readdirSync(join(data, 'index')).filter((e) => e.startsWith('gen-'))).toEqual([]);
  });
});
