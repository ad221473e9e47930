// Body analysis off the crawl loop's thread. Parsing HTML is most of a crawl's CPU; with it in worker
// threads, the loop's thread only fetches and stores, and a 2-core machine uses both cores.
// When the compiled worker script is not there (tests running the TypeScript sources), analysis runs
// in this thread: same function, same answers.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { analyzeBody, type BodyAnalysis, type BodyInput } from './analyze.js';
import { unpackAnalysis, type PackedAnalysis } from './analysis-wire.js';

export interface BodyAnalyzer {
  analyze(input: BodyInput): Promise<BodyAnalysis>;
  close(): Promise<void>;
  /** Worker threads in use; 0 means analysis runs in the calling thread. */
  readonly threads: number;
}

type Reply = { id: number; result: PackedAnalysis } | { id: number; error: string };

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (a: BodyAnalysis) => void; reject: (e: Error) => void }>;
  alive: boolean;
}

/** A worker's heap: a young generation smaller than V8's default keeps a crawl's resident memory down
 * (each worker is a whole V8 heap); the old generation leaves room for the largest page the body cap lets in. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 } as const;

const inline: BodyAnalyzer = {
  analyze: async (input) => analyzeBody(input),
  close: async () => {},
  threads: 0,
};

export function createBodyAnalyzer(threads: number): BodyAnalyzer {
  const script = new URL('./analyze-worker.js', import.meta.url);
  if (threads <= 0 || !existsSync(script)) return inline;
  let nextId = 0;
  const slots: Slot[] = [];
  for (let i = 0; i < threads; i++) {
    const slot: Slot = { worker: new Worker(script, { resourceLimits: WORKER_LIMITS }), pending: new Map(), alive: true };
    slot.worker.on('message', (reply: Reply) => {
      const waiter = slot.pending.get(reply.id);
      if (!waiter) return;
      slot.pending.delete(reply.id);
      if ('error' in reply) waiter.reject(new Error(`analysing a page failed: ${reply.error}`));
      else waiter.resolve(unpackAnalysis(reply.result));
    });
    const fail = (e: Error) => {
      slot.alive = false;
      for (const w of slot.pending.values()) w.reject(e);
      slot.pending.clear();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(new Error(`analysis worker exited (${code})`)));
    slots.push(slot);
  }
  return {
    threads,
    analyze(input) {
      // The least busy live worker; none left (they crashed): this thread.
      let best: Slot | undefined;
      for (const s of slots) if (s.alive && (!best || s.pending.size < best.pending.size)) best = s;
      if (!best) return inline.analyze(input);
      const slot = best;
      const id = nextId++;
      return new Promise<BodyAnalysis>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        // A body that owns its whole buffer moves to the worker instead of being copied; the crawl
        // loop does not read it again.
        const { body } = input;
        const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
        slot.worker.postMessage({ id, input }, owned ? [body.buffer as ArrayBuffer] : []);
      });
    },
    async close() {
      for (const s of slots) s.alive = false;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
