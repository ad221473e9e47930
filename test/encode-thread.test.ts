// positions.bin encoded in a worker thread is the file the build thread would have written, the worker
// reading the records where they are (shared memory), and a worker that cannot start or fails leaves
// the work to the calling thread. Uses the compiled build (dist/, made by `npm test`): worker threads
// run JavaScript, not the TypeScript sources.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePositionRuns, encodePostingRuns, FIELD_COUNT, type EncodedFile, type PostingRecords } from '../shared/index-format/index.js';
import type { encodePositionsOnThread as EncodeOnThread } from '../indexer/encode-thread.js';

const DIST = join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
const THREAD = join(DIST, 'indexer', 'encode-thread.js');
if (!existsSync(THREAD)) {
  if (process.env.CI === 'true') throw new Error('dist/ is not built: `npm test` builds it before the tests');
  console.warn('encode thread test skipped: dist/ is not built (run `npm run build`; `npm test` does)');
}

/** Records of `postings` ([term, doc, position bytes] in document order), in shared memory or not. */
function recordsOf(postings: readonly [number, number, number[]][], inShared: boolean): { records: PostingRecords; rank: Int32Array; terms: number } {
  const make = <T>(Kind: { new (b: ArrayBufferLike): T; BYTES_PER_ELEMENT: number }, n: number): T =>
    new Kind(inShared ? new SharedArrayBuffer(Math.max(1, n) * Kind.BYTES_PER_ELEMENT) : new ArrayBuffer(Math.max(1, n) * Kind.BYTES_PER_ELEMENT));
  const n = postings.length;
  const bytes = postings.reduce((a, [, , p]) => a + p.length, 0);
  const records: PostingRecords = { count: n, term: make(Uint32Array, n), doc: make(Uint32Array, n), tfs: make(Uint8Array, n * FIELD_COUNT), positionEnds: make(Uint32Array, n), positions: make(Uint8Array, bytes) };
  let at = 0;
  postings.forEach(([term, doc, positions], i) => {
    records.term[i] = term;
    records.doc[i] = doc;
    records.tfs[i * FIELD_COUNT + 2] = Math.max(1, positions.length);
    records.positions.set(positions, at);
    at += positions.length;
    records.positionEnds[i] = at;
  });
  const terms = 1 + Math.max(-1, ...postings.map(([t]) => t));
  // Every term number has postings here; ranked in reverse, as the build ranks by spelling, not number.
  return { records, rank: Int32Array.from({ length: terms }, (_, t) => terms - 1 - t), terms };
}

/** A few documents' postings, each term once per document, documents ascending. */
const somePostings = (docs: number, terms: number): [number, number, number[]][] =>
  Array.from({ length: docs }, (_, d) => Array.from({ length: terms }, (_, t) => [t, d, Array.from({ length: (d + t) % 5 }, (_, k) => (d * 7 + t + k) % 256)] as [number, number, number[]]).filter(([t], k) => (t + k + 3 * d) % 3 !== 0)).flat();

const same = (a: EncodedFile, b: EncodedFile) => Buffer.compare(Buffer.from(a.bytes), Buffer.from(b.bytes)) === 0 && a.ends.length === b.ends.length && a.ends.every((v, i) => v === b.ends[i]);

describe.skipIf(!existsSync(THREAD))('positions.bin encoded in a worker thread', () => {
  let encodeOnThread: typeof EncodeOnThread;
  let dir = '';
  beforeAll(async () => {
    ({ encodePositionsOnThread: encodeOnThread } = (await import(pathToFileURL(THREAD).href)) as { encodePositionsOnThread: typeof EncodeOnThread });
    dir = await mkdtemp(join(tmpdir(), 'gleaner-encode-'));
    await writeFile(join(dir, 'broken-worker.mjs'), "throw new Error('this build is broken');\n");
    await writeFile(join(dir, 'other-worker.mjs'), "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage({ bytes: new Uint8Array([42]), ends: new Float64Array(workerData.terms + 1) });\n");
    await writeFile(join(dir, 'failing-worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ error: 'no memory left' });\n");
    await writeFile(join(dir, 'wrong-worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ bytes: new Uint8Array([42]), ends: new Float64Array(1) });\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the file the build thread would write, byte for byte, for any records, whole or in parts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 100 }), async (docs, terms, cutPercent) => {
        const postings = somePostings(docs, terms);
        const { records, rank, terms: n } = recordsOf(postings, true);
        expect(same(await encodeOnThread([records], rank, n), encodePositionRuns(records, rank, n))).toBe(true);
        // The same records in two parts (as a build keeps its phrase pairs apart): the same files.
        const cut = Math.floor((cutPercent / 100) * postings.length);
        const parts = [recordsOf(postings.slice(0, cut), true).records, recordsOf(postings.slice(cut), true).records];
        expect(same(await encodeOnThread(parts, rank, n), encodePositionRuns(records, rank, n))).toBe(true);
        expect(same(encodePostingRuns(parts, rank, n), encodePostingRuns(records, rank, n))).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it("uses the worker's answer, and reads the records in shared memory only", async () => {
    const other = pathToFileURL(join(dir, 'other-worker.mjs'));
    const sharedJob = recordsOf(somePostings(5, 4), true);
    expect([...(await encodeOnThread([sharedJob.records], sharedJob.rank, sharedJob.terms, other)).bytes]).toEqual([42]);
    // Records in memory of this thread alone would be copied to the worker: they are encoded here.
    const ownJob = recordsOf(somePostings(5, 4), false);
    expect(same(await encodeOnThread([ownJob.records], ownJob.rank, ownJob.terms, other), encodePositionRuns(ownJob.records, ownJob.rank, ownJob.terms))).toBe(true);
  });

  it('encodes in the calling thread when the worker cannot start, fails, or answers something else', async () => {
    const { records, rank, terms } = recordsOf(somePostings(12, 9), true);
    const here = encodePositionRuns(records, rank, terms);
    for (const script of ['broken-worker.mjs', 'failing-worker.mjs', 'wrong-worker.mjs']) {
      expect(same(await encodeOnThread([records], rank, terms, pathToFileURL(join(dir, script))), here)).toBe(true);
    }
  });
});
