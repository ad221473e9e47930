// Extraction speed: crawler/extract.ts over real documentation pages, beside two baselines measured in the
// same run: htmlparser2 with its own tokenizer and empty callbacks (what a streaming pass costs before
// extraction swapped in html-tokenizer.ts) and cheerio.load + the same fields through selectors (what a
// DOM approach costs).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/extract.js [dir] [maxPages]
// dir defaults to the Debian rust-doc HTML (/usr/share/doc/rust-doc/html); skipped when absent.

import { existsSync, readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import * as cheerio from 'cheerio';
import { packAnalysis } from '../crawler/analysis-wire.js';
import { analyzeBody } from '../crawler/analyze.js';
import { decodeBody } from '../crawler/charset.js';
import { extractHtml } from '../crawler/extract.js';
import { listHtml } from '../test/support/doc-pages.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const dir = process.argv[2] ?? '/usr/share/doc/rust-doc/html';
const maxPages = Number(process.argv[3] ?? 3000);

function measure(name: string, pages: { url: string; bytes: Uint8Array }[], totalBytes: number, fn: (p: { url: string; bytes: Uint8Array }) => number): void {
  for (const p of pages.slice(0, 200)) fn(p); // warm up the JIT
  const t0 = process.hrtime.bigint();
  let sink = 0;
  for (const p of pages) sink += fn(p);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`${name.padEnd(34)} ${(pages.length / s).toFixed(0).padStart(7)} pages/s ${(totalBytes / s / 1e6).toFixed(1).padStart(7)} MB/s  (${s.toFixed(2)} s, sink ${sink})`);
}

if (!existsSync(dir)) {
  console.log(`bench/extract: ${dir} is absent (install the Debian rust-doc package or pass a directory); skipped.`);
} else {
  const files = listHtml(dir, maxPages);
  const pages = files.map((f) => ({ url: `http://127.0.0.1:8082/${f.slice(dir.length + 1)}`, bytes: new Uint8Array(readFileSync(f)) }));
  const totalBytes = pages.reduce((n, p) => n + p.bytes.length, 0);
  console.log(`${pages.length} pages, ${(totalBytes / 1e6).toFixed(1)} MB from ${dir}; node ${process.version}`);

  measure('baseline: htmlparser2, no-op', pages, totalBytes, (p) => {
    let n = 0;
    const parser = new Parser({ onopentag: () => n++ });
    parser.end(Buffer.from(p.bytes).toString('utf8'));
    return n;
  });
  measure('baseline: cheerio.load + selectors', pages, totalBytes, (p) => {
    const $ = cheerio.load(Buffer.from(p.bytes).toString('utf8'));
    const links = $('a[href], area[href]').map((_i, el) => $(el).attr('href')).get();
    return $('title').text().length + $('body').text().length + links.length;
  });
  measure('decodeBody alone', pages, totalBytes, (p) => decodeBody(p.bytes, 'text/html').text.length);
  measure('decodeBody + extractHtml', pages, totalBytes, (p) => {
    const { text } = decodeBody(p.bytes, 'text/html');
    const e = extractHtml(text, p.url);
    return e.links.length + e.text.length;
  });
  // The parse worker's whole job for one page (crawler/analyze-worker.ts): decode, extract, fingerprint, pack.
  measure('analyzeBody + packAnalysis', pages, totalBytes, (p) => {
    const input = { url: p.url, body: p.bytes, contentTypeHeader: 'text/html', contentType: 'text/html', xRobotsTag: [], agent: 'gleaner', stripParams: [] };
    const packed = packAnalysis(analyzeBody(input));
    return packed.analysis.extracted.text.length + packed.extractedLinks.url.length;
  });
  const links = pages.reduce((n, p) => n + extractHtml(Buffer.from(p.bytes).toString('utf8'), p.url).links.length, 0);
  console.log(`links extracted: ${links} (${(links / pages.length).toFixed(1)} per page)`);
}
