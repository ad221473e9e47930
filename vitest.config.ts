import { defineConfig } from 'vitest/config';

// Tests live next to the module they prove (`shared/robots/match.test.ts`) and end-to-end ones in test/.
export default defineConfig({
  test: {
    include: ['{shared,crawler,indexer,web,bin,test}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/support/fast-check-seed.ts'],
  },
});
