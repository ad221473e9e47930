// Page typeahead bench: the flexsearch index of titles and headings (indexer/page-typeahead.ts,
// web/search/page-typeahead.ts) at about 100k documents: build time, file size, the heap it takes
// once loaded, and in-process latency (p50/p99) of distinct as-you-type queries.
//
// Documents: SciFact's 5,183 titles (real paper titles, ../shared/ir) repeated --copies times (default
// 20: 103,660), each copy with its own URL and its number after each of its texts (the typeahead
// indexes a text once, however many pages share it: copies left alike would measure 5,183); every
// title also gets two "headings" made from its own words, so the index holds titles and sections as
// a docs site's would. Queries: for 2,000 titles picked evenly, the first word whole and 3 letters of
// the next, as typed ("protein bin"): distinct, so nothing is answered twice.
//
//   npx tsc -p tsconfig.json && node --expose-gc dist/bench/typeahead.js [--copies 20]

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTypeahead } from '../indexer/page-typeahead.js';
import { encodeTypeahead, TYPEAHEAD_FILE, type IndexGeneration } from '../shared/index-format/index.js';
import { loadPageTypeahead } from '../web/search/page-typeahead.js';
import { irAvailable, loadCollection } from './ir-collections.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const copies = Number(args[args.indexOf('--copies') + 1] ?? 20) || 20;
if (!irAvailable()) {
  console.log('needs ../shared/ir (SciFact titles)');
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
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const t0 = performance.now();
const file = buildTypeahead(docs);
const buildSeconds = (performance.now() - t0) / 1000;
const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-bench-'));
const lines = encodeTypeahead(file);
await writeFile(join(dir, TYPEAHEAD_FILE), lines);
// Bytes of all its lines: the file is written as lines (shared/index-format encodeTypeahead).
const fileBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8'), 0);
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const t1 = performance.now();
const suggest = loadPageTypeahead({ dir, docs: { url: urls, title: docTitles } } as unknown as IndexGeneration);
const loadMs = performance.now() - t1;
gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

const queries: string[] = [];
const step = Math.max(1, Math.floor(titles.length / 2000));
for (let i = 0; i < titles.length && queries.length < 2000; i += step) {
  const words = titles[i]!.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  if (words.length >= 2) queries.push(`${words[0]} ${words[1]!.slice(0, 3)}`);
}
const unique = [...new Set(queries)];
const times: number[] = [];
let found = 0;
for (const q of unique) {
  const s = performance.now();
  const pages = suggest(q, 5);
  times.push(performance.now() - s);
  if (pages.length > 0) found++;
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
console.log(`documents ${docs.length} (SciFact titles x ${copies}), entries ${file.entries.length} (titles and headings)`);
console.log(`build ${buildSeconds.toFixed(1)} s; file ${(fileBytes / 1e6).toFixed(1)} MB; load ${loadMs.toFixed(0)} ms; heap after load +${heapMb.toFixed(0)} MB`);
console.log(`queries ${unique.length} distinct, ${found} with pages; p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${times.at(-1)!.toFixed(3)} ms (goal p99 < 5 ms)`);
await rm(dir, { recursive: true, force: true });
