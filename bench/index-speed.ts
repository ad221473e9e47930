// Speed bench: indexing docs/s and in-process query latency (p50/p99) on SciFact (5,183 docs) and
// SciFact repeated 20 times (103,660 docs), with a plain BM25 in JS and flexsearch 0.8 measured in the
// same run as baselines, plus the memory the loaded index takes. The copies' titles are the same texts,
// which the page typeahead indexes once (indexer/page-typeahead.ts): its share of the build is smaller
// here than on a real site (the Rust docs: a quarter of its titles and headings share a text), and
// bench/typeahead.ts measures it on distinct texts.
//
// Run from the project folder:
//   npx tsc -p tsconfig.json && node --expose-gc dist/bench/index-speed.js [--copies 20] [--store] [--warm 1000]
// --store also times the whole `buildIndex` path on SciFact: pages written to a real LevelDB store
// first, then read back, links counted and indexed.
//
// Queries: "short" are 1-4 words taken from SciFact's claims (stopwords skipped), "long" are 15 words
// (claims joined). Before each kind is timed, --warm short queries (default 1,000; long: at most 300)
// made the same way from the documents' titles, never among the timed ones, warm the searcher (V8
// compiles it over its first thousand queries; it was one pass of the timed queries), then the timed
// queries once. Each is asked both as Gleaner's web search does it (every word required, AND) and
// as one OR group (how the relevance bench asks). "search" is the whole call the gateway makes (top 10
// with snippets and explanations); "ranking only" is `rankedUrls`, the same matching and scoring
// without building hits.

import { execFileSync } from 'node:child_process';
import FlexSearch from 'flexsearch';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromDocuments, buildIndex, DEFAULT_INDEXER_OPTIONS, type IndexDocument } from '../indexer/index.js';
import { openSearchEngine } from '../web/search/index.js';
import { anyOf, pageRecord, query } from '../test/support/index-fixture.js';
import { openStore } from '../shared/store/index.js';
import { isStopword, tokenize } from '../shared/analysis/index.js';
import type { ParsedQuery } from '../web/query/index.js';
import { IR_DIR, PlainBm25, indexDocuments, irAvailable, loadCollection, type Collection } from './ir-collections.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const copiesArg = args.indexOf('--copies');
const COPIES = copiesArg >= 0 ? Number(args[copiesArg + 1]) : 20;
const warmArg = args.indexOf('--warm');
/** Short queries asked a kind before timing (long ones: at most 300), none of them timed. */
const WARM_QUERIES = warmArg >= 0 ? Number(args[warmArg + 1]) : 1000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function latency(fn: () => void, times: number): { p50: number; p99: number } {
  const t: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    fn();
    t.push(performance.now() - start);
  }
  t.sort((a, b) => a - b);
  return { p50: percentile(t, 50), p99: percentile(t, 99) };
}

/** Short (1-4 words) and long (15 words) queries made from `texts`' words, stopwords skipped. */
function queriesOf(texts: readonly string[], most: number): { short: string[]; long: string[] } {
  const words = texts.map((t) => t.split(/\s+/).filter((w) => tokenize(w).length > 0 && !tokenize(w).every(isStopword)));
  const short = words.map((w, i) => w.slice(0, 1 + (i % 4)).join(' ')).filter((s) => s !== '').slice(0, most);
  const all = words.flat();
  const long: string[] = [];
  for (let i = 0; i + 15 <= all.length && long.length < Math.min(most, 300); i += 15) long.push(all.slice(i, i + 15).join(' '));
  return { short, long };
}

const queryTexts = (c: Collection) => queriesOf(c.queries.map((q) => q.text), Infinity);

/** Queries to warm the searcher with, made the same way from the documents' titles and never among
 * the timed ones: V8 compiles and recompiles the searcher over its first thousand queries or so
 * (DESIGN.md "A warm-up the length of a JIT's"), and a server pays that once. */
