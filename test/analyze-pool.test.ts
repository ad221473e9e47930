// The worker-thread pool that parses pages gives the same analysis as the function it runs. Uses the
// compiled build (dist/, made by `npm test`): worker threads run JavaScript, not the TypeScript sources.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBody, type BodyInput } from '../crawler/analyze.js';
import type { createBodyAnalyzer as CreateBodyAnalyzer } from '../crawler/analyze-pool.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const POOL = join(ROOT, 'dist', 'crawler', 'analyze-pool.js');
if (!existsSync(POOL)) console.warn('analyze-pool test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

function input(i: number): BodyInput {
  const html = `<!doctype html><html lang="ru"><head><meta charset="windows-1251"><title>T${i}</title><meta name="robots" content="${i % 3 === 0 ? 'noindex' : 'all'}"></head><body><h1>H${i}</h1><p>word${i} text</p><a href="/p/${i + 1}">next</a><a href="/p/${i + 2}" rel="nofollow">skip</a></body></html>`;
  return { url: `http://127.0.0.1/p/${i}`, body: new Uint8Array(Buffer.from(html, 'latin1')), contentTypeHeader: 'text/html', contentType: 'text/html', xRobotsTag: i % 5 === 0 ? ['nofollow'] : [], agent: 'Gleaner', stripParams: [] };
}

describe.skipIf(!existsSync(POOL))('parse worker pool', () => {
  it('analyses 200 pages across 2 threads exactly as analyzeBody does, each answer to its own page', async () => {
    const { createBodyAnalyzer } = (await import(pathToFileURL(POOL).href)) as { createBodyAnalyzer: typeof CreateBodyAnalyzer };
    const pool = createBodyAnalyzer(2);
    try {
      expect(pool.threads).toBe(2);
      const inputs = Array.from({ length: 200 }, (_, i) => input(i));
      const expected = inputs.map((x) => analyzeBody({ ...x, body: x.body.slice() }));
      const got = await Promise.all(inputs.map((x) => pool.analyze(x)));
      expect(got).toEqual(expected);
      expect(got[3]!.robots.index).toBe(false);
      expect(got[5]!.links.every((l) => l.rel.includes('nofollow'))).toBe(true);
    } finally {
      await pool.close();
    }
  });
});

// A worker that dies: it does what analyze-worker.js does, except that for a few test URLs it exits the
// thread, throws out of it, or says which thread it is (as an error reply, so that answer cannot be
// mistaken for an analysis done on the calling thread). It does not import analyze-worker.js: messages
// that arrive while that module loads would reach this listener alone.
const DYING_WORKER = (dist: string) => `
import { parentPort, threadId } from 'node:worker_threads';
import { analyzeBody } from ${JSON.stringify(`${dist}/crawler/analyze.js`)};
import { packAnalysis } from ${JSON.stringify(`${dist}/crawler/analysis-wire.js`)};
parentPort.on('message', (msg) => {
  const url = msg.input.url;
  if (url.endsWith('/exit')) process.exit(7);
  if (url.endsWith('/throw')) throw new Error('boom in the worker');
  if (url.endsWith('/whoami')) return parentPort.postMessage({ id: msg.id, error: 'thread ' + threadId });
  if (url.endsWith('/hang')) for (;;);
  parentPort.postMessage({ id: msg.id, result: packAnalysis(analyzeBody(msg.input)) });
});
`;

describe.skipIf(!existsSync(POOL))('parse worker pool when a worker dies', () => {
  let dir = '';
  let createBodyAnalyzer: typeof CreateBodyAnalyzer;
  const page = (path: string): BodyInput => ({ ...input(1), url: `http://127.0.0.1${path}` });
  /** The thread that answers, from a worker that says so. */
  const whoami = (pool: ReturnType<typeof CreateBodyAnalyzer>): Promise<string> =>
    pool.analyze(page('/whoami')).then(
      () => 'the calling thread',
      (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/^.*thread /, 'thread '),
    );

  beforeAll(async () => {
    ({ createBodyAnalyzer } = (await import(pathToFileURL(POOL).href)) as { createBodyAnalyzer: typeof CreateBodyAnalyzer });
    dir = await mkdtemp(join(tmpdir(), 'gleaner-pool-'));
    await writeFile(join(dir, 'dying-worker.mjs'), DYING_WORKER(pathToFileURL(join(ROOT, 'dist')).href));
    await writeFile(join(dir, 'broken-worker.mjs'), "throw new Error('this build is broken');\n");
    // Answers each page with how many pages it had been handed by then, waiting up to 2 s for a second
    // before answering the first: a pool that hands one page at a time makes it say 1.
    await writeFile(
      join(dir, 'counting-worker.mjs'),
      `import { parentPort } from 'node:worker_threads';
let handed = 0;
const held = [];
parentPort.on('message', (msg) => {
  handed++;
  held.push(msg.id);
  const answer = () => { for (const id of held.splice(0)) parentPort.postMessage({ id, error: 'handed ' + handed }); };
  if (handed >= 2) answer(); else setTimeout(answer, 2000);
});
`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails the page a killed worker held, replaces the worker, and never parses on the calling thread', async () => {
    const pool = createBodyAnalyzer(2, { workerScript: pathToFileURL(join(dir, 'dying-worker.mjs')) });
    try {
      const before = new Set(await Promise.all([whoami(pool), whoami(pool)]));
      expect([...before].every((t) => t.startsWith('thread '))).toBe(true);
      // Both workers die, one by process.exit, one by an uncaught exception; each page is an error.
      const [exited, thrown] = await Promise.allSettled([pool.analyze(page('/exit')), pool.analyze(page('/throw'))]);
      expect(exited).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/exited \(code 7\)/) as unknown } });
      expect(thrown).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/boom in the worker/) as unknown } });
      // New threads answer; the calling thread does not.
      const after = await Promise.all([whoami(pool), whoami(pool), whoami(pool), whoami(pool)]);
      for (const t of after) {
        expect(t).toMatch(/^thread \d+$/);
        expect(before.has(t)).toBe(false);
      }
      expect(new Set(after).size).toBe(2);
      // And they parse as analyzeBody does.
      const inputs = Array.from({ length: 20 }, (_, i) => input(i));
      const expected = inputs.map((x) => analyzeBody({ ...x, body: x.body.slice() }));
      expect(await Promise.all(inputs.map((x) => pool.analyze(x)))).toEqual(expected);
    } finally {
      await pool.close();
    }
  });

  it('a worker that dies fails only the page it was parsing: the pages waiting behind it are parsed', async () => {
    const pool = createBodyAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'dying-worker.mjs')) });
    try {
      const inputs = Array.from({ length: 6 }, (_, i) => input(i));
      const expected = inputs.map((x) => analyzeBody({ ...x, body: x.body.slice() }));
      const [killer, ...innocent] = await Promise.allSettled([pool.analyze(page('/exit')), ...inputs.map((x) => pool.analyze(x))]);
      expect(killer).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/exited \(code 7\)/) as unknown } });
      expect(innocent).toEqual(expected.map((value) => ({ status: 'fulfilled', value })));
    } finally {
      await pool.close();
    }
  });

  it('fails a page still being analysed after maxAnalyzeMs, stops its worker, and goes on with the rest', async () => {
    const pool = createBodyAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'dying-worker.mjs')), maxAnalyzeMs: 4000 });
    try {
      const inputs = Array.from({ length: 4 }, (_, i) => input(i));
      const expected = inputs.map((x) => analyzeBody({ ...x, body: x.body.slice() }));
      // Three pages in a row that never finish: each fails, and the place is not given up as a worker that
      // cannot start. The limit counts from the hand-over, a new worker's start included: 4 s leaves room for
      // it on a loaded machine (a start took up to 1.2 s beside the rest of the suite; 1.5 s was too tight).
      const [a, b, c, ...rest] = await Promise.allSettled([pool.analyze(page('/hang')), pool.analyze(page('/hang')), pool.analyze(page('/hang')), ...inputs.map((x) => pool.analyze(x))]);
      for (const hung of [a, b, c]) expect(hung).toMatchObject({ status: 'rejected', reason: { message: 'analysing the page took longer than 4 s' } });
      expect(rest).toEqual(expected.map((value) => ({ status: 'fulfilled', value })));
    } finally {
      await pool.close();
    }
  });

  it('gives up a worker that dies before any page reaches it with the reason it gave, not the exit code after it', async () => {
    const pool = createBodyAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'broken-worker.mjs')) });
    try {
      // Pages come slower than workers die, so most starts fail with no page: the place is still given up.
      let reason = '';
      for (let waited = 0; waited < 30_000 && reason === ''; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
        await pool.analyze(input(0)).then(
          () => {},
          (e: unknown) => { if (String(e).includes('no parse worker could be started')) reason = String(e); },
        );
      }
      expect(reason).toMatch(/no parse worker could be started: the parse worker died: .*this build is broken/);
    } finally {
      await pool.close();
    }
  });

  it('hands a worker its next page before it answers the one it is parsing, so it never waits between pages', async () => {
    const pool = createBodyAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'counting-worker.mjs')) });
    try {
      const answers = await Promise.allSettled([0, 1, 2].map((i) => pool.analyze(input(i))));
      const said = answers.map((a) => (a.status === 'rejected' ? (a.reason as Error).message : 'an analysis'));
      // The first two pages went to the worker together; the third only when it had answered one.
      expect(said).toEqual(['analysing a page failed: handed 2', 'analysing a page failed: handed 2', 'analysing a page failed: handed 3']);
    } finally {
      await pool.close();
    }
  });

  it('gives up a worker that cannot start, with its reason, instead of restarting it forever', async () => {
    const pool = createBodyAnalyzer(1, { workerScript: pathToFileURL(join(dir, 'broken-worker.mjs')) });
    try {
      for (let i = 0; i < 5; i++) await expect(pool.analyze(input(i))).rejects.toThrow(/this build is broken/);
      await expect(pool.analyze(input(9))).rejects.toThrow(/no parse worker could be started: .*this build is broken/);
    } finally {
      await pool.close();
    }
  });
});
