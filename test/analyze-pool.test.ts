// The worker-thread pool that parses pages gives the same analysis as the function it runs. Uses the
// compiled build (dist/, made by `npm test`): worker threads run JavaScript, not the TypeScript sources.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
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
