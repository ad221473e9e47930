// Temporary directories for a test file: `make()` creates one, `removeAll()` (in afterAll) removes them.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDirs(prefix: string): { make: () => Promise<string>; removeAll: () => Promise<void> } {
  const dirs: string[] = [];
  return {
    make: async () => {
      const d = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    removeAll: async () => {
      for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
    },
  };
}
