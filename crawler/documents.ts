// Documents other than HTML and text, read in a process of their own (crawler/document-worker.ts) with
// a deadline, a heap cap and a memory budget, so a hostile or broken file costs its one page, never the
// crawl: PDFs (crawler/pdf.ts) and Word documents (.docx, as HTML by mammoth, then read by the HTML
// extractor).
//
// A process, not a worker thread: a heap cap does not bound a compression bomb. pdf.js and mammoth's
// zip reader inflate into ArrayBuffers, which live outside the V8 heap (a 2 MB PDF inflating to 840 MB
// took the crawler to 1.8 GB before its deadline). A thread's memory cannot be told from its process's,
// and what it frees is not given back to the system; a child's resident memory is its own (sampled from
// /proc) and all of it is given back when it ends.

import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DocumentJob, DocumentResult } from './document-read.js';

/** The reader's V8 heap cap, MB: what pdf.js and mammoth build from an honest 5 MB document fits. */
const HEAP_MB = 256;
/** How often the reader's resident memory is sampled: an inflate grows it by a few MB a millisecond. */
const MEMORY_SAMPLE_MS = 25;

/**
 * Readers at once, across the whole crawl: one per core but the loop thread's, at most two. Each may
 * hold its memory budget, and the crawl reads as many pages at once as --concurrency says (16): twelve
 * compression bombs read together held 5 GB, and honest documents sharing two cores ran past their
 * deadlines. A document waits for a reader before its deadline starts.
 */
export const MAX_DOCUMENT_READERS = Math.max(1, Math.min(2, availableParallelism() - 1));

/** The documents being read, and those waiting their turn (first come, first read). */
let reading = 0;
const waiting: (() => void)[] = [];

/** Resolves when a reader is free (taking it), or rejects when `signal` aborts first. */
function takeReader(signal: AbortSignal | undefined, stopping: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(new Error(stopping));
  if (reading < MAX_DOCUMENT_READERS) {
    reading++;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      signal?.removeEventListener('abort', stop);
      reading++;
      resolve();
    };
    const stop = () => {
      waiting.splice(waiting.indexOf(turn), 1);
      reject(new Error(stopping));
    };
    waiting.push(turn);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

function releaseReader(): void {
  reading--;
  waiting.shift()?.();
}

/** The limits one document is read within. */
export interface DocumentLimits {
  /** Ended, as an error page, when not read within this long. */
  timeoutMs: number;
  /** Ended, as an error page, when the reader's process holds more memory than this. */
  memoryMb: number;
  /** The crawl's stop (Ctrl-C): the reader is ended at once, and the page stays queued. */
  signal?: AbortSignal;
}

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A Word document by its media type, or by its name when the server only says "bytes". */
export function isDocx(contentType: string, url: string): boolean {
  if (contentType === DOCX_TYPE) return true;
  return (contentType === 'application/octet-stream' || contentType === '') && /\.docx$/i.test(new URL(url).pathname);
}

/** A Word document as HTML, or an Error saying why not. */
export async function docxHtml(bytes: Uint8Array, limits: DocumentLimits, script?: URL): Promise<string> {
  const result = await readDocumentWithin({ kind: 'docx', bytes }, 'Word document', limits, script);
  if (result.kind !== 'docx') throw new Error('the document reader answered for another kind of document');
  return result.html;
}

/** Runs one document job in a process of its own once a reader is free, ended at the deadline or past its memory budget; `what` names it in errors. */
export async function readDocumentWithin(job: DocumentJob, what: string, limits: DocumentLimits, script: URL = new URL('./document-worker.js', import.meta.url)): Promise<DocumentResult> {
  await takeReader(limits.signal, `the ${what} was not read: the crawl is stopping`);
  try {
    return await readNow(job, what, limits, script);
  } finally {
    releaseReader();
  }
}

async function readNow(job: DocumentJob, what: string, limits: DocumentLimits, script: URL): Promise<DocumentResult> {
  // Tests running the TypeScript sources have no compiled worker: the same reader in this thread, with the deadline.
  if (!existsSync(script)) {
    const { timeoutMs } = limits;
    const deadline = `the ${what} was not read within ${timeoutMs / 1000} s`;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(deadline)), timeoutMs)));
    try {
      // Loaded only here: pdf.js's legacy build replaces globals (JSON.parse among them, with a slower
      // polyfill) in any process that imports it, and `gleaner serve` imports the crawler to recrawl.
      const { readDocument } = await import('./document-read.js');
      return await Promise.race([readDocument(job).catch((e: unknown) => Promise.reject(new Error(`the ${what} cannot be read: ${oneLine(e instanceof Error ? e.message : String(e))}`))), late]);
    } finally {
      clearTimeout(timer);
    }
  }
  return readInProcess(job, what, limits, script);
}

/** A reader's message on one line: it is stored as the page's error and printed as one line (xmldom's span two). */
function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** How much of the child's memory /proc says it holds, in bytes; undefined where there is no /proc. */
function residentBytes(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

function readInProcess(job: DocumentJob, what: string, limits: DocumentLimits, script: URL): Promise<DocumentResult> {
  if (limits.signal?.aborted) return Promise.reject(new Error(`the ${what} was not read: the crawl is stopping`));
  return new Promise<DocumentResult>((resolve, reject) => {
    const child = fork(fileURLToPath(script), [], {
      serialization: 'advanced', // the document's bytes go as bytes, not as JSON
      execArgv: [`--max-old-space-size=${HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    let settled = false;
    const settle = (outcome: { result: DocumentResult } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(sampler);
      limits.signal?.removeEventListener('abort', stop);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if ('result' in outcome) resolve(outcome.result);
      else reject(new Error(outcome.error));
    };
    const timer = setTimeout(() => settle({ error: `the ${what} was not read within ${limits.timeoutMs / 1000} s` }), limits.timeoutMs);
    const budgetBytes = limits.memoryMb * 1024 * 1024;
    const sampler = setInterval(() => {
      const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
      if (rss === undefined) clearInterval(sampler); // no /proc (not Linux): the deadline and heap cap still hold
      else if (rss > budgetBytes) settle({ error: `the ${what} needed more than ${limits.memoryMb} MB of memory to read (a compression bomb?)` });
    }, MEMORY_SAMPLE_MS);
    child.once('message', (m: { result: DocumentResult } | { error: string }) => settle('result' in m ? m : { error: `the ${what} cannot be read: ${oneLine(m.error)}` }));
    // `on`, not `once`: a send to a reader already killed may fail too, after its start did.
    child.on('error', (e) => settle({ error: `the ${what} reader failed: ${e.message}` }));
    child.once('exit', (code, signal) => {
      // V8 aborts a process whose heap passes --max-old-space-size.
      const outOfHeap = signal === 'SIGABRT' || code === 134;
      settle({ error: outOfHeap ? `the ${what} cannot be read: it needed more than the reader's ${HEAP_MB} MB heap` : `the ${what} reader stopped before it answered` });
    });
    const stop = () => settle({ error: `the ${what} was not read: the crawl is stopping` });
    limits.signal?.addEventListener('abort', stop);
    child.send(job);
  });
}
