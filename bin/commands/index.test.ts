import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDataDir, writePages } from '../../test/support/index-fixture.js';
import { indexCommand } from './index.js';

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
