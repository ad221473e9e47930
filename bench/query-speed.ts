// Bench: query speed on a real crawled site, Gleaner against Xapian in the same run.
//
//   bash ../shared/sites/serve-docs.sh start
//   node bin/gleaner crawl http://127.0.0.1:8082/ --data /tmp/rust-data --delay 0 --max-pages 40000
//   node bin/gleaner index --data /tmp/rust-data
//   npx tsc -p tsconfig.json && node dist/bench/query-speed.js --data /tmp/rust-data \
//        [--site http://127.0.0.1:8082/] [--docroot /usr/share/doc/rust-doc/html] [--queries 1000]
//        [--http] [--no-xapian] [--slowest N]  (the N slowest queries to rank, and pages of 10 to answer)
//        [--workers N|auto]  (with --http: `serve --workers`, the processes answering; auto, the default, is serve's)
//        [--searcher JSON]  (searcher options over the defaults, in process: variants)
//        [--repeat N]  (each query N times, its fastest kept, Gleaner and Xapian alike: the engine without
//                       a shared machine's pauses; 1, the default, keeps them)
//        [--warm N]  (queries a stream asked of both engines before timing, none of them timed; 400)
//
// The queries are drawn (seeded, so every run asks the same) from the index itself and are all
// distinct, so no answer cache can serve them:
//   words   1-2 common words (in 2-50% of the pages), every word required
//   any     the same kind of words, any word (OR)
//   long    3-5 words that follow each other in some page, every word required
//   phrase  2-3 words that follow each other in some page, in quotes
//   site    `site:HOST` and 1-2 common words
//   pair    2 common words in quotes, mostly a phrase on few pages or none (issue 16's "the same two
//           words as a phrase"): the phrase check's hardest case (shared/index-format phrase-pairs.ts)
// Gleaner answers in-process as the gateway asks (a page of 10 with snippets and explanations) and
// ranking alone (the top 10's URLs); Xapian (Debian python3-xapian over an omindex database of the same
// pages, bench/xapian-speed.py) answers the top 10 and reads their documents. With --http, `gleaner
// serve` with default settings is asked each query once in turn over HTTP (p50/p99 as a client sees
// them), then by wrk on loopback (4 connections, one thread, every request a query not asked before),
// once for default answers and once with explanations (explain=1).
//
// Both engines first answer --warm queries a stream, drawn like the timed ones but never among them (so
// they warm no answer cache): V8 compiles the searcher as queries exercise it, and after 40 a stream
// the every-word page of 10's p99 was 6.8-8.4 ms, much of it compiling and giving up compiled code;
// after 400, 2.8-4.1 ms (DESIGN.md "A warm-up the length of a JIT's").

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFoldToken, isIdentifierToken, isStopword, PAIR_SEPARATOR } from '../shared/analysis/index.js';
import { isPhrasePairToken, readCurrentGeneration, StoredChunks, type IndexGeneration } from '../shared/index-format/index.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine, type SearcherOptions } from '../web/search/index.js';
import { buildOmegaDb } from './omega-db.js';
import { seededRandom as rng } from '../test/support/seeded-random.js';
import { benchArgs, exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const { values: opts } = benchArgs({
  options: {
    data: { type: 'string', default: '/tmp/rust-data' },
    site: { type: 'string', default: 'http://127.0.0.1:8082/' },
    docroot: { type: 'string', default: '/usr/share/doc/rust-doc/html' },
    // Per stream. The p99 of 300 was the third slowest query, and one collector pause more or less
    // moved it by milliseconds; of 1,000 it is the tenth.
    queries: { type: 'string', default: '1000' },
    http: { type: 'boolean', default: false },
    // serve's --workers for the HTTP runs: auto (serve's default: one per core while the index's copies
    // fit in memory), or a count (1: one process, what serve's default was before 2026-12-04).
    workers: { type: 'string', default: 'auto' },
    'no-xapian': { type: 'boolean', default: false },
    slowest: { type: 'string', default: '0' },
    repeat: { type: 'string', default: '1' },
    // Wait for the read-ahead of posting lists that opening starts (SearcherOptions.preloadMiB) before
    // timing: a server some seconds after it started. Without it each term's first read is timed.
    preload: { type: 'boolean', default: false },
    // Searcher options over the defaults, in process only (e.g. '{"lead":{"poolSize":10,"leadWords":20,"weight":0}}', each option object whole).
    searcher: { type: 'string', default: '{}' },
    warm: { type: 'string', default: '400' },
  },
});
const PER_STREAM = Number(opts.queries);
/** Each query is run this many times and its fastest time kept, on both sides: what the engine costs
 * without the pauses of a shared machine (a garbage collection, another process) that a single run
 * puts in the p99 of 1,000 queries. 1: every query once, pauses and all. */
const REPEAT = Math.max(1, Number(opts.repeat));
// `pair` last: the streams before it draw the queries they drew before it came.
const STREAMS = ['words', 'any', 'long', 'phrase', 'site', 'pair'] as const;
type Stream = (typeof STREAMS)[number];
interface Query {
  stream: Stream;
  /** As typed into Gleaner's search box. */
  text: string;
  /** As given to Xapian's query parser (OR is its default operator's job there). */
  xapian: string;
  any: boolean;
}

const WORD = /^[a-z]{3,}$/;

function makeQueries(gen: IndexGeneration, seed: number, perStream: number): Query[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const n = gen.docs.url.length;
  const common: string[] = [];
  for (let t = 0; t < gen.terms.terms.length; t++) {
    const term = gen.terms.terms.at(t)!;
    const df = gen.offsets[t + 1]! - gen.offsets[t]!;
    const word = gen.terms.words.at(t)!;
    if (term.includes(PAIR_SEPARATOR) || isPhrasePairToken(term) || isIdentifierToken(term) || isFoldToken(term) || isStopword(term)) continue;
    if (df >= n * 0.02 && df <= n * 0.5 && WORD.test(word)) common.push(word);
  }
  // Read a page's body where it lies: stored.bin of a million pages is larger than one Buffer can be.
  const storedFd = openSync(gen.storedPath, 'r');
  const stored = new StoredChunks(storedFd, gen.storedChunks);
  const bodyWords = (d: number): string[] => {
    const bytes = stored.read(gen.docs.storedOffset[d]! + gen.docs.storedHeaderLength[d]!, Math.min(gen.docs.storedBodyLength[d]!, 20_000));
    return bytes.toString('utf8').split(/\s+/);
  };
  /** `length` words in a row from some page, letters only, not all stopwords. */
  const run = (length: number): string[] => {
    // Bounded: pages without such runs (or a stored.bin this build misreads) end the bench, not hang it.
    for (let tries = 0; tries < 100_000; tries++) {
      const words = bodyWords(Math.floor(random() * n));
      if (words.length < length + 1) continue;
      const at = Math.floor(random() * (words.length - length));
      const slice = words.slice(at, at + length).map((w) => w.toLowerCase());
      if (slice.every((w) => WORD.test(w)) && !slice.every(isStopword)) return slice;
    }
    throw new Error(`no run of ${length} words of letters found in 100,000 tries of this index's pages`);
  };
  const host = new URL(opts.site).host;
  const make: Record<Stream, () => Omit<Query, 'stream'>> = {
    words: () => {
      const q = random() < 0.5 ? pick(common) : `${pick(common)} ${pick(common)}`;
      return { text: q, xapian: q, any: false };
    },
    any: () => {
      const a = pick(common);
      const b = pick(common);
      return { text: `${a} OR ${b}`, xapian: `${a} ${b}`, any: true };
    },
    long: () => {
      const q = run(3 + Math.floor(random() * 3)).join(' ');
      return { text: q, xapian: q, any: false };
    },
    phrase: () => {
      const q = `"${run(2 + Math.floor(random() * 2)).join(' ')}"`;
      return { text: q, xapian: q, any: false };
    },
    site: () => {
      const q = `site:${host} ${random() < 0.5 ? pick(common) : `${pick(common)} ${pick(common)}`}`;
      return { text: q, xapian: q, any: false };
    },
    pair: () => {
      const q = `"${pick(common)} ${pick(common)}"`;
      return { text: q, xapian: q, any: false };
    },
  };
  const out: Query[] = [];
  for (const stream of STREAMS) {
    const seen = new Set<string>();
    for (let tries = 0; seen.size < perStream && tries < perStream * 50; tries++) {
      const q = make[stream]();
      if (seen.has(q.text)) continue;
      seen.add(q.text);
      out.push({ stream, ...q });
    }
  }
  closeSync(storedFd);
  return out;
}

/** The queries one of each stream in turn. makeQueries gives them stream by stream, and wrk asks only
 * as many as 10 s allow (about 7,000 of 20,000): it asked 1-2 common words and nothing else. */
function interleaved(queries: readonly Query[]): Query[] {
  const byStream = STREAMS.map((s) => queries.filter((q) => q.stream === s));
  const out: Query[] = [];
  for (let i = 0; out.length < queries.length; i++) for (const list of byStream) if (i < list.length) out.push(list[i]!);
  return out;
}

/** `perStream` queries a stream drawn as the timed ones are, none of them in `asked` (added to it),
 * the streams taking turns. Common words pair in fewer ways than 40,000 HTTP queries ask: draws
 * continue with the next seed until every stream has its share (at most 20 draws). */
function warmQueries(gen: IndexGeneration, perStream: number, asked: Set<string>): Query[] {
  const out: Query[] = [];
  const count = new Map<Stream, number>();
  for (let seed = 99; seed < 119 && out.length < perStream * STREAMS.length; seed++) {
    for (const q of makeQueries(gen, seed, perStream)) {
      if (asked.has(q.text) || (count.get(q.stream) ?? 0) >= perStream) continue;
      asked.add(q.text);
      out.push(q);
      count.set(q.stream, (count.get(q.stream) ?? 0) + 1);
    }
  }
  return interleaved(out);
}

/** Whether Debian's python3 can import xapian (python3-xapian): without it the bench measured
 * Gleaner, then ended in a Python stack trace. */
function hasPythonXapian(): boolean {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import xapian'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(ms: readonly number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return `${percentile(s, 50).toFixed(2)} / ${percentile(s, 99).toFixed(2)}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** GET `url` on a kept-alive connection; resolves when the whole answer is in. node:http, not fetch:
 * fetch's own cost (about a millisecond a request in Node 20) was most of what the client measured. */
function getBody(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve());
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** wrk against `base` for `seconds`, 4 connections: one Lua state (one thread) hands every connection
 * the next of `paths` not yet asked. */
function wrk(base: string, paths: readonly string[], seconds: number): { rps?: string; p50?: string; p99?: string; total: number } {
  const work = mkdtempSync(join(tmpdir(), 'gleaner-wrk-'));
  try {
    writeFileSync(join(work, 'paths.lua'), `paths = {${paths.map((p) => JSON.stringify(p)).join(',\n')}}\ni = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`);
    const out = execFileSync('wrk', ['-t1', '-c4', `-d${seconds}s`, '--latency', '-s', join(work, 'paths.lua'), base], { encoding: 'utf8' });
    return {
      rps: /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1],
      p50: /\s50%\s+([\d.]+\w+)/.exec(out)?.[1],
      p99: /\s99%\s+([\d.]+\w+)/.exec(out)?.[1],
      total: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function httpRuns(queries: readonly Query[], warm: readonly Query[], extra: readonly Query[]): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/gleaner', 'serve', '--data', opts.data, '--port', String(port), '--workers', opts.workers], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    // serve's ready line says how many processes answer: "(N workers)", or nothing for one.
    let processes = 1;
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        const line = /Gleaner search: \S+(?: \((\d+) workers\))?/.exec(b.toString());
        if (line === null) return;
        processes = Number(line[1] ?? 1);
        resolve();
      });
      child.on('exit', (code) => reject(new Error(`gleaner serve exited (${code})`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const byStream = new Map<Stream, number[]>();
    // The server's code is compiled and its files cached by other queries first, as in-process.
    for (const q of warm) await getBody(`${base}/api/search?q=${encodeURIComponent(q.text)}`, agent);
    for (const q of queries) {
      const started = performance.now();
      await getBody(`${base}/api/search?q=${encodeURIComponent(q.text)}`, agent);
      const ms = performance.now() - started;
      if (!byStream.has(q.stream)) byStream.set(q.stream, []);
      byStream.get(q.stream)!.push(ms);
    }
    console.log('\nOver HTTP, one query at a time (ms, p50 / p99, as the client sees it):');
    console.log('| stream | gleaner serve |');
    console.log('|---|---|');
    for (const stream of STREAMS) console.log(`| ${stream} | ${summary(byStream.get(stream) ?? [])} |`);
    // The floor: what a request costs this machine's loopback and the client without a search.
    const floor: number[] = [];
    for (let i = 0; i < PER_STREAM; i++) {
      const started = performance.now();
      await getBody(`${base}/healthz`, agent);
      floor.push(performance.now() - started);
    }
    console.log(`| /healthz (no search) | ${summary(floor)} |`);
    agent.destroy();
    // wrk: two runs, each on its own half of the queries: answers as programs get them by default, then
    // with each result's explanation (explain=1, what every answer carried before it was asked for).
    if (!existsSync('/usr/bin/wrk')) {
      console.log('\nwrk left out: apt-get install wrk');
      return;
    }
    // Every process warmed first: the one-at-a-time runs above reach one process only (one connection),
    // and the first measured run otherwise paid for compiling the others' code (1,154-1,329 requests/s
    // against 1,314-1,445 in the run after it, 2026-12-05). Page 2 of the queries already asked: the
    // same code, answers no cache holds.
    wrk(base, [...warm, ...queries].map((q) => `/api/search?q=${encodeURIComponent(q.text)}&page=2`), 3);
    const half = Math.floor(extra.length / 2);
    for (const [label, from, suffix] of [['default answers', 0, ''], ['with explain=1', half, '&explain=1']] as const) {
      const paths = extra.slice(from, from + half).map((q) => `/api/search?q=${encodeURIComponent(q.text)}${suffix}`);
      const { rps, p50, p99, total } = wrk(base, paths, 10);
      console.log(`\nwrk, 4 connections, 10 s, ${paths.length} distinct queries (all streams mixed), ${label}, serve --workers ${opts.workers} (${processes} process${processes === 1 ? '' : 'es'})${total > paths.length ? ', some asked twice: make --queries larger' : ''}:`);
      console.log(`  ${rps} requests/s, latency p50 ${p50}, p99 ${p99}`);
    }
  } finally {
    child.kill();
  }
}

/** The queries, drawn from a copy of the generation let go before timing: the engine reads its own,
 * and a second page table in the heap doubled what each full collection marks (its pause, 150-200 ms
 * at a million pages, was the p99). */
async function drawQueries(): Promise<{ queries: Query[]; warm: Query[]; httpQueries: Query[]; urls: string[] }> {
  const gen = await readCurrentGeneration(opts.data);
  try {
    const queries = makeQueries(gen, 7, PER_STREAM);
    console.log(`${gen.docs.url.length} pages, ${queries.length} distinct queries (${PER_STREAM} per stream); Gleaner's index ${(gen.manifest.bytesOnDisk / 2 ** 20).toFixed(0)} MiB`);
    // Each query is asked once: over HTTP the gateway's answer cache would serve a second asking.
    const asked = new Set(queries.map((q) => q.text));
    const httpQueries = opts.http ? interleaved(makeQueries(gen, 1234, 8000).filter((q) => !asked.has(q.text))) : [];
    for (const q of httpQueries) asked.add(q.text);
    const warm = warmQueries(gen, Number(opts.warm), asked);
    return { queries, warm, httpQueries, urls: opts['no-xapian'] ? [] : [...gen.docs.url] };
  } finally {
    gen.lists.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(opts.data, 'index'))) {
    console.log(`query speed skipped: no Gleaner index in ${opts.data} (see the header for the crawl and index commands)`);
    return;
  }
  const { queries, warm, httpQueries, urls } = await drawQueries();

  const loadStarted = performance.now();
  const engine = await openSearchEngine(opts.data, JSON.parse(opts.searcher) as Partial<SearcherOptions>);
  const loadMs = performance.now() - loadStarted;
  let preloaded = '';
  if (opts.preload) {
    const started = performance.now();
    const { terms, mib } = await engine.preload();
    preloaded = `, then read ahead ${terms} terms' lists (${mib.toFixed(0)} MiB) in ${(performance.now() - started).toFixed(0)} ms`;
  }
  for (const q of warm) engine.search(parseQuery(q.text), { offset: 0, limit: 10 });
  const full = new Map<Stream, number[]>();
  const slow: { ms: number; rankMs: number; text: string; total: number; stream: Stream }[] = [];
  const ranking = new Map<Stream, number[]>();
  for (const q of queries) {
    const parsed = parseQuery(q.text);
    let rankMs = Infinity;
    let fullMs = Infinity;
    let result: ReturnType<typeof engine.search> | undefined;
    for (let r = 0; r < REPEAT; r++) {
      let started = performance.now();
      engine.rankedUrls(parsed, 10);
      rankMs = Math.min(rankMs, performance.now() - started);
      started = performance.now();
      result = engine.search(parseQuery(q.text), { offset: 0, limit: 10 });
      fullMs = Math.min(fullMs, performance.now() - started);
    }
    slow.push({ ms: fullMs, rankMs, text: q.text, total: result!.total, stream: q.stream });
    for (const [map, ms] of [[ranking, rankMs], [full, fullMs]] as const) {
      if (!map.has(q.stream)) map.set(q.stream, []);
      map.get(q.stream)!.push(ms);
    }
  }
  const rss = process.memoryUsage().rss;
  engine.close();

  let xapian: Record<string, number[]> | undefined;
  if (!opts['no-xapian']) {
    if (!existsSync('/usr/bin/omindex') || !hasPythonXapian()) console.log('Xapian left out: apt-get install xapian-omega python3-xapian');
    else {
      const omega = buildOmegaDb(urls, opts.site, opts.docroot);
      try {
        const input = [...warm, ...queries].map((q) => JSON.stringify({ stream: q.stream, query: q.xapian, any: q.any })).join('\n');
        const out = execFileSync('/usr/bin/python3', [join('bench', 'xapian-speed.py'), join(omega.dataDir, 'docs'), String(REPEAT)], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
        const parsed = JSON.parse(out) as { ms: Record<string, number[]> };
        // The warm-up queries came first: drop them.
        const warmCount = new Map<string, number>();
        for (const q of warm) warmCount.set(q.stream, (warmCount.get(q.stream) ?? 0) + 1);
        xapian = Object.fromEntries(Object.entries(parsed.ms).map(([s, ms]) => [s, ms.slice(warmCount.get(s) ?? 0)]));
      } finally {
        omega.cleanup();
      }
    }
  }
  console.log(`\nIn-process, ms, p50 / p99${REPEAT > 1 ? `, each query the fastest of ${REPEAT} runs` : ""} (Gleaner loaded its index in ${loadMs.toFixed(0)} ms${preloaded}, RSS ${(rss / 2 ** 20).toFixed(0)} MiB; ${opts['no-xapian'] ? 'it was' : 'both engines were'} asked ${warm.length} other queries first):`);
  console.log('| stream | Gleaner, page of 10 (snippets) | Gleaner, ranking only | Xapian, top 10 + data |');
  console.log('|---|---|---|---|');
  for (const stream of STREAMS) {
    console.log(`| ${stream} | ${summary(full.get(stream) ?? [])} | ${summary(ranking.get(stream) ?? [])} | ${xapian ? summary(xapian[stream] ?? []) : '-'} |`);
  }
  const slowest = Number(opts.slowest);
  if (slowest > 0) {
    console.log(`\nThe ${slowest} slowest to rank (ranking ms, page of 10 ms):`);
    for (const s of slow.sort((a, b) => b.rankMs - a.rankMs).slice(0, slowest)) console.log(`  ${s.rankMs.toFixed(2)}  ${s.ms.toFixed(2)}  ${s.stream}: ${s.text}  (${s.total} results)`);
    // A page of results can be slow where ranking is not: its snippets read and search long pages.
    console.log(`\nThe ${slowest} slowest pages of 10 (ranking ms, page of 10 ms):`);
    for (const s of slow.sort((a, b) => b.ms - a.ms).slice(0, slowest)) console.log(`  ${s.rankMs.toFixed(2)}  ${s.ms.toFixed(2)}  ${s.stream}: ${s.text}  (${s.total} results)`);
  }
  if (opts.http) await httpRuns(queries, warm, httpQueries);
}

await main();
