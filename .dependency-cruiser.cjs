// The layout's rules, checked by dependency-cruiser in `npm test` (npm run depcheck). A stage or a shared
// hand-off is reached only through its index.ts; web never imports crawler or indexer, and they never
// import web; shared imports no stage; no import cycle, type-only imports included. Tests and benches
// (*.test.ts, test/, bench/) may open a stage's internals to test or time them, so the entry rule
// leaves them out; the cycle and direction rules hold for them too.

const HARNESS = '(\\.test\\.ts$|^test/|^bench/)';
/** Folders whose index.ts is their only door. */
const ENTRIES = ['crawler', 'indexer', 'web', 'shared/store', 'shared/index-format', 'shared/robots', 'shared/analysis', 'shared/http'];

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle (type-only imports count) makes the reading order of the code a circle.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-not-crawler-or-indexer',
      severity: 'error',
      comment: 'web/ reads the index format only; the crawler and indexer are other stages.',
      from: { path: '^web/', pathNot: HARNESS },
      to: { path: '^(crawler|indexer)/' },
    },
    {
      name: 'stages-not-web',
      severity: 'error',
      comment: 'The crawler and the indexer come before web/ in the pipeline and never import it.',
      from: { path: '^(crawler|indexer)/', pathNot: HARNESS },
      to: { path: '^web/' },
    },
    {
      name: 'shared-imports-no-stage',
      severity: 'error',
      comment: 'shared/ holds the hand-offs every stage imports; it imports no stage.',
      from: { path: '^shared/', pathNot: HARNESS },
      to: { path: '^(crawler|indexer|web|bin)/' },
    },
    ...ENTRIES.map((folder) => ({
      name: `only-through-entry:${folder}`,
      severity: 'error',
      comment: `Outside ${folder}/, import ${folder}/index.ts only.`,
      from: { pathNot: `^${folder}/|${HARNESS}` },
      to: { path: `^${folder}/`, pathNot: `^${folder}/index\\.ts$` },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
