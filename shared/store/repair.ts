// Repairing a page store LevelDB reports damaged (`gleaner repair`): LevelDB's own RepairDB keeps every
// entry it can still read, then the store's parts are put back in agreement (LevelStore.reconcile). The
// damage itself is recognised where the store is read (store.ts storeDamageError), whose message names
// the command.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { dataDirError } from '../data-dir.js';
import { GleanerError } from '../errors.js';
import { LevelStore, openError, storeDamageError, storePath, type ReconcileSummary } from './store.js';

/**
 * Rebuilds a damaged store from what LevelDB can still read (its RepairDB): readable entries of every
 * table are kept, and each table it cannot read whole moves to `store/lost/` once what it could read of
 * it is copied out. Needs the store closed.
 */
export async function repairStore(dataDir: string): Promise<RepairSummary> {
  // `level` types its class without classic-level's static repair; the class is classic-level's.
  const levelClass = Level as unknown as { repair(location: string): Promise<void> };
  await checkRepairable(dataDir);
  const lost = join(storePath(dataDir), 'lost');
  const lostTables = (): string[] => (existsSync(lost) ? readdirSync(lost).filter((f) => /\.(ldb|sst)$/.test(f)) : []);
  const lostBefore = new Set(lostTables());
  try {
    await levelClass.repair(storePath(dataDir));
  } catch (e) {
    throw dataDirError(e, dataDir) ?? new GleanerError('DATA_DIR', `could not repair the store in ${dataDir}: ${(e as Error).message}`, { cause: e });
  }
  // RepairDB moves into lost/ every table it could not read whole, after copying out what it could read
  // (and, always, the old manifest and the logs it has turned into tables: no loss).
  const lostFiles = lostTables().filter((f) => !lostBefore.has(f)).length;
  const store = await LevelStore.open(dataDir, { mustExist: true });
  try {
    return { ...(await store.reconcile(lostFiles > 0)), lostFiles };
  } finally {
    await store.close();
  }
}

/**
 * Throws unless the store is there, closed and damaged or whole: LevelDB's repair takes no lock, so a
 * store another process has open is refused (opening takes the lock, or fails saying who holds it).
 */
async function checkRepairable(dataDir: string): Promise<void> {
  const path = storePath(dataDir);
  const files = existsSync(path) ? readdirSync(path) : [];
  // CURRENT may be the damaged file: tables or logs are enough for the repair to rebuild from.
  if (!files.some((f) => /^(CURRENT|.*\.(ldb|sst|log))$/.test(f))) throw new GleanerError('NOT_FOUND', `no crawl store in ${dataDir}: nothing to repair`);
  const probe = new Level(path, { createIfMissing: false });
  try {
    await probe.open();
  } catch (e) {
    const err = openError(e, dataDir);
    if (err.code === 'STORE_LOCKED' || (err.code !== 'NOT_FOUND' && storeDamageError(e, dataDir) === undefined)) throw err;
    return;
  }
  await probe.close();
}

/** What a repair kept and put right. */
export interface RepairSummary extends ReconcileSummary {
  /** Tables LevelDB could not read whole (what it could read of them is kept), moved to store/lost/. */
  lostFiles: number;
}
