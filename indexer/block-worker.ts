// A worker thread that makes the block summaries of a batch of pages for template detection
// (block-thread.ts), batch after batch, and answers them packed, handed over without a copy.

import { parentPort } from 'node:worker_threads';
import type { ShapedPage } from './templates.js';
import { packedShapesOf } from './block-thread.js';

const port = parentPort;
if (!port) throw new Error('block-worker.js runs as a worker thread only');
port.on('message', (pages: ShapedPage[]) => {
  try {
    const packed = packedShapesOf(pages);
    port.postMessage(packed, [packed.prints.buffer as ArrayBuffer, packed.shapes.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer, packed.blocked.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
