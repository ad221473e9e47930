// ESLint with typescript-eslint's strict type-checked rules over every TypeScript file; `npm test` runs it.
// Three rules are tuned, each for a stated reason; everything else is the preset as published.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '**/*.js', '**/*.mjs', '**/*.cjs', 'vitest.config.ts'] },
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // tsconfig's noUncheckedIndexedAccess types every `a[i]` as possibly undefined; in the hot loops over
      // typed arrays (postings, scores, tokenizer offsets) `a[i]!` is how the code states "i is in range",
      // and a run-time check there costs what those loops were built to save.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans in messages and keys are what template strings are for here.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(x) => void f(x)`-style callbacks (`res.on('end', () => resolve())`) read better short.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // A leading underscore names what is left unused on purpose (`for await (const _key of ...)`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
);
