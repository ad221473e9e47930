import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crawledStore, damageLargestTable, PAGES, url } from '../../test/support/damaged-store.js';
import { collect } from '../../test/support/store-records.js';
import { isGleanerError } from '../errors.js';
import { repairStore } from './repair.js';
import { openStore, storeDamageError } from './store.js';

async function allPages(dir: string): Promise<string[]> {
  const store = await openStore(dir, { mustExist: true });
  try {
    return (await collect(store.pages())).map((p) => p.url);
  } finally {
    await store.close();
  }
}

describe('a damaged store (real LevelDB in a temp dir)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-repair-'));
    await crawledStore(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is reported as damaged, with the command that repairs it, not as an unexpected error', async () => {
    damageLargestTable(dir);
    const failure = await allPages(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isGleanerError(failure) && failure.code).toBe('DATA_DIR');
    expect((failure as Error).message).toMatch(new RegExp(`^the page store in ${dir} is damaged \\(LevelDB: .+\\): \`gleaner repair --data ${dir}\``));
  });

  it('repair keeps every readable page, agrees its facts with them, and queues the lost ones again', async () => {
    damageLargestTable(dir);
    const summary = await repairStore(dir);
    expect(summary.lostFiles).toBe(1);
    const kept = await allPages(dir);
    expect(summary.pages).toBe(kept.length);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(PAGES);

    const store = await openStore(dir, { mustExist: true });
    try {
      expect((await collect(store.pageFacts())).map(([u]) => u).sort()).toEqual([...kept].sort());
      const queued = new Set((await collect(store.frontier.queued())).map((e) => e.url));
      const keptSet = new Set(kept);
      // Every URL is stored or queued (the lost pages, and the 20 never fetched), none both.
      for (let i = 0; i < PAGES + 20; i++) expect(keptSet.has(url(i)) !== queued.has(url(i))).toBe(true);
    } finally {
      await store.close();
    }
    // A second repair finds nothing more to do.
    expect(await repairStore(dir)).toEqual({ pages: kept.length, factsAdded: 0, factsDropped: 0, requeued: 0, lostFiles: 0 });
  });

  it('repair of a whole store changes nothing', async () => {
    const before = await allPages(dir);
    expect(await repairStore(dir)).toEqual({ pages: PAGES, factsAdded: 0, factsDropped: 0, requeued: 0, lostFiles: 0 });
    expect(await allPages(dir)).toEqual(before);
  });

  it('repair refuses a store another process has open, and a dir without a store', async () => {
    const store = await openStore(dir);
    try {
      await expect(repairStore(dir)).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    } finally {
      await store.close();
    }
    const missing = await repairStore(join(dir, 'elsewhere')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isGleanerError(missing) && missing.code).toBe('NOT_FOUND');
    expect((missing as Error).message).toContain('nothing to repair');
  });
});

describe('storeDamageError', () => {
  const level = (code: string, message: string) => Object.assign(new Error(message), { code });
  it('is LevelDB corruption and I/O errors, but not the machine\'s limits or a full disk', () => {
    expect(storeDamageError(level('LEVEL_CORRUPTION', 'Corruption: checksum mismatch'), 'd')?.message).toBe(
      'the page store in d is damaged (LevelDB: Corruption: checksum mismatch): `gleaner repair --data d` keeps every page it can still read',
    );
    // Wrapped as classic-level wraps an open failure.
    expect(storeDamageError(Object.assign(new Error('Database failed to open'), { code: 'LEVEL_DATABASE_NOT_OPEN', cause: level('LEVEL_IO_ERROR', 'IO error: d/000007.ldb: Invalid argument') }), 'd')?.code).toBe('DATA_DIR');
    expect(storeDamageError(level('LEVEL_IO_ERROR', 'IO error: d/000009.ldb: Too many open files'), 'd')).toBeUndefined();
    expect(storeDamageError(level('LEVEL_IO_ERROR', 'IO error: d/000005.log: No space left on device'), 'd')).toBeUndefined();
    expect(storeDamageError(level('LEVEL_NOT_FOUND', 'not found'), 'd')).toBeUndefined();
  });
  it('quotes LevelDB as one short line a terminal shows as it is: a damaged CURRENT is quoted whole', () => {
    const quoted = `Corruption: CURRENT file does not end with newline: \u001b[2J${'x'.repeat(100_000)}\nmore`;
    const message = storeDamageError(level('LEVEL_CORRUPTION', quoted), 'd')!.message;
    expect(message).toBe(`the page store in d is damaged (LevelDB: Corruption: CURRENT file does not end with newline: ?[2J${'x'.repeat(144)}…): \`gleaner repair --data d\` keeps every page it can still read`);
  });
});