function warmTexts(c: Collection, timed: { short: string[]; long: string[] }): { short: string[]; long: string[] } {
  const made = queriesOf(c.docs.map((d) => d.title), WARM_QUERIES);
  const asked = new Set([...timed.short, ...timed.long]);
  return { short: made.short.filter((q) => !asked.has(q)), long: made.long.filter((q) => !asked.has(q)) };
}

const ms = (x: number) => x.toFixed(2);
const mib = (x: number) => (x / 1024 / 1024).toFixed(0);

/**
 * Gleaner first (index, load, queries), then the baseline: the baseline's millions of small objects
 * would otherwise sit in the heap and put their garbage-collection pauses into Gleaner's latencies.
 */
async function benchCorpus(label: string, makeDocs: () => IndexDocument[], makeIrDocs: () => Collection['docs'], c: Collection): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gleaner-speed-'));
  try {
    let docs: IndexDocument[] | undefined = makeDocs();
    const count = docs.length;
    globalThis.gc?.();
    const t0 = performance.now();
    const summary = await buildFromDocuments(dir, docs, { skipped: {} }, { ...DEFAULT_INDEXER_OPTIONS, full: true });
    const buildSeconds = (performance.now() - t0) / 1000;
    docs = undefined;
    console.log(`\n## ${label}: ${count} docs`);
    console.log(`index: Gleaner ${Math.round(count / buildSeconds)} docs/s (${buildSeconds.toFixed(2)} s incl. writing ${mib(summary.bytesOnDisk)} MiB, ${summary.terms} terms, ${summary.postings} postings)`);

    // Memory is measured in a fresh process: this one still holds the build's garbage.
    const memory = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--load-only', dir], { encoding: 'utf8' });
    console.log(memory.trim());
    const engine = await openSearchEngine(dir);
    const texts = queryTexts(c);
    const warm = warmTexts(c, texts);
    const kinds: [string, string[], string[], (s: string) => ParsedQuery][] = [
      ['short AND', texts.short, warm.short, query],
      ['short OR', texts.short, warm.short, anyOf],
      ['long AND', texts.long, warm.long, query],
      ['long OR', texts.long, warm.long, anyOf],
    ];
    const rows: string[][] = [];
    for (const [kind, list, warmList, parse] of kinds) {
      const parsed = list.map(parse);
      for (const q of warmList) engine.search(parse(q), { offset: 0, limit: 10 });
      for (const q of parsed) engine.search(q, { offset: 0, limit: 10 });
      let i = 0;
      const g = latency(() => engine.search(parsed[i++ % parsed.length]!, { offset: 0, limit: 10 }), Math.max(1000, parsed.length));
      let r = 0;
      const ranking = latency(() => engine.rankedUrls(parsed[r++ % parsed.length]!, 10), Math.max(1000, parsed.length));
      rows.push([kind, String(list.length), ms(g.p50), ms(g.p99), ms(ranking.p50), ms(ranking.p99)]);
    }
    engine.close();

    const irDocs = makeIrDocs();
    const flex = flexsearchBaseline(irDocs, texts);

    globalThis.gc?.();
    const t1 = performance.now();
    const bm25 = new PlainBm25(irDocs);
    const bm25Seconds = (performance.now() - t1) / 1000;
    console.log(`index: plain BM25 in memory (baseline) ${Math.round(irDocs.length / bm25Seconds)} docs/s`);
    console.log(`index: flexsearch 0.8 (LatinBalance, strict) ${flex.docsPerSecond} docs/s`);
    for (const row of rows) {
      const list = row[0]!.startsWith('short') ? texts.short : texts.long;
      const f = row[0]!.endsWith('OR') ? (row[0]!.startsWith('short') ? flex.short : flex.long) : undefined;
      row.push(f ? ms(f.p50) : '-', f ? ms(f.p99) : '-');
      let j = 0;
      const b = row[0]!.endsWith('OR') ? latency(() => bm25.search(list[j++ % list.length]!, 10), Math.min(300, list.length)) : undefined;
      row.push(b ? ms(b.p50) : '-', b ? ms(b.p99) : '-');
    }
    console.log('| queries | n | search p50 ms | search p99 ms | ranking only p50 | ranking only p99 | flexsearch candidates p50 | p99 | plain BM25 p50 ms | plain BM25 p99 ms |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The whole path `gleaner index` takes: LevelDB store -> documents -> index. */
async function benchStore(c: Collection): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gleaner-speed-store-'));
  try {
    const store = await openStore(dir);
    for (const d of c.docs) {
      await store.commitFetch(undefined, pageRecord({ url: `https://ir.test/scifact/${d.id}`, title: d.title, text: d.text }), []);
    }
    await store.close();
    const full = await buildIndex(dir, { full: true });
    console.log(`\nstore path (buildIndex from LevelDB, ${full.documents} docs): ${Math.round(full.documents / full.seconds)} docs/s (${full.seconds.toFixed(2)} s)`);
    const again = await buildIndex(dir);
    console.log(`incremental rebuild, nothing changed: ${again.seconds.toFixed(2)} s (${again.reused} reused, ${again.analysed} analysed)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * flexsearch 0.8 as the issue measured it: title + text indexed, a query answered with `suggest` (so a
 * multi-word query returns partial matches) and the top 100 ids, which a re-scoring step would then
 * score: its time alone is what "flexsearch for candidates" costs before any scoring.
 */
function flexsearchBaseline(docs: Collection['docs'], texts: { short: string[]; long: string[] }) {
  const index = new FlexSearch.Index({ tokenize: 'strict', encoder: FlexSearch.Charset.LatinBalance });
  const t = performance.now();
  docs.forEach((d, i) => index.add(i, `${d.title} ${d.text}`));
  const docsPerSecond = Math.round(docs.length / ((performance.now() - t) / 1000));
  const timed = (list: string[]) => {
    for (const q of list) index.search(q, { limit: 100, suggest: true });
    let i = 0;
    return latency(() => index.search(list[i++ % list.length]!, { limit: 100, suggest: true }), Math.max(300, list.length));
  };
  return { docsPerSecond, short: timed(texts.short), long: timed(texts.long) };
}

/** `--load-only DIR`: how long loading takes and what the loaded index costs in memory. */
async function loadOnly(dir: string): Promise<void> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const t = performance.now();
  const engine = await openSearchEngine(dir);
  const seconds = (performance.now() - t) / 1000;
  globalThis.gc?.();
  const after = process.memoryUsage();
  console.log(
    `load: ${seconds.toFixed(2)} s; memory of the loaded index: heap ${mib(after.heapUsed - before.heapUsed)} MiB + typed arrays ${mib(after.arrayBuffers - before.arrayBuffers)} MiB; process RSS ${mib(after.rss)} MiB`,
  );
  engine.close();
}

async function main(): Promise<void> {
  const load = args.indexOf('--load-only');
  if (load >= 0) return loadOnly(args[load + 1]!);
  if (!irAvailable()) {
    console.log(`speed bench skipped: ${IR_DIR} not found (set GLEANER_IR_DIR)`);
    return;
  }
  const c = loadCollection('scifact');
  console.log(`node ${process.version}; ${globalThis.gc ? '' : 'run with --expose-gc for steadier memory figures; '}`);
  await benchCorpus('SciFact', () => indexDocuments(c, 0, false), () => c.docs, c);
  if (COPIES > 1) {
    await benchCorpus(
      `SciFact x${COPIES}`,
      () => Array.from({ length: COPIES }, (_, k) => indexDocuments(c, k + 1, false)).flat(),
      () => Array.from({ length: COPIES }, (_, k) => c.docs.map((d) => ({ ...d, id: `${k}-${d.id}` }))).flat(),
      c,
    );
  }
  if (args.includes('--store')) await benchStore(c);
}

await main();
