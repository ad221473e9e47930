// Relevance bench: Gleaner's ranking against a plain BM25 computed in the same run, on the four IR
// collections in ../shared/ir (Cranfield, CISI, CACM with its citation links, SciFact).
//
// Run from the project folder:
//   npx tsc -p tsconfig.json && node dist/bench/relevance.js            # the table
//   node dist/bench/relevance.js --tune                                  # grids behind rank.ts's weights
//   node dist/bench/relevance.js --collections cacm,scifact
//
// Queries are the collections' natural-language texts asked as one OR group (every word an
// alternative): the plain BM25 answers the same way. Metrics are computed by bench/metrics.ts and
// cross-checked against ../shared/ir/eval.mjs (the reference evaluator) on every run.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildFromDocuments, DEFAULT_INDEXER_OPTIONS } from '../indexer/index.js';
import { DEFAULT_RANK_PARAMS, openSearchEngine, type RankParams } from '../web/search/index.js';
import { anyOf } from '../test/support/index-fixture.js';
import { COLLECTIONS, IR_DIR, PlainBm25, docIdOf, indexDocuments, irAvailable, loadCollection, type Collection } from './ir-collections.js';
import { METRIC_NAMES, meanMetrics, type Metrics } from './metrics.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

type Run = Map<string, string[]>;

interface Evaluator {
  evaluate(qrels: Map<string, Map<string, number>>, run: Map<string, string[]>): Metrics & { n: number };
}

async function gleanerRuns(c: Collection, paramSets: RankParams[], useLinks: boolean): Promise<Run[]> {
  const dir = await mkdtemp(join(tmpdir(), `gleaner-rel-${c.name}-`));
  try {
    await buildFromDocuments(dir, indexDocuments(c, 0, useLinks), { skipped: {} }, { ...DEFAULT_INDEXER_OPTIONS, full: true });
    const runs: Run[] = [];
    for (const rank of paramSets) {
      const engine = await openSearchEngine(dir, { rank });
      const run: Run = new Map();
      for (const q of c.queries) run.set(q.id, engine.rankedUrls(anyOf(q.text), 100).map((h) => docIdOf(h.url)));
      engine.close();
      runs.push(run);
    }
    return runs;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function bm25Run(c: Collection): Run {
  const bm25 = new PlainBm25(c.docs);
  return new Map(c.queries.map((q) => [q.id, bm25.search(q.text, 100)]));
}

const fmt = (m: Metrics) => (Object.keys(METRIC_NAMES) as (keyof Metrics)[]).map((k) => m[k].toFixed(3)).join(' | ');

async function table(names: string[], evaluator: Evaluator): Promise<void> {
  console.log(`| collection | system | ${Object.values(METRIC_NAMES).join(' | ')} |`);
  console.log(`|---|---|${Object.values(METRIC_NAMES).map(() => '---').join('|')}|`);
  let worstCheck = 0;
  for (const name of names) {
    const c = loadCollection(name);
    const withLinks = c.inlinks !== undefined;
    const [gleaner] = await gleanerRuns(c, [DEFAULT_RANK_PARAMS], true);
    const runs: [string, Run][] = [['plain BM25', bm25Run(c)], ['Gleaner', gleaner!]];
    if (withLinks) {
      const [noLinks] = await gleanerRuns(c, [{ ...DEFAULT_RANK_PARAMS, linkWeight: 0 }], false);
      runs.push(['Gleaner without links', noLinks!]);
    }
    for (const [system, run] of runs) {
      const mine = meanMetrics(run, c.qrels);
      const ref = evaluator.evaluate(c.qrels, run);
      for (const k of Object.keys(METRIC_NAMES) as (keyof Metrics)[]) worstCheck = Math.max(worstCheck, Math.abs(mine[k] - ref[k]));
      console.log(`| ${name} (${mine.queries} q) | ${system} | ${fmt(mine)} |`);
    }
  }
  console.log(`\nmetric cross-check against eval.mjs: largest difference ${worstCheck.toExponential(2)}`);
}

/** Mean nDCG@10 per parameter set, per collection: the measurements rank.ts's comment cites. */
async function tune(names: string[], onlyLinksAndPairs = false): Promise<void> {
  const base = DEFAULT_RANK_PARAMS;
  const sets: [string, RankParams][] = [];
  if (!onlyLinksAndPairs) for (const k1 of [0.6, 0.8, 1, 1.2]) for (const b of [0.5, 0.6, 0.75, 0.9]) for (const tw of [1, 2, 3]) for (const tb of [0.5, 0.8]) {
    const fieldB = [tb, base.fieldB[1]!, b, base.fieldB[3]!, base.fieldB[4]!];
    sets.push([`k1 ${k1} body-b ${b} title-w ${tw} title-b ${tb}`, { ...base, k1, fieldB, fieldWeight: [tw, ...base.fieldWeight.slice(1)] }]);
  }
  for (const lw of [0, 0.01, 0.02, 0.05, 0.1, 0.2]) sets.push([`link-w ${lw}`, { ...base, linkWeight: lw }]);
  for (const pw of [0, 0.1, 0.25, 0.5, 1]) sets.push([`pair-w ${pw}`, { ...base, pairWeight: pw }]);
  const results = new Map<string, number[]>();
  for (const name of names) {
    const c = loadCollection(name);
    const runs = await gleanerRuns(c, sets.map((s) => s[1]), true);
    runs.forEach((run, i) => {
      const list = results.get(sets[i]![0]) ?? [];
      list.push(meanMetrics(run, c.qrels).ndcg10);
      results.set(sets[i]![0], list);
    });
  }
  console.log(`| params | ${names.join(' | ')} | mean |`);
  console.log(`|---|${names.map(() => '---').join('|')}|---|`);
  for (const [label, values] of results) {
    console.log(`| ${label} | ${values.map((v) => v.toFixed(3)).join(' | ')} | ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(4)} |`);
  }
}

async function main(): Promise<void> {
  if (!irAvailable()) {
    console.log(`relevance bench skipped: ${IR_DIR} not found (set GLEANER_IR_DIR)`);
    return;
  }
  const args = process.argv.slice(2);
  const pick = args.indexOf('--collections');
  const names = pick >= 0 ? (args[pick + 1] ?? '').split(',') : [...COLLECTIONS];
  const evaluator = (await import(pathToFileURL(join(IR_DIR, 'eval.mjs')).href)) as Evaluator;
  if (args.includes('--tune')) await tune(names, args.includes('--only-links'));
  else await table(names, evaluator);
}

await main();
