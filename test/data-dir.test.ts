// Issue 12, class 6: bad data dirs. The real CLI (dist/) is given a file, a path under a file, a
// read-only dir, the store or index folder of an existing data dir, and a disk that fills mid-crawl.
// Each must be one line naming the path and the cause, a non-zero exit, no request sent where the dir
// can be judged before the crawl; on a full disk the crawl stops once and what it committed stays readable.

import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../shared/store/index.js';
import { startFillerSite, type FillerSite } from './sites/filler-site.js';
import { BUILT, runCli, startCli, type CliResult } from './support/run-cli.js';

if (!BUILT) console.warn('data dir CLI tests skipped: dist/ is not built (run `npm run build`; `npm test` does)');

const IS_ROOT = process.getuid?.() === 0;

/** Mounts a tmpfs at `dir` (root only); false when this machine will not. */
function mountTmpfs(dir: string, options: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One line on stderr, naming what it must, and never Node's own text. */
function expectOneLine(r: CliResult, ...parts: string[]): void {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  for (const part of parts) expect(lines[0]).toContain(part);
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at |E[A-Z]{3,}:/);
}

async function countPages(dataDir: string): Promise<number> {
  const store = await openStore(dataDir, { mustExist: true });
  let n = 0;
  try {
    for await (const _page of store.pages()) n++;
  } finally {
    await store.close();
  }
  return n;
}

