// Body analysis off the crawl loop's thread. Parsing HTML is most of a crawl's CPU; with it in worker
// threads, the loop's thread only fetches and stores, and a 2-core machine uses both cores.
// When the compiled worker script is not there (tests running the TypeScript sources), analysis runs
// in this thread: same function, same answers. A pool that has started never falls back to it.

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

interface Job {
  id: number;
  input: BodyInput;
  resolve: (a: BodyAnalysis) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The page the worker is parsing; a worker has one at a time, so its death fails that page alone. */
  busy: Job | undefined;
  /** Replies this worker gave; a worker that dies before its first is taken as one that cannot start. */
  answered: number;
  /** Ends the busy page's analysis when it runs past maxAnalyzeMs. */
  timer: NodeJS.Timeout | undefined;
  /** Stops the worker because its page ran past maxAnalyzeMs. */
  overrun: () => void;
  /** Whether the worker was stopped for that: not a worker that cannot start. */
  overran: boolean;
  /** Whether the worker's death was handled: the 'exit' after an 'error' says less and changes nothing. */
  retired: boolean;
}

/** A worker's heap: a young generation smaller than V8's default keeps a crawl's resident memory down
 * (each worker is a whole V8 heap); the old generation leaves room for the largest page the body cap lets in. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 } as const;

/** Workers in a row that may die before answering anything before a place in the pool is given up:
 * a worker that cannot even start (a broken build) would otherwise be replaced forever. */
const MAX_FAILED_STARTS = 3;

const inline: BodyAnalyzer = {
  // A promise executor turns a throw into a rejection, as a worker's failure would be.
  analyze: (input) => new Promise((resolve) => resolve(analyzeBody(input))),
  close: async () => {},
  threads: 0,
};

export interface BodyAnalyzerOptions {
  /** The worker script; default the compiled analyze-worker.js beside this module. Tests pass another. */
  workerScript?: URL;
  /** A page whose analysis takes longer fails, and its worker is replaced. Default DEFAULT_MAX_ANALYZE_MS. */
  maxAnalyzeMs?: number;
}

/** 30 s: the streaming extractor reads the largest page the body cap lets in (800,000 nested elements,
 * 300,000 links) in about 2 s on this 2-core VM; a page with per-site rules goes through cheerio, which
 * took 19 s on 40,000 nested elements and never ended on 800,000, holding the crawl (there is one worker
 * per core) and coming back on every resume. */
export const DEFAULT_MAX_ANALYZE_MS = 30_000;

/**
 * `threads` worker threads, each replaced when it dies (out of memory on a monstrous page, a crash):
 * the page it was parsing fails with an error to its caller, and the pages waiting go to the workers
 * left and the replacement. Each worker holds one page at a time (the others wait here, their bodies
 * not yet handed over), so one page that kills a worker takes no other page with it; a page still
 * being analysed after maxAnalyzeMs fails the same way, its worker stopped and replaced. Pages are never
 * parsed on the calling thread once the pool has started, even when workers die.
 */
export function createBodyAnalyzer(threads: number, options: BodyAnalyzerOptions = {}): BodyAnalyzer {
  const script = options.workerScript ?? new URL('./analyze-worker.js', import.meta.url);
  const maxAnalyzeMs = options.maxAnalyzeMs ?? DEFAULT_MAX_ANALYZE_MS;
  if (threads <= 0 || !existsSync(script)) return inline;
  let nextId = 0;
  let closing = false;
  /** One place per thread; undefined once given up (MAX_FAILED_STARTS). */
  const slots: (Slot | undefined)[] = [];
  const failedStarts: number[] = [];
  /** Pages not yet handed to a worker, oldest first. */
  const waiting: Job[] = [];
  let lastDeath = '';

  const dispatch = (): void => {
    for (const slot of slots) {
      if (waiting.length === 0) return;
      if (slot === undefined || slot.busy !== undefined) continue;
      const job = waiting.shift()!;
      slot.busy = job;
      // A body that owns its whole buffer moves to the worker instead of being copied; the crawl
      // loop does not read it again.
      const { body } = job.input;
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
      slot.worker.postMessage({ id: job.id, input: job.input }, owned ? [body.buffer] : []);
      slot.timer = setTimeout(slot.overrun, maxAnalyzeMs);
    }
    if (waiting.length > 0 && slots.every((s) => s === undefined)) {
      for (const job of waiting.splice(0)) job.reject(new Error(`no parse worker could be started: ${lastDeath}`));
    }
  };

  const start = (place: number): Slot => {
    const slot: Slot = { worker: new Worker(script, { resourceLimits: WORKER_LIMITS }), busy: undefined, answered: 0, timer: undefined, overrun: () => {}, overran: false, retired: false };
    slot.worker.on('message', (reply: Reply) => {
      slot.answered++;
      const job = slot.busy;
      if (job?.id !== reply.id) return;
      clearTimeout(slot.timer);
      slot.busy = undefined;
      if ('error' in reply) job.reject(new Error(`analysing a page failed: ${reply.error}`));
      else job.resolve(unpackAnalysis(reply.result));
      dispatch();
    });
    // Called on 'error' (an uncaught exception, out of memory: it says more) and on the 'exit' that
    // always follows: the first call replaces the worker, so no new page is sent to a dying one.
    const retire = (e: Error) => {
      if (slot.retired) return;
      slot.retired = true;
      clearTimeout(slot.timer);
      lastDeath = e.message;
      slot.busy?.reject(e);
      slot.busy = undefined;
      if (closing || slots[place] !== slot) return;
      failedStarts[place] = slot.answered === 0 && !slot.overran ? (failedStarts[place] ?? 0) + 1 : 0;
      slots[place] = (failedStarts[place] ?? 0) < MAX_FAILED_STARTS ? start(place) : undefined;
      dispatch();
    };
    slot.overrun = () => {
      slot.overran = true;
      retire(new Error(`analysing the page took longer than ${maxAnalyzeMs / 1000} s`));
      void slot.worker.terminate();
    };
    slot.worker.on('error', (e) => retire(new Error(`the parse worker died: ${e.message}`)));
    slot.worker.on('exit', (code) => retire(new Error(`the parse worker exited (code ${code})`)));
    return slot;
  };
  for (let i = 0; i < threads; i++) slots.push(start(i));

  return {
    threads,
    analyze(input) {
      if (slots.every((s) => s === undefined)) return Promise.reject(new Error(`no parse worker could be started: ${lastDeath}`));
      return new Promise<BodyAnalysis>((resolve, reject) => {
        waiting.push({ id: nextId++, input, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      for (const job of waiting.splice(0)) job.reject(new Error('the parse pool was closed'));
      await Promise.all(slots.filter((s) => s !== undefined).map((s) => s.worker.terminate()));
    },
  };
}
