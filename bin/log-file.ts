// The crawl's JSON-lines log file, opened before the crawl starts (so a log that cannot be written is a
// message before any request) and watched while it runs: a write that fails (the disk filled) is reported
// once, as a DATA_DIR error naming the file, never as an unhandled stream error with a stack trace.

import { createWriteStream, openSync, rmSync } from 'node:fs';
import { dataDirError } from '../shared/data-dir.js';
import { GleanerError } from '../shared/errors.js';

export interface LogFile {
  write(line: string): void;
  /** Flushes and closes; never throws (a failure was reported through `onFailure`). */
  close(): Promise<void>;
}

function logFileError(e: unknown, path: string): GleanerError {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new GleanerError('DATA_DIR', `cannot create the log ${path}: its folder does not exist`, { cause: e });
  return dataDirError(e, path) ?? new GleanerError('DATA_DIR', `cannot write the log ${path}: ${(e as Error).message}`, { cause: e });
}

/**
 * Opens `path` for appending; `onFailure` hears of the first failed write. When it cannot be opened,
 * removes `madeDir` (the data dir the command just made for it, so a refused command leaves no files)
 * and throws DATA_DIR.
 */
export function openLogFile(path: string, onFailure: (e: GleanerError) => void, madeDir?: string): LogFile {
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (e) {
    if (madeDir !== undefined) rmSync(madeDir, { recursive: true, force: true });
    throw logFileError(e, path);
  }
  const stream = createWriteStream(path, { fd });
  let failed = false;
  stream.on('error', (e) => {
    if (failed) return;
    failed = true;
    onFailure(logFileError(e, path));
  });
  return {
    write(line) {
      if (!failed) stream.write(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (failed || stream.destroyed) {
          stream.destroy();
          resolve();
        } else stream.end(resolve);
      }),
  };
}
