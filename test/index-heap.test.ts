// `gleaner index` with the real CLI (dist/) and a heap too small for its build: one line saying so and
// what to do, exit 1, and the index in place untouched; the same heap builds a small crawl. (Without the
// heap sized to the machine, a large crawl met Node's 4 GiB default and V8's abort: bin/heap.ts.)

import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../shared/store/index.js';
import { storedPage } from './support/store-records.js';
import { alive, BUILT, childPids, runCli, startCli } from './support/run-cli.js';

if (!BUILT) console.warn('index heap tests skipped: dist/ is not built (run `npm run build`; `npm test` does)');

/** A heap that loads the CLI and indexes a few pages, but not thousands of long ones. */
const SMALL_HEAP_MB = '48';
const LARGE_PAGES = 2000;

/** `n` pages of about 6 KB of distinct words each, linked in a ring. */
async function crawlOf(dataDir: string, n: number): Promise<void> {
  const store = await openStore(dataDir);
  const url = (i: number) => `http://heap.test/p${i}.html`;
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 700 }, (_, w) => `w${(i * 7919 + w * 104729) % 200_000}x`).join(' ');
    await store.commitFetch(undefined, storedPage(url(i), [url((i + 1) % n)], { title: `Page ${i}`, text }), []);
  }
  await store.close();
}

describe.skipIf(!BUILT)('gleaner index out of heap (real CLI)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gleaner-heap-'));
    await crawlOf(join(work, 'small'), 5);
    await crawlOf(join(work, 'large'), LARGE_PAGES);
  }, 120_000);
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('builds a small crawl within the small heap', async () => {
    const r = await runCli(['index', '--data', 'small'], work, { GLEANER_HEAP_MB: SMALL_HEAP_MB });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^indexed 5 documents/);
  });

  it('says in one line that a build ran out of heap, exits 1 and leaves the index in place', async () => {
    const first = await runCli(['index', '--data', 'large'], work);
    expect(first.code, first.stderr).toBe(0);
    const current = readFileSync(join(work, 'large', 'index', 'CURRENT'), 'utf8');
    const r = await runCli(['index', '--data', 'large', '--full'], work, { GLEANER_HEAP_MB: SMALL_HEAP_MB });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `gleaner index: out of memory: the build needed more than its ${SMALL_HEAP_MB} MiB of heap (or the machine ran out); ` +
        'the index in place is unchanged. Give it more with GLEANER_HEAP_MB=MiB, or index on a machine with more memory\n',
    );
    expect(readFileSync(join(work, 'large', 'index', 'CURRENT'), 'utf8')).toBe(current);
    // Nothing of the unfinished build is left beside it.
    expect(readdirSync(join(work, 'large', 'index')).filter((e) => e.startsWith('gen-'))).toEqual([current.trim()]);
    // The index in place still answers.
    const again = await runCli(['index', '--data', 'large'], work);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${LARGE_PAGES} unchanged`);
  }, 180_000); // three builds of the large crawl: 39 s measured beside the rest of the suite

  it('a build whose `gleaner index` is killed (SIGKILL) stops too, and leaves the store to the next one', async () => {
    const index = startCli(['index', '--data', 'large', '--full'], work);
    try {
      // The process that builds is the one `gleaner index` ran again with its heap.
      await expect.poll(() => childPids(index.pid!), { timeout: 10_000 }).toHaveLength(1);
      const [build] = childPids(index.pid!);
      index.kill('SIGKILL');
      await expect.poll(() => alive(build!), { timeout: 10_000 }).toBe(false);
    } finally {
      for (const pid of childPids(index.pid!)) process.kill(pid, 'SIGKILL');
    }
    const next = await runCli(['index', '--data', 'large'], work);
    expect(next.code, next.stderr).toBe(0);
  });

  it('a build stopped by Ctrl-C says so in one line, exits 130 and leaves the index in place', async () => {
    const current = readFileSync(join(work, 'large', 'index', 'CURRENT'), 'utf8');
    // In its own process group, as a terminal's Ctrl-C reaches `gleaner index` and its build at once.
    const index = startCli(['index', '--data', 'large', '--full'], work, { detached: true });
    try {
      await expect.poll(() => childPids(index.pid!), { timeout: 10_000 }).toHaveLength(1);
      process.kill(-index.pid!, 'SIGINT');
      expect(await index.exited).toBe(130);
    } finally {
      for (const pid of childPids(index.pid!)) process.kill(pid, 'SIGKILL');
    }
    const lines = index.output().stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('gleaner index: stopped by Ctrl-C (SIGINT); the index in place is unchanged. Run `gleaner index` again to build');
    expect(readFileSync(join(work, 'large', 'index', 'CURRENT'), 'utf8')).toBe(current);
    expect(readdirSync(join(work, 'large', 'index')).filter((e) => e.startsWith('gen-'))).toEqual([current.trim()]);
  });

  it('refuses a GLEANER_HEAP_MB that is not a number of MiB, in one line, exit 2', async () => {
    const r = await runCli(['index', '--data', 'small'], work, { GLEANER_HEAP_MB: 'lots' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gleaner: GLEANER_HEAP_MB must be a whole number of MiB, 16 or more, not "lots"\n');
  });
});
