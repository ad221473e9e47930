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
  /** The pages handed to the worker, in order: it parses the first while the next waits in its
   * message queue (PAGES_PER_WORKER), so it never idles between pages while the loop's thread is busy. */
  held: Job[];
  /** Replies this worker gave; a worker that dies before its first is taken as one that cannot start. */
  answered: number;
  /** Ends the first held page's analysis when it runs past maxAnalyzeMs. */
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

/**
 * Pages handed to a worker at once. With one, a worker waited for the loop's thread to take each answer
 * and send the next page, and that thread is busy half the time (fetching, storing): the worker idled a
 * quarter of a Rust docs crawl. With two, the next page is in its queue when it answers. A page after
 * the first is copied, not moved, so that if the worker dies on the first, the others go to its
 * replacement whole: a page that kills a worker still takes no other page with it.
 */
const PAGES_PER_WORKER = 2;

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
    for (let depth = 1; depth <= PAGES_PER_WORKER; depth++) {
      for (const slot of slots) {
        if (waiting.length === 0) return;
        if (slot === undefined || slot.held.length >= depth) continue;
        const job = waiting.shift()!;
        slot.held.push(job);
        // The first page's body moves to the worker instead of being copied (the crawl loop does not read
        // it again); a later one's is copied, to be handed on if the worker dies before reaching it.
        const { body } = job.input;
        const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
        slot.worker.postMessage({ id: job.id, input: job.input }, owned && slot.held.length === 1 ? [body.buffer] : []);
        if (slot.held.length === 1) slot.timer = setTimeout(slot.overrun, maxAnalyzeMs);
      }
    }
    if (waiting.length > 0 && slots.every((s) => s === undefined)) {
      for (const job of waiting.splice(0)) job.reject(new Error(`no parse worker could be started: ${lastDeath}`));
    }
  };

  const start = (place: number): Slot => {
    const slot: Slot = { worker: new Worker(script, { resourceLimits: WORKER_LIMITS }), held: [], answered: 0, timer: undefined, overrun: () => {}, overran: false, retired: false };
    slot.worker.on('message', (reply: Reply) => {
      slot.answered++;
      const job = slot.held[0];
      if (job?.id !== reply.id) return;
      clearTimeout(slot.timer);
      slot.held.shift();
      // The worker goes on to the next page it holds now: its time limit starts.
      if (slot.held.length > 0) slot.timer = setTimeout(slot.overrun, maxAnalyzeMs);
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
      // The first page held is the one it died on; the others it never began go first to the workers left.
      const [died, ...unread] = slot.held.splice(0);
      died?.reject(e);
      if (closing) for (const job of unread) job.reject(new Error('the parse pool was closed'));
      else waiting.unshift(...unread);
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
