// A worker thread that analyses fetched bodies (crawler/analyze.ts) for the crawl loop.

import { parentPort } from 'node:worker_threads';
import { analyzeBody, type BodyInput } from './analyze.js';
import { packAnalysis } from './analysis-wire.js';

const port = parentPort;
if (!port) throw new Error('analyze-worker.js runs as a worker thread only');
port.on('message', (msg: { id: number; input: BodyInput }) => {
  try {
    port.postMessage({ id: msg.id, result: packAnalysis(analyzeBody(msg.input)) });
  } catch (e) {
    port.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
  }
});
