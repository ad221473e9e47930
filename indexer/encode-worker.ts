// A worker thread that encodes positions.bin of an index build (encode-thread.ts) and answers it,
// handed over without a copy.

import { parentPort, workerData } from 'node:worker_threads';
import { encodePositionRuns } from '../shared/index-format/index.js';
import type { EncodeJob } from './encode-thread.js';

const port = parentPort;
if (!port) throw new Error('encode-worker.js runs as a worker thread only');
try {
  const { records, rank, terms } = workerData as EncodeJob;
  const file = encodePositionRuns(records, rank, terms);
  port.postMessage(file, [file.bytes.buffer as ArrayBuffer, file.ends.buffer as ArrayBuffer]);
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
