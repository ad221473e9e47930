// PDF documents crawled, stored, indexed and searched like pages (crawler/pdf.ts): a word only on a
// PDF's second page finds it, and the result names and links that page; a broken, a truncated and a
// junk PDF each cost their one page, with a reason, and the crawl goes on.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { analyzeDocument } from '../crawler/document-analysis.js';
import { docxHtml, MAX_DOCUMENT_READERS } from '../crawler/documents.js';
import { DEFAULT_PDF_OPTIONS, extractedFromPdf, pdfText } from '../crawler/pdf.js';
import { buildIndex } from '../indexer/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { openSearchEngine, type GleanerSearchEngine } from '../web/search/index.js';
import { makeDocx, makeDocxOfXml } from './support/make-docx.js';
import { makeInflatingPdf, makePdf } from './support/make-pdf.js';
import { query } from './support/index-fixture.js';
import { tempDirs } from './support/temp-dirs.js';

const MANUAL = makePdf(['Widget manual: fitting the widget to the frame.', 'Sprockets turn when the crank is wound clockwise.', 'Appendix: torque tables for every widget size.'], { title: 'The Widget Manual', author: 'Ann Engineer', created: "D:20240305093000+01'00'" });
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const POLICY = makeDocx([
  { text: 'Travel policy', style: 'Heading1' },
  { text: 'Staff book trains for trips under four hours.' },
  { text: 'Expenses', style: 'Heading2' },
  { text: 'Receipts go to the finance office within thirty days.' },
]);
const dirs = tempDirs('gleaner-pdf-');
// The compiled document reader (dist/, built by `npm test`): only a process of its own can be measured and ended mid-read.
const WORKER = fileURLToPath(new URL('../dist/crawler/document-worker.js', import.meta.url));
const WORKER_BUILT = existsSync(WORKER);
if (!WORKER_BUILT) console.warn('PDF memory-budget test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

describe('PDF documents', () => {
  let base: string;
  let close: () => Promise<void>;
  const pages = new Map<string, PageRecord>();
  let engine: GleanerSearchEngine;

  beforeAll(async () => {
    const links = ['/manual.pdf', '/notes.txt', '/cut.pdf', '/junk.pdf', '/untitled.pdf', '/policy.docx', '/broken.docx'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
    const server = createServer((req, res) => {
      const send = (type: string, body: string | Uint8Array) => void res.writeHead(200, { 'content-type': type }).end(body);
      if (req.url === '/') { send('text/html', `<title>Docs</title><p>Our documents: ${links}</p>`); return; }
      if (req.url === '/manual.pdf') { send('application/pdf', MANUAL); return; }
      if (req.url === '/notes.txt') { send('text/plain; charset=utf-8', 'Meeting notes\nThe gearbox order ships on Friday.'); return; }
      if (req.url === '/cut.pdf') { send('application/pdf', MANUAL.subarray(0, 200)); return; }
      if (req.url === '/junk.pdf') { send('application/pdf', new TextEncoder().encode(`%PDF-1.7\n${'\u0000garbage(('.repeat(500)}`)); return; }
      if (req.url === '/policy.docx') { send(DOCX_TYPE, POLICY); return; }
      if (req.url === '/broken.docx') { send(DOCX_TYPE, POLICY.subarray(0, 300)); return; }
      if (req.url === '/untitled.pdf') { send('application/pdf', makePdf(['Quarterly flange report', 'Flanges shipped: 40.'])); return; }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((r) => server.close(() => r()));
    const data = join(await dirs.make(), 'data');
    const summary = await crawl({ dataDir: data, seeds: [`${base}/`], delayMs: 0, useSitemaps: false, parseThreads: 0 });
    expect(summary.stoppedBecause).toBe('done');
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) pages.set(new URL(p.url).pathname, p);
    await store.close();
    await buildIndex(data);
    engine = await openSearchEngine(data);
  });
  afterAll(async () => {
    engine.close();
    await close();
    await dirs.removeAll();
  });

  it('stores a PDF as a page: its Title, its date, its text, one section per PDF page', () => {
    const manual = pages.get('/manual.pdf')!;
    expect(manual).toMatchObject({ state: 'ok', contentType: 'application/pdf', title: 'The Widget Manual', description: 'by Ann Engineer' });
    // Its Info CreationDate, a PDF date with a zone, in UTC.
    expect(manual.date).toBe('2024-03-05T08:30:00.000Z');
    expect(pages.get('/untitled.pdf')?.date).toBeUndefined();
    expect(manual.text).toContain('Sprockets turn when the crank is wound clockwise.');
    expect(manual.sections?.map((s) => [s.id, s.heading, manual.text.slice(s.start, s.start + 9)])).toEqual([
      ['page=1', 'p. 1', 'Widget ma'],
      ['page=2', 'p. 2', 'Sprockets'],
      ['page=3', 'p. 3', 'Appendix:'],
    ]);
    // No Title: the first line stands in for it.
    expect(pages.get('/untitled.pdf')?.title).toBe('Quarterly flange report');
  });

  it('finds a word only on the PDF\'s second page, and the result names and links that page', () => {
    const hits = engine.search(query('sprockets crank'), { offset: 0, limit: 10 }).hits;
    expect(hits[0]?.url).toBe(`${base}/manual.pdf`);
    expect(hits[0]?.section).toEqual({ id: 'page=2', heading: 'p. 2', url: `${base}/manual.pdf#page=2` });
    expect(engine.search(query('gearbox friday'), { offset: 0, limit: 10 }).hits[0]?.url).toBe(`${base}/notes.txt`);
  });

  it('a cut, a junk and an unreadable PDF are one error page each, with the reason; the crawl went on', () => {
    expect(pages.get('/cut.pdf')).toMatchObject({ state: 'error' });
    expect(pages.get('/cut.pdf')?.error).toMatch(/PDF/);
    expect(pages.get('/junk.pdf')).toMatchObject({ state: 'error', status: 200, contentType: 'application/pdf' });
    expect(pages.get('/junk.pdf')?.error).toMatch(/the PDF cannot be read|PDF/);
    expect(pages.get('/notes.txt')?.state).toBe('ok');
  });

  it('reads a Word document (.docx) as a page: its headings, its text, found by a search; a broken one is an error page', () => {
    const policy = pages.get('/policy.docx')!;
    expect(policy).toMatchObject({ state: 'ok', contentType: DOCX_TYPE, title: 'Travel policy', headings: ['Travel policy', 'Expenses'] });
    expect(policy.text).toContain('Receipts go to the finance office within thirty days.');
    expect(engine.search(query('receipts finance'), { offset: 0, limit: 10 }).hits[0]?.url).toBe(`${base}/policy.docx`);
    // Answered all the same: the error keeps the answer's status and type (it was counted as no response).
    expect(pages.get('/broken.docx')).toMatchObject({ state: 'error', status: 200, contentType: DOCX_TYPE });
    expect(pages.get('/broken.docx')?.error).toMatch(/Word document cannot be read/);
  });

  it('a PDF reader that never answers is ended at the deadline, with that reason', async () => {
    // A reader stuck for good, as pdf.js on a hostile PDF could be: the worker is terminated, not waited for.
    const script = join(await dirs.make(), 'stuck-worker.mjs');
    await writeFile(script, 'setInterval(() => {}, 1000);\n');
    const started = performance.now();
    await expect(pdfText(MANUAL, { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 300 }, pathToFileURL(script))).rejects.toThrow(/not read within 0.3 s/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
  });

  // A 400 KB PDF whose one content stream inflates to 400 MB. pdf.js inflates into ArrayBuffers, which
  // a heap cap does not count: before the budget, such a file grew the crawler by 1.6 GB.
  it.skipIf(!WORKER_BUILT && process.env.CI !== 'true')('a compression bomb is ended by its memory budget, with that reason', async () => {
    expect(WORKER_BUILT).toBe(true);
    const bomb = await makeInflatingPdf(400);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const limits = { ...DEFAULT_PDF_OPTIONS, documentMemoryMb: 128, documentTimeoutMs: 120_000 };
    await expect(pdfText(bomb, limits, pathToFileURL(WORKER))).rejects.toThrow(/^the PDF needed more than 128 MB of memory to read \(a compression bomb\?\)$/);
    // The budget is the reader's own: an honest PDF read beside a bomb is read whole.
    const [honest, bombed] = await Promise.allSettled([pdfText(MANUAL, limits, pathToFileURL(WORKER)), pdfText(bomb, limits, pathToFileURL(WORKER))]);
    expect(honest.status === 'fulfilled' && honest.value.title).toBe('The Widget Manual');
    expect(bombed.status).toBe('rejected');
  });

  it('a Word document naming an external entity is refused in one line, the file never read', async () => {
    const xxe = makeDocxOfXml('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>secret: &x;</w:t></w:r></w:p></w:body></w:document>');
    const script = WORKER_BUILT ? pathToFileURL(WORKER) : undefined;
    const read = docxHtml(xxe, { timeoutMs: 20_000, memoryMb: 512 }, script);
    await expect(read).rejects.toThrow(/^the Word document cannot be read: .*entity not found:&x;[^\n]*$/);
  });

  it('a reader is ended at once when the crawl stops', async () => {
    const script = join(await dirs.make(), 'stuck-reader.mjs');
    await writeFile(script, 'setInterval(() => {}, 1000);\n');
    const stop = new AbortController();
    const read = pdfText(MANUAL, { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 120_000 }, pathToFileURL(script), stop.signal);
    setTimeout(() => stop.abort(), 100);
    await expect(read).rejects.toThrow(/^the PDF was not read: the crawl is stopping$/);
  });

  // The compiled crawl, whose readers are processes: stopped while a PDF is read, the PDF stays queued
  // for the next run instead of being stored as an error page.
  it.skipIf(!WORKER_BUILT && process.env.CI !== 'true')('a crawl stopped while a PDF is read leaves it queued, not stored as an error', async () => {
    expect(WORKER_BUILT).toBe(true);
    const { crawl: builtCrawl } = (await import(pathToFileURL(fileURLToPath(new URL('../dist/crawler/index.js', import.meta.url))).href)) as { crawl: typeof crawl };
    const bomb = await makeInflatingPdf(400);
    const stop = new AbortController();
    const server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Reports</title><a href="/slow.pdf">the report</a>');
      if (req.url === '/slow.pdf') {
        setTimeout(() => stop.abort(), 300); // while its reader works
        return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(bomb);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const data = join(await dirs.make(), 'data');
      // Budget and deadline far off: only the stop can end this reader in time.
      const summary = await builtCrawl({ dataDir: data, seeds: [`${site}/`], delayMs: 0, useSitemaps: false, documentMemoryMb: 8192, documentTimeoutMs: 120_000 }, { signal: stop.signal });
      expect(summary.stoppedBecause).toBe('aborted');
      const store = await openStore(data, { mustExist: true });
      const stored: string[] = [];
      for await (const p of store.pages()) stored.push(new URL(p.url).pathname);
      await store.close();
      expect(stored).toEqual(['/']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  // Each reader may hold its memory budget, and a crawl reads up to --concurrency (16) pages at once:
  // twelve compression bombs read together held 5 GB. Readers are shared out, first come first read,
  // and a document's deadline starts when its reader does, so one that waited is not cut short.
  it('reads at most MAX_DOCUMENT_READERS documents at once', async () => {
    const dir = await dirs.make();
    const script = join(await dirs.make(), 'counting-reader.mjs');
    // Each reader marks itself running, counts the running ones, and answers that count 600 ms later.
    await writeFile(script, `import { readdirSync, rmSync, writeFileSync } from 'node:fs';
process.once('message', () => {
  const mine = ${JSON.stringify(dir)} + '/' + process.pid;
  writeFileSync(mine, '');
  const atOnce = readdirSync(${JSON.stringify(dir)}).length;
  setTimeout(() => {
    rmSync(mine);
    process.send({ result: { kind: 'pdf', pdf: { title: String(atOnce), author: '', date: '', pages: [], pageCount: 0 } } }, () => process.disconnect());
  }, 600);
});
`);
    // A deadline no reader comes near: what is counted here is readers, not time.
    const limits = { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 60_000 };
    const reads = await Promise.allSettled(Array.from({ length: MAX_DOCUMENT_READERS + 2 }, () => pdfText(MANUAL, limits, pathToFileURL(script))));
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 'fulfilled'));
    const atOnce = reads.map((r) => (r.status === 'fulfilled' ? Number(r.value.title) : 0));
    expect(Math.max(...atOnce)).toBeLessThanOrEqual(MAX_DOCUMENT_READERS);
  });

  it('a document that waits for a reader longer than its deadline keeps its whole deadline', async () => {
    // Every reader is held until its own deadline (6 s) by a document that never answers; the next one
    // waits all that time, longer than its deadline of 5 s, and is then read. Were its clock started
    // when it began to wait, it would end at 5 s, still waiting, however fast or slow the machine.
    const stuck = join(await dirs.make(), 'stuck-reader.mjs');
    await writeFile(stuck, 'setInterval(() => {}, 1000);\n');
    const answering = join(await dirs.make(), 'answering-reader.mjs');
    await writeFile(answering, `process.once('message', () => process.send({ result: { kind: 'pdf', pdf: { title: 'read', author: '', date: '', pages: [], pageCount: 0 } } }, () => process.disconnect()));\n`);
    const held = Array.from({ length: MAX_DOCUMENT_READERS }, () => pdfText(MANUAL, { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 6_000 }, pathToFileURL(stuck)));
    const waited = pdfText(MANUAL, { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 5_000 }, pathToFileURL(answering));
    const [read, ...cut] = await Promise.allSettled([waited, ...held]);
    expect(read).toMatchObject({ status: 'fulfilled', value: { title: 'read' } });
    expect(cut).toEqual(held.map(() => ({ status: 'rejected', reason: new Error('the PDF was not read within 6 s') })));
  });

  it('a document waiting for a reader is given up at once when the crawl stops', async () => {
    const script = join(await dirs.make(), 'stuck-reader.mjs');
    await writeFile(script, 'setInterval(() => {}, 1000);\n');
    const stop = new AbortController();
    const limits = { ...DEFAULT_PDF_OPTIONS, documentTimeoutMs: 120_000 };
    const busy = Array.from({ length: MAX_DOCUMENT_READERS }, () => pdfText(MANUAL, limits, pathToFileURL(script), stop.signal));
    const waiting = pdfText(MANUAL, limits, pathToFileURL(script), stop.signal);
    setTimeout(() => stop.abort(), 100);
    await expect(waiting).rejects.toThrow(/^the PDF was not read: the crawl is stopping$/);
    for (const read of busy) await expect(read).rejects.toThrow(/crawl is stopping/);
  });

  it('a Word document whose HTML outgrows the body cap is read as far as the cap, as a page is', async () => {
    const docx = makeDocx([{ text: 'Lorem', style: 'Heading1' }, { text: 'lorem ipsum '.repeat(50_000) }]);
    const input = { url: 'http://x.test/big.docx', body: docx, contentType: DOCX_TYPE, contentTypeHeader: DOCX_TYPE, xRobotsTag: [], agent: 'gleaner', stripParams: [] };
    const { extracted } = await analyzeDocument(input, false, { ...DEFAULT_PDF_OPTIONS, maxBodyBytes: 20_000 });
    expect(extracted.title).toBe('Lorem');
    expect(extracted.text.length).toBeGreaterThan(15_000);
    expect(extracted.text.length).toBeLessThanOrEqual(20_000);
  });

  it('reads at most pdfMaxPages pages, and takes the title from the file name when there is no text', () => {
    const e = extractedFromPdf({ title: '', author: '', date: '', pages: ['', '  '], pageCount: 2 }, 'http://x/docs/Annual%20Report.pdf');
    expect(e.title).toBe('Annual Report.pdf');
    expect(e.text).toBe('');
  });
});
