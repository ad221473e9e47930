// Document analysis off the build's thread. Tokenizing and analysing every page is most of an index
// build's CPU (analyze-doc.ts); in worker threads it runs on every core while this thread adds each
// batch's postings in document order. When the compiled worker script is not there (tests running
// the TypeScript sources) or no thread is asked for, analysis runs in this thread: same function,
// same answers.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { StoredDoc } from '../shared/index-format/index.js';
import { analyzeDoc, type AnalyzedDoc } from './analyze-doc.js';
import { TermUnpacker, type PackedBatch, type UnpackedDoc } from './term-wire.js';

/** A document's analysis as the pool gives it: made in this thread, or a worker's with its terms by
 * number (term-wire.ts). */
export type PooledAnalysis = AnalyzedDoc | UnpackedDoc;

export interface DocAnalyzer {
  /** The analyses of `docs`, in their order. Never fails for a worker's sake: a batch whose worker
   * died is analysed in this thread instead, and that worker's place is given up. */
  analyze(docs: readonly StoredDoc[]): Promise<PooledAnalysis[]>;
  close(): Promise<void>;
  /** Worker threads still in use; 0 means analysis runs in the calling thread. */
  readonly threads: number;
}

export interface DocAnalyzerOptions {
  /** The worker script; default the compiled analyze-worker.js beside this module. Tests pass another. */
  workerScript?: URL;
}

/** A worker's answer: its batch's analyses with their terms by number (analyze-worker.ts), or as
 * strings (a worker script of another shape, such as a test's), or why it failed. */
export type AnalyzeReply = { id: number; packed: PackedBatch } | { id: number; analyses: AnalyzedDoc[] } | { id: number; error: string };

interface Job {
  id: number;
  docs: readonly StoredDoc[];
  resolve: (a: PooledAnalysis[]) => void;
  reject: (e: unknown) => void;
}

const analyzeHere = (docs: readonly StoredDoc[]): AnalyzedDoc[] => docs.map(analyzeDoc);

/** Analyses the job's batch in this thread; what analyzeDoc throws here fails the job, not the process. */
function finishHere(job: Job): void {
  try {
    job.resolve(analyzeHere(job.docs));
  } catch (e) {
    job.reject(e);
  }
}

/** Batches a worker holds at once: the one it analyses and the next, queued in its port, so that it
 * starts on that one as soon as it answers, not when this thread, busy adding the postings of a batch
 * before, gets round to its answer and sends another. With one at a time, on SciFact x20 each analysis
 * thread waited a fifth of the build for its next batch (DESIGN.md "Two batches a thread, batches
 * moved, pairs by number"). */
export const BATCHES_PER_WORKER = 2;

/** `threads` worker threads, each given up to BATCHES_PER_WORKER batches at a time, answered in the
 * order given; batches wait here for room. */
export function createDocAnalyzer(threads: number, options: DocAnalyzerOptions = {}): DocAnalyzer {
  const script = options.workerScript ?? new URL('./analyze-worker.js', import.meta.url);
  if (threads <= 0 || !existsSync(script)) {
    // A promise executor turns a throw into a rejection, as a worker's failure would be.
    return { threads: 0, analyze: (docs) => new Promise((resolve) => resolve(analyzeHere(docs))), close: async () => {} };
  }
  let nextId = 0;
  const waiting: Job[] = [];
  /** Each live worker's batches, oldest first: the one it analyses, then the ones queued for it. */
  const held = new Map<Worker, Job[]>();
  const alive = new Set<Worker>();

  const dispatch = (): void => {
    while (waiting.length > 0) {
      // The live worker holding the fewest batches, if it has room.
      let worker: Worker | undefined;
      for (const [w, jobs] of held) if (jobs.length < BATCHES_PER_WORKER && (worker === undefined || jobs.length < held.get(worker)!.length)) worker = w;
      if (worker === undefined) break;
      const job = waiting.shift()!;
      held.get(worker)!.push(job);
      worker.postMessage({ id: job.id, docs: job.docs });
    }
    // With every worker gone, what waits is analysed here.
    if (alive.size === 0) for (const job of waiting.splice(0)) finishHere(job);
  };
  // A worker that fails (an exception, out of memory, exit) is not replaced: the batches it held, and
  // the ones after them, are analysed by the workers left, or here.
  const retire = (worker: Worker): void => {
    if (!alive.delete(worker)) return;
    const jobs = held.get(worker) ?? [];
    held.delete(worker);
    void worker.terminate();
    for (const job of jobs) finishHere(job);
    dispatch();
  };
  for (let i = 0; i < threads; i++) {
    const worker = new Worker(script);
    const terms = new TermUnpacker();
    alive.add(worker);
    held.set(worker, []);
    worker.on('message', (reply: AnalyzeReply) => {
      const jobs = held.get(worker);
      const job = jobs?.[0];
      if (job?.id !== reply.id) return;
      if ('error' in reply) {
        retire(worker);
        return;
      }
      let analyses: PooledAnalysis[];
      try {
        analyses = 'packed' in reply ? terms.unpack(reply.packed) : reply.analyses;
      } catch {
        retire(worker);
        return;
      }
      jobs!.shift();
      job.resolve(analyses);
      dispatch();
    });
    worker.on('error', () => retire(worker));
    worker.on('exit', () => retire(worker));
  }

  return {
    get threads() {
      return alive.size;
    },
    analyze(docs) {
      return new Promise<PooledAnalysis[]>((resolve, reject) => {
        waiting.push({ id: nextId++, docs, resolve, reject });
        dispatch();
      });
    },
    async close() {
      const workers = [...alive];
      alive.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
