// Bench: the JSON search API over HTTP on loopback, as a client sees it.
//
//   npx tsc -p tsconfig.json && node dist/bench/http-search.js [--duration 10] [--connections 16] [--rebuild]
//
// Corpus: the four IR collections in ../shared/ir (11,247 real abstracts and titles, one host each, with
// a deterministic link graph) written to a real store and indexed by the real indexer, cached in
// .bench-out/http-search/ (git-ignored; --rebuild rebuilds it). Skips with a message when ../shared/ir
// is absent. The gateway runs in a child process, alone and then as one worker per core (gleaner serve
// --workers), while autocannon shares the same machine.
//
// Figures: requests/s and latency p50/p99 for a mixed query set (and the same set as HTML pages) (single words, AND pairs, phrases, OR,
// site:, exclusions, misspellings, page 2), against a baseline measured in the same run: /healthz
// through the same express stack (the framework's ceiling) and the engine alone, in process, without HTTP.
// Goal (issue 6): >= 1,500 req/s with p99 < 50 ms on this 2-core machine.

import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex } from '../indexer/index.js';
import { openStore } from '../shared/store/index.js';
import { isStopword, tokenize } from '../shared/analysis/index.js';
import { pageRecord } from '../test/support/index-fixture.js';
import { createApp, isServeWorker, listen, serveInWorkers, WEB_DEFAULTS } from '../web/index.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine } from '../web/search/index.js';
import { COLLECTIONS, IR_DIR, irAvailable, loadCollection } from './ir-collections.js';
import { seededRandom as rng } from '../test/support/seeded-random.js';
import { benchArgs, exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

// ---- autocannon, wrapped once in the few types this bench uses (the package ships none) ----
interface Histogram {
  average: number;
  p50: number;
  p99: number;
  p99_9: number;
  max: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  requests?: { method: 'GET'; path: string }[];
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const DATA_DIR = join(process.cwd(), '.bench-out', 'http-search');
const LINKS_PER_PAGE = 4;
const QUERY_COUNT = 400;

async function buildCorpus(): Promise<number> {
  await rm(DATA_DIR, { recursive: true, force: true });
  const store = await openStore(DATA_DIR);
  const random = rng(42);
  let pages = 0;
  try {
    for (const name of COLLECTIONS) {
      const { docs } = loadCollection(name);
      const url = (id: string) => `http://${name}.test/doc/${id}`;
      for (const doc of docs) {
        // A few links inside the collection, skewed to low ids so some pages gather many inbound links.
        const links = Array.from({ length: LINKS_PER_PAGE }, () => url(docs[Math.floor(random() ** 3 * docs.length)]!.id));
        await store.commitFetch(undefined, pageRecord({ url: url(doc.id), title: doc.title, text: doc.text, links }), []);
        pages++;
      }
    }
  } finally {
    await store.close();
  }
  await buildIndex(DATA_DIR, { full: true });
  return pages;
}

/** Content words of the collections' own queries: realistic things people look for in this corpus. */
function queryWords(): string[] {
  const words: string[] = [];
  for (const name of COLLECTIONS) {
    for (const q of loadCollection(name).queries) {
      for (const w of q.text.split(/[^A-Za-z]+/)) {
        const t = tokenize(w)[0];
        if (w.length >= 4 && t !== undefined && !isStopword(t)) words.push(w.toLowerCase());
      }
    }
  }
  return words;
}

interface BenchQuery {
  kind: string;
  text: string;
  page: number;
}

function mixedQueries(): BenchQuery[] {
  const words = queryWords();
  const random = rng(7);
  const word = () => words[Math.floor(random() * words.length)]!;
  const makers: [string, number, () => string][] = [
    ['one word', 40, () => word()],
    ['two words', 20, () => `${word()} ${word()}`],
    ['"phrase"', 8, () => `"${word()} ${word()}"`],
    ['a OR b', 8, () => `${word()} OR ${word()}`],
    ['site:', 6, () => `${word()} site:${COLLECTIONS[Math.floor(random() * COLLECTIONS.length)]}.test`],
    ['-exclusion', 6, () => `${word()} -${word()}`],
    ['misspelt', 6, () => word().replace(/^(.{2})./, '$1')],
    ['page 2', 6, () => word()],
  ];
  const total = makers.reduce((s, [, w]) => s + w, 0);
  return Array.from({ length: QUERY_COUNT }, () => {
    let pick = random() * total;
    for (const [kind, weight, make] of makers) {
      pick -= weight;
      if (pick < 0) return { kind, text: make(), page: kind === 'page 2' ? 2 : 1 };
    }
    return { kind: 'one word', text: word(), page: 1 };
  });
}

/** Child process: serve the data dir (with a result cache of `cacheEntries`) and report the URL. */
async function serveChild(dataDir: string, cacheEntries: number, workers: number): Promise<void> {
  const served = await serveInWorkers(workers, async () => {
    const engine = await openSearchEngine(dataDir);
    return listen(createApp({ engine, log: () => {}, options: { searchCacheEntries: cacheEntries } }), '127.0.0.1', 0);
  });
  if (!isServeWorker()) process.send?.({ url: served.url });
}

/** Runs the gateway in a child process (and its workers) for the length of `work`. */
async function withServer<T>(cacheEntries: number, workers: number, work: (base: string) => Promise<T>): Promise<T> {
  const args = ['--serve', DATA_DIR, '--cache', String(cacheEntries), '--workers', String(workers)];
  const child = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { url: string }).url));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    return await work(url.replace(/\/$/, ''));
  } finally {
    // SIGTERM ends the primary; its workers follow when their channel to it closes.
    child.kill('SIGTERM');
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

function report(label: string, r: AutocannonResult): void {
  console.log(
    `${label.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(6)} req/s   p50 ${ms(r.latency.p50).padStart(8)}   p99 ${ms(r.latency.p99).padStart(8)}   max ${ms(r.latency.max).padStart(8)}   ` +
      `${r.requests.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`,
  );
}

async function main(): Promise<void> {
  const { values } = benchArgs({
    options: { duration: { type: 'string' }, connections: { type: 'string' }, rebuild: { type: 'boolean' }, serve: { type: 'string' }, cache: { type: 'string' }, workers: { type: 'string' } },
  });
  if (values.serve !== undefined) return serveChild(values.serve, Number(values.cache ?? 0), Number(values.workers ?? 1));
  if (!irAvailable()) {
    console.log(`http-search bench skipped: the IR collections are not at ${IR_DIR} (set GLEANER_IR_DIR)`);
    return;
  }
  const duration = Number(values.duration ?? 10);
  const connections = Number(values.connections ?? 16);

  if (values.rebuild || !existsSync(join(DATA_DIR, 'index'))) {
    const started = performance.now();
    const pages = await buildCorpus();
    console.log(`corpus: ${pages} pages stored and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s (${DATA_DIR})`);
  }
  const engine = await openSearchEngine(DATA_DIR);
  const summary = engine.summary();
  console.log(`index: ${summary.documents} documents, ${summary.terms} terms, ${(summary.bytesOnDisk / 1048576).toFixed(1)} MiB; node ${process.version}, ${cpus().length} CPUs`);
  if (summary.documents < 10_000) throw new Error(`the bench needs at least 10,000 indexed pages, found ${summary.documents}`);

  // A client asks for page 2 only when there is one.
  const queries = mixedQueries().map((q) =>
    q.page === 2 && engine.search(parseQuery(q.text), { offset: 0, limit: 10 }).total <= 10 ? { ...q, kind: 'one word', page: 1 } : q,
  );
  const requests = queries.map((q) => ({ method: 'GET' as const, path: `/api/search?q=${encodeURIComponent(q.text)}${q.page > 1 ? `&page=${q.page}` : ''}` }));

  // Baseline: the engine alone, parse + search, one thread, no HTTP; by kind of query, for whoever tunes it.
  const rounds = 5;
  const byKind = new Map<string, { ms: number; n: number }>();
  let hits = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const t = performance.now();
      hits += engine.search(parseQuery(q.text), { offset: (q.page - 1) * 10, limit: 10 }).hits.length;
      const k = byKind.get(q.kind) ?? { ms: 0, n: 0 };
      k.ms += performance.now() - t;
      k.n++;
      byKind.set(q.kind, k);
    }
  }
  const totalMs = [...byKind.values()].reduce((s, k) => s + k.ms, 0);
  const engineMs = totalMs / (rounds * queries.length);
  console.log(`${'engine alone (in process)'.padEnd(34)} ${String(Math.round(1000 / engineMs)).padStart(6)} queries/s   ${engineMs.toFixed(3)} ms per query (${hits} hits over ${rounds} x ${queries.length} queries)`);
  console.log('  by kind: ' + [...byKind].map(([kind, k]) => `${kind} ${(k.ms / k.n).toFixed(2)} ms (${Math.round((k.n / rounds))})`).join(', '));
  engine.close();

  console.log(`HTTP on loopback, ${connections} connections, ${duration} s each, gateway in a child process:`);
  const single = await withServer(0, 1, async (base) => {
    await autocannon({ url: base, connections, duration: 2, requests }); // warm-up: JIT, page cache
    report('GET /healthz (baseline)', await autocannon({ url: base + '/healthz', connections, duration }));
    const r = await autocannon({ url: base, connections, duration, requests });
    report(`GET /api/search, no result cache`, r);
    const pages = requests.map((q) => ({ ...q, path: q.path.replace('/api/search', '/search') }));
    report(`GET /search (HTML), no cache`, await autocannon({ url: base, connections, duration, requests: pages }));
    return r;
  });
  const workers = cpus().length;
  const multi = await withServer(0, workers, async (base) => {
    await autocannon({ url: base, connections, duration: 2, requests });
    const r = await autocannon({ url: base, connections, duration, requests });
    report(`GET /api/search, ${workers} workers`, r);
    return r;
  });
  const cached = await withServer(WEB_DEFAULTS.searchCacheEntries, 1, async (base) => {
    await autocannon({ url: base, connections, duration: 2, requests });
    const r = await autocannon({ url: base, connections, duration, requests });
    report(`GET /api/search, result cache on`, r);
    return r;
  });
  const met = (r: AutocannonResult) => (r.requests.average >= 1500 && r.latency.p99 < 50 && r.non2xx === 0 && r.errors === 0 ? 'met' : 'NOT met');
  console.log(`goal >= 1,500 req/s with p99 < 50 ms: ${met(single)} by one process, ${met(multi)} by ${workers} workers (gleaner serve --workers ${workers}), ${met(cached)} with the result cache (every one of the ${queries.length} queries repeats in this mix: an upper bound)`);
}

await main();
