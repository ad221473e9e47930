// A worker thread that builds the page typeahead of an index build (typeahead-thread.ts) and answers
// its lines as bytes, handed over without a copy.

import { parentPort, workerData } from 'node:worker_threads';
import { typeaheadBytes, type TypeaheadJob } from './typeahead-thread.js';

const port = parentPort;
if (!port) throw new Error('typeahead-worker.js runs as a worker thread only');
try {
  const lines = typeaheadBytes(workerData as TypeaheadJob);
  port.postMessage(
    lines,
    lines.map((l) => l.buffer as ArrayBuffer),
  );
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
