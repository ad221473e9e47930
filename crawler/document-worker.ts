// A worker thread that reads one document and exits: a PDF's text (crawler/pdf-text.ts) or a Word
// document as HTML (mammoth). crawler/pdf.ts ends it when the document takes longer than its deadline.

import { parentPort, workerData } from 'node:worker_threads';
import { readDocument, type DocumentJob } from './document-read.js';

const port = parentPort;
if (!port) throw new Error('document-worker.js runs as a worker thread only');
readDocument(workerData as DocumentJob).then(
  (result) => port.postMessage({ result }),
  (e: unknown) => port.postMessage({ error: e instanceof Error ? e.message : String(e) }),
);
