// A worker thread that reads one PDF's text (crawler/pdf-text.ts) and exits: crawler/pdf.ts ends it
// when the PDF takes longer than its deadline.

import { parentPort, workerData } from 'node:worker_threads';
import { readPdfText } from './pdf-text.js';

const port = parentPort;
if (!port) throw new Error('pdf-worker.js runs as a worker thread only');
const { bytes, maxPages } = workerData as { bytes: Uint8Array; maxPages: number };
readPdfText(bytes, maxPages).then(
  (pdf) => port.postMessage({ pdf }),
  (e: unknown) => port.postMessage({ error: e instanceof Error ? e.message : String(e) }),
);
