// The data dir (`--data`), checked in one place for every command: a file where a dir should be, a dir
// Gleaner may not write, a full disk, or a folder inside another data dir's store or index all become one
// line naming the path and the cause (GleanerError DATA_DIR), before the command sends a request or
// writes a page. The same classifier turns a write that fails later (the disk fills mid-crawl) into the
// same kind of line.

import { existsSync, mkdirSync, realpathSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { GleanerError } from './errors.js';
import { shellWord } from './shell-word.js';

/** The folders a data dir holds (shared/store/store.ts storePath, indexer/write-index.ts indexRoot). */
const DATA_DIR_FOLDERS = ['store', 'index'] as const;

/** The files Gleaner keeps at the top of a data dir: bin/commands/crawl.ts's default log and
 * shared/crawl-status.ts CRAWL_STATUS_FILE (named here: that module reads the store, which checks data dirs). */
const DATA_DIR_FILES = ['crawl.log.jsonl', 'crawl-status.json'] as const;

/** `path` with its symbolic links followed as far as it exists; the rest, not made yet, as written. */
function realOrResolved(path: string): string {
  const full = resolve(path);
  for (let dir = full; ; dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), relative(dir, full));
    } catch {
      if (dirname(dir) === dir) return full;
    }
  }
}

/**
 * What of the data dir `dataDir` a file written at `path` would replace or sit inside, said as the end
 * of a sentence ("lies in the data dir's store folder"): its store or index folder, or a file Gleaner
 * keeps there (its crawl log, its status), links followed; undefined when none. An export written over
 * a store's table file had left every page unreadable, and said it exported them.
 */
export function dataDirPartAt(path: string, dataDir: string): string | undefined {
  const file = realOrResolved(path);
  const dir = realOrResolved(dataDir);
  for (const folder of DATA_DIR_FOLDERS) {
    const inside = relative(join(dir, folder), file);
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) return `lies in the data dir's ${folder} folder`;
  }
  for (const name of DATA_DIR_FILES) if (file === join(dir, name)) return `is the data dir's ${name}`;
  return undefined;
}

/** Bytes the write probe writes: a disk that cannot take this much cannot take one page. */
const PROBE_BYTES = 16 * 1024;

/**
 * What an errno code means for `path`, in words a user acts on; undefined for codes that say nothing
 * about the path (those stay unexpected errors).
 */
