// Page typeahead bench: the flexsearch index of titles and headings (indexer/page-typeahead.ts,
// web/search/page-typeahead.ts): build time, file size, the heap it takes once loaded, and in-process
// latency (p50/p99) of distinct as-you-type queries, with flexsearch's own search over the same index
// and the same queries in the same run as the baseline (encoded by our analyzer with the last word
// stemmed, intersected by flexsearch: what the typeahead did before it read the last word as typed and
// walked the intersection itself).
//
// Documents, by default: SciFact's 5,183 titles (real paper titles, ../shared/ir) repeated --copies
// times (default 20: 103,660), each copy with its own URL and its number after each of its texts (the
// typeahead indexes a text once, however many pages share it: copies left alike would measure 5,183);
// every title also gets two "headings" made from its own words, so the index holds titles and sections
// as a docs site's would. With --data DIR: the typeahead of the index in DIR, a real crawl (the Rust
// docs, or bench/replicate-site.ts's copies of them at 100k pages), as `serve` loads it.
// Queries: for up to 2,000 titles picked evenly, the first word whole and 3 letters of the next, as
// typed ("protein bin", "vceqq cor"): distinct, so nothing is answered twice.
//
//   npx tsc -p tsconfig.json && node --expose-gc dist/bench/typeahead.js [--copies 20] [--data DIR]

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import FlexSearch from 'flexsearch';
import { buildTypeahead } from '../indexer/page-typeahead.js';
import {
  decodeTypeahead,
  encodeTypeahead,
  readCurrentGeneration,
  TYPEAHEAD_FILE,
  TYPEAHEAD_INDEX_OPTIONS,
  typeaheadEncode,
  type IndexGeneration,
} from '../shared/index-format/index.js';
import { loadPageTypeahead } from '../web/search/page-typeahead.js';
import { irAvailable, loadCollection } from './ir-collections.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const copies = Number(option('--copies') ?? 20) || 20;
const dataDir = option('--data');
const gc = (globalThis as { gc?: () => void }).gc;

/** A generation holding the typeahead of SciFact's titles x copies, written to a temporary folder. */
async function scifactGeneration(): Promise<{ gen: IndexGeneration; done: () => Promise<void> }> {
  if (!irAvailable()) {
    console.log('needs ../shared/ir (SciFact titles), or --data DIR');
    process.exit(1);
  }
  const titles = loadCollection('scifact').docs.map((d) => d.title).filter((t) => t.trim() !== '');
  const docs = [];
  const urls: string[] = [];
  const docTitles: string[] = [];
  for (let c = 0; c < copies; c++) {
    // Each copy's texts are its own: the typeahead indexes a text once however many pages share it.
    const mark = c === 0 ? '' : ` (${c})`;
    for (const [i, base] of titles.entries()) {
      const words = base.split(/\s+/);
      const title = base + mark;
      const sections = [
        { id: 's1', heading: words.slice(0, 4).join(' ') + mark, start: 0 },
        { id: 's2', heading: words.slice(-4).join(' ') + mark, start: 1 },
      ];
      docs.push({ title, sections });
      urls.push(`http://copy${c}.test/${i}`);
      docTitles.push(title);
    }
  }
  gc?.();
  const t0 = performance.now();
  const file = buildTypeahead(docs);
  const buildSeconds = (performance.now() - t0) / 1000;
  const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-bench-'));
  const lines = encodeTypeahead(file);
  await writeFile(join(dir, TYPEAHEAD_FILE), lines);
  console.log(`documents ${docs.length} (SciFact titles x ${copies}), entries ${file.entries.length} (titles and headings); build ${buildSeconds.toFixed(1)} s`);
  const gen = { dir, docs: { url: urls, title: docTitles } } as unknown as IndexGeneration;
  return { gen, done: () => rm(dir, { recursive: true, force: true }) };
}

const { gen, done } = dataDir === undefined ? await scifactGeneration() : { gen: await readCurrentGeneration(dataDir), done: async () => {} };
const bytes = await readFile(join(gen.dir, TYPEAHEAD_FILE));
if (dataDir !== undefined) console.log(`documents ${gen.docs.url.length} (${dataDir}), entries ${decodeTypeahead(bytes).entries.length} (titles and headings)`);

gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const t1 = performance.now();
const suggest = loadPageTypeahead(gen);
const loadMs = performance.now() - t1;
gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
console.log(`file ${(bytes.byteLength / 1e6).toFixed(1)} MB; load ${loadMs.toFixed(0)} ms; heap after load +${heapMb.toFixed(0)} MB`);

// The baseline: flexsearch alone over the same file, asked as flexsearch is asked.
const flex = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
for (const [key, data] of decodeTypeahead(bytes).parts()) flex.import(key, data);

const titles = gen.docs.title;
const queries: string[] = [];
const step = Math.max(1, Math.floor(titles.length / 2000));
for (let i = 0; i < titles.length && queries.length < 2000; i += step) {
  const words = (titles.at(i) ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  if (words.length >= 2) queries.push(`${words[0]} ${words[1]!.slice(0, 3)}`);
}
const unique = [...new Set(queries)];

/** p50, p99 and max of `ask` over the queries, and how many found something. */
function timed(ask: (q: string) => number): string {
  const times: number[] = [];
  let found = 0;
  for (const q of unique) {
    const s = performance.now();
    const n = ask(q);
    times.push(performance.now() - s);
    if (n > 0) found++;
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
  return `${found} found; p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${times.at(-1)!.toFixed(3)} ms`;
}
console.log(`queries ${unique.length} distinct`);
console.log(`  Gleaner's typeahead (page of 5):    ${timed((q) => suggest(q, 5).length)} (goal p99 < 5 ms)`);
console.log(`  flexsearch search alone (15 ids):   ${timed((q) => (flex.search(q, { limit: 15 }) as number[]).length)}`);
await done();
