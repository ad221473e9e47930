import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoWorkerCount, DEFAULT_WORKER_COUNT_OPTIONS, workerFacts } from './worker-count.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

describe('autoWorkerCount (serve --workers auto)', () => {
  it('is one process per core for a small index on a machine with memory to spare', () => {
    // The Rust docs' index (79 MB) on this project's 2-core, 23 GiB machine, and on a larger one.
    expect(autoWorkerCount({ cores: 2, memoryBytes: 23 * GiB, indexBytes: 79 * MiB })).toBe(2);
    expect(autoWorkerCount({ cores: 16, memoryBytes: 64 * GiB, indexBytes: 79 * MiB })).toBe(16);
  });

  it('holds a large index once: as many copies as fit in a quarter of the memory', () => {
    // A million pages (2.6 GB of index): 512 MiB + 2.6 GB a process, 5.75 GiB allowed.
    expect(autoWorkerCount({ cores: 2, memoryBytes: 23 * GiB, indexBytes: 2.6e9 })).toBe(1);
    // With 64 GiB, 16 GiB allowed: five such processes, though the machine has 16 cores.
    expect(autoWorkerCount({ cores: 16, memoryBytes: 64 * GiB, indexBytes: 2.6e9 })).toBe(5);
    // A small machine: 2 GiB, 512 MiB allowed, one process even for a tiny index.
    expect(autoWorkerCount({ cores: 4, memoryBytes: 2 * GiB, indexBytes: 1 * MiB })).toBe(1);
  });

  it('is one process without an index to size (serve then says what is missing) or with one core', () => {
    expect(autoWorkerCount({ cores: 8, memoryBytes: 64 * GiB, indexBytes: undefined })).toBe(1);
    expect(autoWorkerCount({ cores: 1, memoryBytes: 64 * GiB, indexBytes: MiB })).toBe(1);
  });

  it('never exceeds maxWorkers, the cores, or the memory share; never below one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 512 }), fc.double({ min: 2 ** 28, max: 2 ** 42, noNaN: true }), fc.double({ min: 0, max: 2 ** 40, noNaN: true }), (cores, memoryBytes, indexBytes) => {
        const n = autoWorkerCount({ cores, memoryBytes, indexBytes });
        const o = DEFAULT_WORKER_COUNT_OPTIONS;
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(Math.min(cores, o.maxWorkers));
        if (n > 1) expect(n * (o.baseMiB * MiB + indexBytes)).toBeLessThanOrEqual(memoryBytes * o.memoryShare);
      }),
    );
  });

  it('workerFacts finds no index in a data dir without one', async () => {
    const facts = await workerFacts('/nonexistent/gleaner-data');
    expect(facts.indexBytes).toBeUndefined();
    expect(facts.cores).toBeGreaterThanOrEqual(1);
    expect(facts.memoryBytes).toBeGreaterThan(0);
  });
});