export function describeFsProblem(code: string, path: string): string | undefined {
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return `${path} is not a directory (it, or a folder on its path, is a file)`;
    case 'EISDIR':
      return `${path} is a directory, not a file`;
    case 'EACCES':
    case 'EPERM':
      return `cannot write to ${path}: permission denied`;
    case 'EROFS':
      return `cannot write to ${path}: it is on a read-only file system`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk holding ${path} is full`;
    case 'ENOENT':
      return `${path} does not exist`;
    case 'ELOOP':
      return `${path} is a loop of symbolic links`;
    case 'ENAMETOOLONG':
      return `${path} is a name longer than the file system takes`;
    default:
      return undefined;
  }
}

/** LevelDB reports I/O failures as text ("IO error: .../000005.log: No space left on device"). */
const STRERROR_CODES: readonly (readonly [RegExp, string])[] = [
  [/No space left on device/i, 'ENOSPC'],
  [/Disk quota exceeded/i, 'EDQUOT'],
  [/Read-only file system/i, 'EROFS'],
  [/Permission denied/i, 'EACCES'],
  [/Operation not permitted/i, 'EPERM'],
  [/Not a directory/i, 'ENOTDIR'],
];

/** The errno code behind an error: Node's `code`, or the one LevelDB's message (or its cause's) spells out. */
export function errnoCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    const message = (cur as { message?: unknown }).message;
    if (typeof message === 'string') for (const [re, c] of STRERROR_CODES) if (re.test(message)) return c;
  }
  return undefined;
}

/** `e` as a DATA_DIR error about `path` when it is a file-system failure we can name; otherwise undefined. */
export function dataDirError(e: unknown, path: string): GleanerError | undefined {
  if (e instanceof GleanerError) return undefined;
  const code = errnoCode(e);
  const message = code === undefined ? undefined : describeFsProblem(code, path);
  return message === undefined ? undefined : new GleanerError('DATA_DIR', message, { cause: e });
}

/**
 * When `path` is, or is inside, the store or index folder of an existing data dir (`--data data/store`
 * where `data` was meant): that data dir and the folder. `isDataDir` is asked about candidate parents.
 */
export function enclosingDataDir(path: string, isDataDir: (dir: string) => boolean): { dataDir: string; folder: string } | undefined {
  for (let dir = resolve(path); dirname(dir) !== dir; dir = dirname(dir)) {
    const folder = basename(dir);
    if ((DATA_DIR_FOLDERS as readonly string[]).includes(folder) && isDataDir(dirname(dir))) return { dataDir: dirname(dir), folder };
  }
  return undefined;
}

/** Whether `dir` holds a Gleaner store (LevelDB writes CURRENT first) or index (its CURRENT pointer). */
function looksLikeDataDir(dir: string): boolean {
  return DATA_DIR_FOLDERS.some((folder) => isFile(join(dir, folder, 'CURRENT')));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface DataDirCheck {
  /** Create the dir when missing (crawl, demo); otherwise a missing dir is left to the command to explain. */
  create: boolean;
  /** The command writes into the dir (crawl, index, demo), so it must be writable and have room. */
  write: boolean;
}

/**
 * Checks `path` as a data dir before a command uses it: throws GleanerError DATA_DIR with one line naming
 * the path and the cause. With `create`, a dir it makes and then finds unusable is removed again; returns
 * the first dir it made, for a caller that is refused later to remove (undefined when none).
 */
export function checkDataDir(path: string, { create, write }: DataDirCheck): string | undefined {
  // An empty --data was the current directory, filled with a store and logs no one asked for there.
  if (path.trim() === '') throw new GleanerError('BAD_ARGUMENT', '--data must name a directory, not be empty');
  const inside = enclosingDataDir(path, looksLikeDataDir);
  if (inside) {
    // Said the way the user wrote the path: relative stays relative.
    const shown = isAbsolute(path) ? inside.dataDir : relative(process.cwd(), inside.dataDir) || '.';
    const where = basename(resolve(path)) === inside.folder && dirname(resolve(path)) === inside.dataDir ? 'is the' : 'is inside the';
    throw new GleanerError('DATA_DIR', `${path} ${where} ${inside.folder} folder of the data dir ${shown}: use --data ${shellWord(shown)}`);
  }
  let exists: boolean;
  try {
    const st = statSync(path);
    if (!st.isDirectory()) throw new GleanerError('DATA_DIR', `${path} is a file, not a directory: give --data a directory`);
    exists = true;
  } catch (e) {
    if (e instanceof GleanerError) throw e;
    const code = errnoCode(e);
    if (code !== 'ENOENT') throw dataDirError(e, path) ?? e;
    exists = false;
  }
  if (!exists && !create) return undefined;
  let created: string | undefined;
  try {
    if (!exists) created = makeDirs(path);
    if (write) probeWrite(path);
  } catch (e) {
    if (created !== undefined) rmSync(created, { recursive: true, force: true });
    throw dataDirError(e, path) ?? e;
  }
  return created;
}

/**
 * mkdir -p, one level at a time: a recursive mkdirSync reports a read-only parent as ENOENT, where a
 * plain mkdir says EROFS. Returns the first dir it made.
 */
function makeDirs(path: string): string | undefined {
  const missing: string[] = [];
  for (let dir = resolve(path); !existsSync(dir); dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) mkdirSync(dir);
  return missing[0];
}

/** Writes and removes a small file: the one sure test of permissions, read-only mounts and free space. */
function probeWrite(dir: string): void {
  const probe = join(dir, `.gleaner-write-check-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(PROBE_BYTES));
  } finally {
    try {
      unlinkSync(probe);
    } catch {
      // never written
    }
  }
}
