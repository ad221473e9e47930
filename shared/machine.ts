// What this machine gives a process: the memory it may use. Read where a default is sized to the
// machine (bin/heap.ts, the index build's heap; web/worker-count.ts, serve's processes).

import { totalmem } from 'node:os';

/** Bytes of memory this process may use: its container's limit when it has one, else the machine's. */
export function usableMemoryBytes(): number {
  const machine = totalmem();
  // 0 when unknown, and 2^64 (or near) without a limit.
  const limit = process.constrainedMemory();
  return limit > 0 && limit < machine ? limit : machine;
}
