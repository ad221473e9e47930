// A worker thread that analyses batches of documents (analyze-doc.ts) for the index build, and sends
// their terms by number (term-wire.ts).

import { parentPort } from 'node:worker_threads';
import { numberTokens } from '../shared/analysis/index.js';
import type { StoredDoc } from '../shared/index-format/index.js';
import { analyzeDoc } from './analyze-doc.js';
import type { AnalyzeReply } from './analyze-pool.js';
import { batchTransfer, TermPacker } from './term-wire.js';

const port = parentPort;
if (!port) throw new Error('analyze-worker.js runs as a worker thread only');
const packer = new TermPacker();
// The tokenizer numbers its words in the packer's dictionary: a document's terms are counted and sent
// by those numbers (shared/analysis token-numbers.ts).
numberTokens(packer.numbers);
port.on('message', (msg: { id: number; docs: StoredDoc[] }) => {
  let reply: AnalyzeReply;
  try {
    reply = { id: msg.id, packed: packer.pack(msg.docs.map(analyzeDoc)) };
  } catch (e) {
    reply = { id: msg.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply, 'packed' in reply ? batchTransfer(reply.packed) : []);
});
