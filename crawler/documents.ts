// Documents other than HTML and text, read in a worker thread of their own (crawler/document-worker.ts)
// with a deadline and a heap cap, so a hostile or broken file costs its one page, never the crawl: PDFs
// (crawler/pdf.ts) and Word documents (.docx, as HTML by mammoth, then read by the HTML extractor).

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DocumentJob, DocumentResult } from './document-read.js';

const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 } as const;

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A Word document by its media type, or by its name when the server only says "bytes". */
export function isDocx(contentType: string, url: string): boolean {
  if (contentType === DOCX_TYPE) return true;
  return (contentType === 'application/octet-stream' || contentType === '') && /\.docx$/i.test(new URL(url).pathname);
}

/** A Word document as HTML, or an Error saying why not. */
export async function docxHtml(bytes: Uint8Array, timeoutMs: number, script?: URL): Promise<string> {
  const result = await readDocumentWithin({ kind: 'docx', bytes }, 'Word document', timeoutMs, script);
  if (result.kind !== 'docx') throw new Error('the document reader answered for another kind of document');
  return result.html;
}

/** Runs one document job in a worker of its own, ended at the deadline; `what` names it in errors. */
export async function readDocumentWithin(job: DocumentJob, what: string, timeoutMs: number, script: URL = new URL('./document-worker.js', import.meta.url)): Promise<DocumentResult> {
  const deadline = `the ${what} was not read within ${timeoutMs / 1000} s`;
  // Tests running the TypeScript sources have no compiled worker: the same reader in this thread, with the deadline.
  if (!existsSync(script)) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(deadline)), timeoutMs)));
    try {
      // Loaded only here: pdf.js's legacy build replaces globals (JSON.parse among them, with a slower
      // polyfill) in any process that imports it, and `gleaner serve` imports the crawler to recrawl.
      const { readDocument } = await import('./document-read.js');
      return await Promise.race([readDocument(job).catch((e: unknown) => Promise.reject(new Error(`the ${what} cannot be read: ${e instanceof Error ? e.message : String(e)}`))), late]);
    } finally {
      clearTimeout(timer);
    }
  }
  const worker = new Worker(script, { workerData: job, resourceLimits: WORKER_LIMITS });
  return new Promise<DocumentResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(deadline));
      void worker.terminate();
    }, timeoutMs);
    worker.once('message', (m: { result: DocumentResult } | { error: string }) => {
      clearTimeout(timer);
      if ('result' in m) resolve(m.result);
      else reject(new Error(`the ${what} cannot be read: ${m.error}`));
      void worker.terminate();
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`the ${what} cannot be read: ${e.message}`));
    });
    worker.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the ${what} reader stopped before it answered`));
    });
  });
}
