// Issue 12, class 8, with the real CLI (dist/): `serve --workers 2` ends on SIGTERM and SIGINT with all
// its workers; negative or missing numbers are Gleaner's one line; no escape codes when output is not a
// terminal; a command that is refused leaves no files.

import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFillerSite, type FillerSite } from './sites/filler-site.js';
import { alive, BUILT, childPids, CLI, runCli, startCli } from './support/run-cli.js';
import { autoWorkerCount, workerFacts } from '../web/index.js';

if (!BUILT) console.warn('CLI edge tests skipped: dist/ is not built (run `npm run build`; `npm test` does)');

describe.skipIf(!BUILT)('CLI edges (real CLI)', () => {
  let work: string;
  let site: FillerSite;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gleaner-edges-'));
    // A Crawl-delay above --max-crawl-delay makes the crawl warn, so the test sees a warning line.
    site = await startFillerSite(3, 200, 'User-agent: *\nCrawl-delay: 5\n');
    // The data dir the serve tests serve.
    expect((await runCli(['crawl', site.url, '--data', 'd', '--max-crawl-delay', '0'], work)).code).toBe(0);
    expect((await runCli(['index', '--data', 'd'], work)).code).toBe(0);
  });
  afterAll(async () => {
    await site.close();
    await rm(work, { recursive: true, force: true });
  });

  it('no escape codes or carriage returns when output is not a terminal (warnings included)', async () => {
    const crawl = await runCli(['crawl', site.url, '--data', 'esc', '--max-crawl-delay', '0'], work);
    expect(crawl.code, crawl.stderr).toBe(0);
    expect(crawl.stderr).toContain('warn: robots.txt Crawl-delay above the cap');
    const index = await runCli(['index', '--data', 'esc'], work);
    expect(index.code, index.stderr).toBe(0);
    for (const text of [crawl.stdout, crawl.stderr, index.stdout, index.stderr]) {
      expect(text).not.toMatch(/[\r\x1b]/);
    }
  });

  it.each([
    ['SIGTERM', 'the primary'],
    ['SIGINT', 'the primary'],
    ['SIGINT', 'the process group (Ctrl-C in a terminal)'],
  ] as const)('serve --workers 2 ends, primary and workers, on %s to %s', async (signal, to) => {
    const dataDir = join(work, 'd');
    const group = to !== 'the primary';
    const serve = startCli(['serve', '--data', dataDir, '--port', '0', '--workers', '2'], work, { detached: group });
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 30_000 }).toMatch(/Gleaner search: http:\/\/[^ ]+ \(2 workers\)/);
      const url = /Gleaner search: (http:\/\/\S+)/.exec(serve.output().stdout)![1]!;
      expect((await fetch(`${url}api/search?q=filler`)).status).toBe(200);
      const workers = childPids(serve.pid!);
      expect(workers).toHaveLength(2);
      if (group) process.kill(-serve.pid!, signal);
      else serve.kill(signal);
      const code = await Promise.race([serve.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 15_000))]);
      expect(code).toBe(0);
      await expect.poll(() => workers.filter(alive), { timeout: 5_000 }).toEqual([]);
      // Stopping is not mistaken for a crash: no worker is started again on the way out.
      expect(serve.output().stderr).not.toContain('starting another');
    } finally {
      if (serve.exitCode === null) serve.kill('SIGKILL');
      for (const pid of childPids(serve.pid!)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a worker that cannot start is not forked again in a loop: the waits grow, the others serve on, stopping stops', async () => {
    const dataDir = join(work, 'dcrash');
    cpSync(join(work, 'd'), dataDir, { recursive: true });
    const serve = startCli(['serve', '--data', dataDir, '--port', '0', '--workers', '2'], work);
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 30_000 }).toMatch(/\(2 workers\)/);
      const url = /Gleaner search: (http:\/\/\S+)/.exec(serve.output().stdout)![1]!;
      // Every worker started from now on finds no index and exits before it listens.
      renameSync(join(dataDir, 'index'), join(dataDir, 'index.gone'));
      process.kill(childPids(serve.pid!)[0]!, 'SIGKILL');
      await expect.poll(() => serve.output().stderr, { timeout: 15_000 }).toContain('2 failed to start in a row');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // Forked again at once, a failing worker had been started dozens of times a second.
      const starts = serve.output().stderr.split('\n').filter((l) => l.includes('starting another'));
      expect(starts.length).toBeGreaterThanOrEqual(3);
      expect(starts.length).toBeLessThanOrEqual(5);
      expect(starts[0]).toMatch(/starting another$/); // the killed worker had served: replaced at once
      expect(starts[1]).toContain('in 1 s (1 failed to start in a row)');
      // The worker that kept its index still answers on the port.
      expect((await fetch(`${url}healthz`)).status).toBe(200);
      serve.kill('SIGTERM');
      const code = await Promise.race([serve.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 15_000))]);
      expect(code).toBe(0);
    } finally {
      if (serve.exitCode === null) serve.kill('SIGKILL');
      for (const pid of childPids(serve.pid!)) process.kill(pid, 'SIGKILL');
    }
  });

  it('serve without --workers answers from as many processes as autoWorkerCount gives this machine', async () => {
    const dataDir = join(work, 'd');
    const expected = autoWorkerCount(await workerFacts(dataDir));
    const serve = startCli(['serve', '--data', dataDir, '--port', '0'], work);
    try {
      await expect.poll(() => serve.output().stdout, { timeout: 30_000 }).toMatch(/Gleaner search: http:\/\/\S+/);
      const line = /Gleaner search: (http:\/\/\S+)( \((\d+) workers\))?/.exec(serve.output().stdout)!;
      expect(Number(line[3] ?? 1)).toBe(expected);
      expect((await fetch(`${line[1]!}api/search?q=filler`)).status).toBe(200);
      // The primary with its workers, or one process alone.
      expect(childPids(serve.pid!)).toHaveLength(expected > 1 ? expected : 0);
      serve.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    } finally {
      if (serve.exitCode === null) serve.kill('SIGKILL');
      for (const pid of childPids(serve.pid!)) process.kill(pid, 'SIGKILL');
    }
  });

  it.each([
    [['serve', '--workers', 'many'], 'gleaner serve: --workers must be auto or a whole number from 1 to 64, not "many"'],
    [['crawl', 'http://x/', '--max-pages', '-5'], 'gleaner crawl: --max-pages must be a whole number of 1 or more, not "-5"'],
    [['crawl', 'http://x/', '--max-pages'], 'gleaner crawl: --max-pages needs a value (see `gleaner crawl --help`)'],
    [['crawl', 'http://x/', '--max-pages', '--delay', '0'], 'gleaner crawl: --max-pages needs a value (see `gleaner crawl --help`)'],
    [['crawl', 'http://x/', '--delay', '-1'], 'gleaner crawl: --delay must be a number from 0 to 3600, not "-1"'],
    [['serve', '--port', '-1'], 'gleaner serve: --port must be a whole number from 0 to 65535, not "-1"'],
    [['serve', '--workers'], 'gleaner serve: --workers needs a value (see `gleaner serve --help`)'],
    [['demo', '--port', '-3000'], 'gleaner demo: --port must be a whole number from 0 to 65535, not "-3000"'],
  ])('%j is one line of Gleaner\'s, exit 2', async (args, line) => {
    const r = await runCli(args, work);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('an output that cannot be written (a full disk) is one line and exit 1, not a stack trace', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['crawl', '--help'], ['--version']]) {
        const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8', timeout: 30_000 });
        expect(r.status, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe('gleaner: cannot write standard output: no space left on device\n');
      }
    } finally {
      closeSync(full);
    }
  });

  it('a refused command leaves no files: no data dir, no log', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    // Exit 2 for bad usage; 1 for a log that cannot be opened, found after the data dir is made (which goes again).
    const refused: [string[], number][] = [
      [['crawl', 'http://x/', '--include', '('], 2],
      [['crawl', 'http://x/', '--data', 'dd', '--exclude', '['], 2],
      [['crawl', 'http://x/', '--data', 'dd', '--log', 'crawl.jsonl', '--include', 're:(', '--max-pages', '5'], 2],
      [['crawl', 'http://x/', '--data', 'dd', '--max-pages', '-5'], 2],
      [['crawl', 'http://x/', '--data', 'dd', '--scope', 'planet'], 2],
      [['demo', '--data', 'dd', '--port', '-1'], 2],
      [['index', '--data', 'dd', '--bogus'], 2],
      [['crawl', 'http://x/', '--data', 'dd', '--log', join(work, 'no-such-folder', 'crawl.jsonl')], 1],
      [['crawl', 'http://x/', '--data', 'dd', '--log', work], 1],
      // An empty --data was the current folder, filled with a store; a loop of links was "a bug".
      [['crawl', 'http://x/', '--data', ''], 2],
      [['index', '--data', ''], 2],
      [['crawl', 'http://x/', '--data', join(work, 'loop1')], 1],
      [['serve', '--data', join(work, 'loop1'), '--port', '0'], 1],
    ];
    symlinkSync(join(work, 'loop2'), join(work, 'loop1'));
    symlinkSync(join(work, 'loop1'), join(work, 'loop2'));
    for (const [args, code] of refused) {
      const r = await runCli(args, empty);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(readdirSync(empty), args.join(' ')).toEqual([]);
    }
  });
});
