import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests live next to the module they prove (`shared/robots/match.test.ts`) and end-to-end ones in test/.
export default defineConfig({
  test: {
    include: ['{shared,crawler,indexer,web,bin,test}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default, one file less than the cores, ran the suite one file at a time on a 2-core
    // machine; most end-to-end files wait on their servers, crawl delays and child processes rather
    // than on a core, so two at a time there took 574 s down to 404 s, every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/support/fast-check-seed.ts'],
  },
});
