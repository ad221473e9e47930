import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFsProblem, enclosingDataDir, errnoCode } from './data-dir.js';

describe('data dir classifier', () => {
  it('names the path and the cause for each errno a data dir meets', () => {
    expect(describeFsProblem('ENOTDIR', 'x/y')).toBe('x/y is not a directory (it, or a folder on its path, is a file)');
    expect(describeFsProblem('EEXIST', 'x')).toContain('is not a directory');
    for (const code of ['EACCES', 'EPERM']) expect(describeFsProblem(code, 'd')).toBe('cannot write to d: permission denied');
    expect(describeFsProblem('EROFS', 'd')).toBe('cannot write to d: it is on a read-only file system');
    for (const code of ['ENOSPC', 'EDQUOT']) expect(describeFsProblem(code, 'd')).toBe('the disk holding d is full');
    expect(describeFsProblem('ECONNRESET', 'd')).toBeUndefined();
  });

  it("reads the errno from Node's code, or from LevelDB's message and its cause", () => {
    expect(errnoCode(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('ENOSPC');
    const level = Object.assign(new Error('Database failed to write'), {
      code: 'LEVEL_IO_ERROR',
      cause: new Error('IO error: /t/data/store/000005.log: No space left on device'),
    });
    expect(errnoCode(level)).toBe('ENOSPC');
    expect(errnoCode(new Error('IO error: lock /t/store/LOCK: Read-only file system'))).toBe('EROFS');
    expect(errnoCode(new Error('something else'))).toBeUndefined();
  });

  it('finds the data dir whose store or index folder (or a folder inside it) was given', () => {
    const dataDirs = new Set([resolve('data')]);
    const isDataDir = (d: string) => dataDirs.has(d);
    expect(enclosingDataDir('data/store', isDataDir)).toEqual({ dataDir: resolve('data'), folder: 'store' });
    expect(enclosingDataDir(join('data', 'index', 'gen-1'), isDataDir)).toEqual({ dataDir: resolve('data'), folder: 'index' });
    expect(enclosingDataDir('data', isDataDir)).toBeUndefined();
    // A folder named store whose parent is no data dir is a fine data dir of its own.
    expect(enclosingDataDir('elsewhere/store', isDataDir)).toBeUndefined();
  });
});
