import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests live next to the module they prove (`shared/robots/match.test.ts`) and end-to-end ones in test/.
export default defineConfig({
  test: {
    include: ['{shared,crawler,indexer,web,bin,test}/**/*.test.ts'],
    // End-to-end tests run the real CLI several times (nine runs took 19 s beside the rest of the
    // suite): a bound that waits out a machine three times slower, and still ends a hung test.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default, one file less than the cores, ran the suite one file at a time on a 2-core
    // machine; most end-to-end files wait on their servers, crawl delays and child processes rather
    // than on a core, so two at a time there took 574 s down to 404 s, every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/support/fast-check-seed.ts'],
    // A poll waits for a page's script or a server to get there: 1 s (vitest's default) is a debounce,
    // a fetch and a render on a quiet machine, not beside two test files spawning Chromium and crawlers.
    expect: { poll: { timeout: 10_000 } },
  },
});
