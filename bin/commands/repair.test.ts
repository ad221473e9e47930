import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { crawledStore, damageLargestTable } from '../../test/support/damaged-store.js';
import { EXIT, main } from '../cli.js';

function capture() {
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
  return { err: () => err.join('') };
}

describe('gleaner repair', () => {
  let dir: string | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a damaged store stops `index` with one line naming the repair; after `repair`, `index` builds', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-repair-cli-'));
    await crawledStore(dir);
    damageLargestTable(dir);
    let io = capture();
    expect(await main(['index', '--data', dir])).toBe(EXIT.failed);
    expect(io.err()).toMatch(new RegExp(`^gleaner index: the page store in ${dir} is damaged \\(LevelDB: [^\\n]+\\): \`gleaner repair --data ${dir}\` keeps every page it can still read\\n$`));
    vi.restoreAllMocks();

    io = capture();
    expect(await main(['repair', '--data', dir])).toBe(EXIT.ok);
    expect(io.err()).toMatch(new RegExp(`^repaired the store in ${dir}: \\d+ pages kept; 1 damaged file moved to ${dir}/store/lost/ after what could be read of it was kept; \\d+ URLs seen but not stored queued again for \`gleaner crawl\`\\n$`));
    vi.restoreAllMocks();

    io = capture();
    expect(await main(['index', '--data', dir])).toBe(EXIT.ok);
    expect(io.err()).not.toContain('damaged');
  });

  it('a dir without a store is one line and a failure', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-repair-cli-'));
    const io = capture();
    expect(await main(['repair', '--data', join(dir, 'none')])).toBe(EXIT.failed);
    expect(io.err()).toBe(`gleaner repair: no crawl store in ${join(dir, 'none')}: nothing to repair\n`);
  });
});