describe.skipIf(!BUILT)('bad data dirs (real CLI)', () => {
  let work: string;
  let site: FillerSite;
  const mounts: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gleaner-datadir-'));
    site = await startFillerSite(3, 200);
  });
  afterAll(async () => {
    for (const m of mounts.reverse()) {
      try {
        execFileSync('umount', [m], { stdio: 'ignore' });
      } catch {
        execFileSync('umount', ['-l', m], { stdio: 'ignore' });
      }
    }
    await site.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A data dir with a crawl and an index in it, as `gleaner crawl` and `gleaner index` leave one. */
  async function realDataDir(dir: string): Promise<void> {
    expect((await runCli(['crawl', site.url, '--data', dir, '--delay', '0'], work)).code).toBe(0);
    expect((await runCli(['index', '--data', dir], work)).code).toBe(0);
  }

  it('a file as --data: every command says so in one line and exits 1; crawl sends nothing', async () => {
    writeFileSync(join(work, 'afile'), 'not a dir');
    const before = site.requests.length;
    for (const args of [['crawl', site.url], ['index'], ['serve', '--port', '0'], ['demo', '--port', '0']]) {
      const r = await runCli([...args, '--data', 'afile'], work);
      expect(r.code, args[0]).toBe(1);
      expectOneLine(r, `gleaner ${args[0]}: afile is a file, not a directory`);
    }
    const under = await runCli(['crawl', site.url, '--data', 'afile/data'], work);
    expect(under.code).toBe(1);
    expectOneLine(under, 'afile/data is not a directory', 'is a file');
    expect(site.requests.length).toBe(before);
  });

  it('the store or index folder of a data dir as --data: says which data dir was meant, sends nothing', async () => {
    await realDataDir('d1');
    const before = site.requests.length;
    for (const [args, given] of [
      [['crawl', site.url], 'd1/store'],
      [['crawl', site.url], 'd1/index'],
      [['index'], 'd1/store'],
      [['serve', '--port', '0'], 'd1/index'],
      [['demo', '--port', '0'], 'd1/store'],
      [['crawl', site.url], 'd1/store/deeper'],
    ] as const) {
      const r = await runCli([...args, '--data', given], work);
      expect(r.code, `${args[0]} ${given}`).toBe(1);
      expectOneLine(r, `${given} is`, 'folder of the data dir d1: use --data d1');
    }
    expect(site.requests.length).toBe(before);
    // The data dir itself is untouched and still reads whole.
    expect(await countPages(join(work, 'd1'))).toBe(4);
  });

  it('a read-only dir: crawl and index say so in one line before any request; serve still reads it', async () => {
    const ro = join(work, 'ro');
    mkdirSync(ro);
    let how: string;
    if (IS_ROOT) {
      // Root writes through chmod 0555: only a read-only mount is read-only to root.
      if (!mountTmpfs(ro, 'size=4m')) {
        console.warn('read-only data dir test skipped: running as root and cannot mount a tmpfs here');
        return;
      }
      mounts.push(ro);
      await realDataDir('ro/data');
      execFileSync('mount', ['-o', 'remount,ro', ro]);
      how = 'it is on a read-only file system';
    } else {
      await realDataDir('ro/data');
      chmodSync(join(ro, 'data'), 0o555);
      chmodSync(ro, 0o555);
      how = 'permission denied';
    }
    const before = site.requests.length;
    const crawl = await runCli(['crawl', site.url, '--data', 'ro/data', '--delay', '0'], work);
    expect(crawl.code).toBe(1);
    expectOneLine(crawl, 'gleaner crawl: cannot write to ro/data: ' + how);
    const fresh = await runCli(['crawl', site.url, '--data', 'ro/new', '--delay', '0'], work);
    expect(fresh.code).toBe(1);
    expectOneLine(fresh, 'ro/new', how);
    const index = await runCli(['index', '--data', 'ro/data'], work);
    expect(index.code).toBe(1);
    expectOneLine(index, 'gleaner index: cannot write to ro/data: ' + how);
    expect(site.requests.length).toBe(before);
    // Serving only reads: a read-only data dir is fine for it.
    const serve = startCli(['serve', '--data', 'ro/data', '--port', '0'], work);
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 20_000 }).toMatch(/Gleaner search: http/);
    } finally {
      serve.kill('SIGTERM');
      await serve.exited;
      if (!IS_ROOT) for (const dir of [ro, join(ro, 'data')]) chmodSync(dir, 0o755);
    }
  });

  it('a disk that fills mid-crawl: the crawl stops once, in one line, exit 1; every committed page reads back', async () => {
    if (!IS_ROOT) {
      console.warn('full-disk test skipped: it mounts a small tmpfs, which needs root');
      return;
    }
    const small = join(work, 'small');
    mkdirSync(small);
    if (!mountTmpfs(small, 'size=3m')) {
      console.warn('full-disk test skipped: cannot mount a tmpfs here');
      return;
    }
    mounts.push(small);
    // 400 pages of 16 KB that do not compress: about 6 MB for a 3 MB disk.
    const big = await startFillerSite(400, 16 * 1024);
    try {
      const r = await runCli(['crawl', big.url, '--data', 'small/data', '--delay', '0', '--no-sitemaps'], work);
      expect(r.code).toBe(1);
      expectOneLine(r, 'gleaner crawl: crawl stopped: the disk holding small/data is full');
      const stored = Number(/the (\d+) pages stored so far are kept/.exec(r.stderr)?.[1]);
      expect(stored).toBeGreaterThan(10);
      expect(stored).toBeLessThan(400);
      // Stopped once: it asked for little more than it could store (the pages under way at the time).
      expect(big.requests.filter((p) => p.startsWith('/p/')).length).toBeLessThan(stored + 20);

      // What was committed is readable: a copy on a disk with room opens whole and indexes.
      const copy = join(work, 'copy');
      cpSync(join(small, 'data'), copy, { recursive: true });
      expect(await countPages(copy)).toBe(stored);
      const index = await runCli(['index', '--data', 'copy'], work);
      expect(index.code, index.stderr).toBe(0);
      expect(index.stdout).toMatch(new RegExp(`indexed ${stored} documents`));

      // A crawl started on the full disk is refused before any request, and leaves no dir behind.
      const asked = big.requests.length;
      const again = await runCli(['crawl', big.url, '--data', 'small/other', '--delay', '0'], work);
      expect(again.code).toBe(1);
      expectOneLine(again, 'gleaner crawl: the disk holding small/other is full');
      expect(big.requests.length).toBe(asked);
      expect(existsSync(join(small, 'other'))).toBe(false);
      const indexHere = await runCli(['index', '--data', 'small/data'], work);
      expect(indexHere.code).toBe(1);
      expectOneLine(indexHere, 'gleaner index: the disk holding small/data is full');
    } finally {
      await big.close();
    }
  });
});
