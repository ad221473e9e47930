// The page typeahead built in a worker thread gives the bytes the build thread would have written, and
// a worker that cannot start or fails leaves the work to the calling thread. Uses the compiled build
// (dist/, made by `npm test`): worker threads run JavaScript, not the TypeScript sources.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TYPEAHEAD_OPTIONS } from '../indexer/page-typeahead.js';
import type { startTypeahead as StartTypeahead, TypeaheadJob, typeaheadBytes as TypeaheadBytes } from '../indexer/typeahead-thread.js';

const DIST = join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
const THREAD = join(DIST, 'indexer', 'typeahead-thread.js');
if (!existsSync(THREAD)) console.warn('typeahead thread test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

const job = (n: number, maxEntries = 500_000): TypeaheadJob => ({
  docs: Array.from({ length: n }, (_, i) => ({ title: `Page ${i} HashMap::entry café 日本語`, sections: [{ id: `s${i}`, heading: `Section ${i} of partitioning`, start: 0 }] })),
  inbound: Uint32Array.from({ length: n }, (_, i) => (i * 7) % 13),
  options: { ...DEFAULT_TYPEAHEAD_OPTIONS, maxEntries },
});
const joined = (lines: Uint8Array[]) => Buffer.concat(lines).toString('utf8');

describe.skipIf(!existsSync(THREAD))('the typeahead in a worker thread', () => {
  let startTypeahead: typeof StartTypeahead;
  let typeaheadBytes: typeof TypeaheadBytes;
  let dir = '';
  beforeAll(async () => {
    ({ startTypeahead, typeaheadBytes } = (await import(pathToFileURL(THREAD).href)) as { startTypeahead: typeof StartTypeahead; typeaheadBytes: typeof TypeaheadBytes });
    dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    await writeFile(join(dir, 'broken-worker.mjs'), "throw new Error('this build is broken');\n");
    await writeFile(join(dir, 'other-worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage([new TextEncoder().encode('from the worker\\n')]);\n");
    await writeFile(join(dir, 'failing-worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ error: 'no memory left' });\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the lines the build thread would write, byte for byte, a budget included', async () => {
    for (const j of [job(300), job(300, 50)]) {
      const here = typeaheadBytes(j);
      const there = await startTypeahead(j);
      expect(there.length).toBe(here.length);
      expect(joined(there)).toBe(joined(here));
    }
    expect(joined(await startTypeahead(job(300)))).toContain('Section 299 of partitioning');
    expect(joined(await startTypeahead(job(300, 50)))).not.toContain('Section 299 of partitioning');
  });

  it("uses the worker's answer", async () => {
    expect(joined(await startTypeahead(job(40), pathToFileURL(join(dir, 'other-worker.mjs'))))).toBe('from the worker\n');
  });

  it('builds it in the calling thread when the worker cannot start, or answers a failure', async () => {
    const here = joined(typeaheadBytes(job(40)));
    expect(joined(await startTypeahead(job(40), pathToFileURL(join(dir, 'broken-worker.mjs'))))).toBe(here);
    expect(joined(await startTypeahead(job(40), pathToFileURL(join(dir, 'failing-worker.mjs'))))).toBe(here);
  });
});
