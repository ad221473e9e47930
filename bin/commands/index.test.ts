import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDataDir, writePages } from '../../test/support/index-fixture.js';
import { formatIndexProgress, indexCommand, phaseSecondsLeft } from './index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

function captureStdout(): () => string {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return () => out;
}

describe('gleaner index', () => {
  it('indexes the data dir and closes with a summary (docs, terms, size, seconds)', async () => {
    const { dir, cleanup } = await tempDataDir();
    cleanups.push(cleanup);
    await writePages(dir, [{ url: 'http://s.test/', title: 'Home', text: 'welcome home' }]);
    const out = captureStdout();
    expect(await indexCommand.run(['--data', dir])).toBe(0);
    expect(out()).toMatch(/indexed 1 documents, \d+ terms, [\d.]+ (B|KiB|MiB) on disk in [\d.]+ s \(full build\)/);
    expect(await indexCommand.run(['--data', dir])).toBe(0);
    expect(out()).toMatch(/incremental: 0 new or changed, 1 unchanged, 0 removed/);
    expect(await indexCommand.run(['--data', dir, '--full'])).toBe(0);
  });
  it('prints its help', async () => {
    const out = captureStdout();
    expect(await indexCommand.run(['--help'])).toBe(0);
    expect(out()).toContain('--full');
    expect(out()).toContain('--analyze-threads N');
  });
  it('refuses an --analyze-threads that is not a whole number from 0 to 64, in one line', async () => {
    for (const bad of ['x', '-1', '65', '1.5']) {
      await expect(indexCommand.run(['--analyze-threads', bad])).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: `index: --analyze-threads must be a whole number from 0 to 64, not "${bad}"` });
    }
  });
  it('refuses unknown flags and stray arguments with a one-line message', async () => {
    await expect(indexCommand.run(['--bogus'])).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(indexCommand.run(['somewhere'])).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('somewhere') as unknown });
  });
  it('says to crawl first when the data dir has no store', async () => {
    const { dir, cleanup } = await tempDataDir();
    cleanups.push(cleanup);
    await expect(indexCommand.run(['--data', dir])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the index progress line', () => {
  it('shows a phase of known size as a bar with the time left at its rate so far', () => {
    const p = { phase: 'analyze', done: 5000, total: 20_000 } as const;
    // 5,000 pages in 10 s: 15,000 more take 30 s.
    const left = phaseSecondsLeft(p, 1000, 11_000);
    expect(left).toBe(30);
    expect(formatIndexProgress(p, left)).toBe('index: analysing 5,000 of 20,000 pages [#####---------------] 25%, about 30 s of it left');
    expect(formatIndexProgress({ phase: 'analyze', done: 20_000, total: 20_000 }, 0)).toBe('index: analysing 20,000 of 20,000 pages [####################] 100%');
  });
  it('gives no time left before the rate is known, and a count where the total is not', () => {
    expect(phaseSecondsLeft({ phase: 'analyze', done: 0, total: 100 }, 0, 5000)).toBeUndefined();
    expect(phaseSecondsLeft({ phase: 'analyze', done: 10, total: 100 }, 0, 500)).toBeUndefined();
    expect(formatIndexProgress({ phase: 'analyze', done: 64, total: 100 })).toBe('index: analysing 64 of 100 pages [############--------] 64%');
    expect(formatIndexProgress({ phase: 'read', done: 12_000, total: 0 })).toBe('index: reading pages 12,000');
    expect(formatIndexProgress({ phase: 'write', done: 0, total: 1 })).toBe('index: writing');
  });
});
