// How many processes `serve` answers from when not told (`--workers auto`, the default): one per CPU
// core, as Elasticsearch sizes its search threads and Meilisearch its HTTP workers, because a search
// is CPU work in one thread. Each process holds its own copy of the index (node:cluster shares the
// port, not memory), so the count is held to what the machine's memory allows: a small site's index
// is copied on every core, a large one is held once.
//
// Measured on the Rust docs (21,187 pages, index 79 MB on disk), 2 cores shared with wrk, distinct
// queries (bench/query-speed.ts --http): one process 1,003-1,018 requests/s on Node 20 and 1,263-1,341
// on Node 24; two, 1,236-1,249 and 1,692-1,851 (DESIGN.md "serve uses the machine's cores"). A process
// held about 430 MB there, and 1.9 GB over a million pages (an index of 2.6 GB).

import { availableParallelism } from 'node:os';
import { currentGeneration, readManifest } from '../shared/index-format/index.js';
import { usableMemoryBytes } from '../shared/machine.js';

/** Defaults of WorkerCountOptions. */
export const DEFAULT_WORKER_COUNT_OPTIONS: Readonly<WorkerCountOptions> = { baseMiB: 512, memoryShare: 0.25, maxWorkers: 64 };

export interface WorkerCountOptions {
  /** What a process is reckoned to hold besides the index's files, in MiB: Node itself, the
   * searcher's caches that the files do not bound (unpacked stored text, parsed headers and blocks of
   * positions, 64 MiB each: web/search SearcherOptions) and what queries allocate. */
  baseMiB: number;
  /** Share of the memory the processes together may be reckoned to take: the rest is for the
   * recrawls and index builds `serve --recrawl-every` runs, and for the machine's other programs. */
  memoryShare: number;
  /** Never more processes than this (serve's --workers range). */
  maxWorkers: number;
}

/** What the count is decided from. */
export interface WorkerFacts {
  /** CPU cores this process may use (os.availableParallelism()). */
  cores: number;
  /** Bytes of memory this process may use (its container's limit, else the machine's). */
  memoryBytes: number;
  /** Bytes of the index generation on disk; undefined when there is none to read (serve then says why). */
  indexBytes: number | undefined;
}

/**
 * Processes for `--workers auto`: one per core while each, reckoned as `baseMiB` plus the index's
 * files, fits with the others in `memoryShare` of the memory; at least one. Pure.
 */
export function autoWorkerCount(facts: WorkerFacts, options: WorkerCountOptions = DEFAULT_WORKER_COUNT_OPTIONS): number {
  if (facts.indexBytes === undefined) return 1;
  const perProcess = options.baseMiB * 2 ** 20 + facts.indexBytes;
  const fit = Math.floor((facts.memoryBytes * options.memoryShare) / perProcess);
  return Math.max(1, Math.min(facts.cores, fit, options.maxWorkers));
}

/** This machine's facts for `dataDir`'s index. */
export async function workerFacts(dataDir: string): Promise<WorkerFacts> {
  let indexBytes: number | undefined;
  try {
    const dir = await currentGeneration(dataDir);
    if (dir !== undefined) indexBytes = (await readManifest(dir)).bytesOnDisk;
  } catch {
    // No index, or one that cannot be read: one process, whose start says what is wrong.
  }
  return { cores: availableParallelism(), memoryBytes: usableMemoryBytes(), indexBytes };
}
