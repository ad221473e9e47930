// Serving from several processes on one port (node:cluster), so that a machine's cores all answer
// searches: a search is CPU work in one thread. node:cluster runs this same script again in each
// worker, so the caller's code reaches here in every process: the primary forks and supervises, each
// worker starts its own gateway (its own copy of the index) and reports ready.

import cluster, { type Worker } from 'node:cluster';
import { GleanerError } from '../shared/errors.js';
import { doublingMs } from '../shared/timers.js';
import type { RunningServer } from './server.js';

/** What the primary hands back: where the workers listen, and how to stop them all. */
export interface ServedUrl {
  url: string;
  close(): Promise<void>;
}

/** How long a stopping worker may take to finish its requests before it is ended anyway. */
const WORKER_STOP_MS = 3_000;

/** Defaults of RestartBackoff. */
export const DEFAULT_RESTART_BACKOFF: Readonly<RestartBackoff> = { firstMs: 1_000, maxMs: 60_000 };

export interface RestartBackoff {
  /** The wait before starting a worker again after one that failed to start. */
  firstMs: number;
  /** The longest wait, however many starts failed in a row. */
  maxMs: number;
}

/**
 * The wait before a worker is started in place of one that stopped, after `failedStarts` workers in a
 * row that exited before they listened: none after a worker that had served (a crash is replaced at
 * once), then `firstMs`, doubling up to `maxMs`, as systemd and pm2 back off. A worker that cannot
 * start (its index gone or damaged, memory short) was forked again at once, in a loop. Pure.
 */
export function restartDelayMs(failedStarts: number, backoff: RestartBackoff = DEFAULT_RESTART_BACKOFF): number {
  if (failedStarts <= 0) return 0;
  return doublingMs(failedStarts, backoff.firstMs, backoff.maxMs);
}

type WorkerMessage = { type: 'gleaner-ready'; url: string } | { type: 'gleaner-failed'; message: string; usage: boolean };

/** Set in the environment of the workers serveInWorkers forks: a process that some other cluster
 * (a process manager's) started is not one of them. */
const WORKER_ENV = 'GLEANER_SERVE_WORKER';

/** Whether this process is a worker started by serveInWorkers (which then serves, and reports nothing). */
export const isServeWorker = (): boolean => cluster.isWorker && process.env[WORKER_ENV] === '1';

/**
 * With `workers` <= 1: `start()` in this process. With more, in the primary: forks the workers,
 * resolves when all listen (or rejects with the first one's failure), replaces a worker that dies
 * later (after restartDelayMs, when workers failed to start). In a worker it forked (whatever
 * `workers` says there): `start()`, then reports to the primary and serves until the primary goes away.
 */
export async function serveInWorkers(workers: number, start: () => Promise<RunningServer>, log: (m: string) => void = () => {}, backoff: RestartBackoff = DEFAULT_RESTART_BACKOFF): Promise<ServedUrl> {
  if (isServeWorker()) return runWorker(start);
  if (workers <= 1) return start();

  let stopping = false;
  const live = new Set<Worker>();
  // Workers in a row that exited before they listened, and the replacements waiting their turn.
  let failedStarts = 0;
  const waiting = new Set<NodeJS.Timeout>();
  const fork = (): Promise<string> => {
    const worker = cluster.fork({ [WORKER_ENV]: '1' });
    live.add(worker);
    let listened = false;
    return new Promise<string>((resolve, reject) => {
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'gleaner-ready') {
          listened = true;
          failedStarts = 0;
          resolve(m.url);
        }
        if (m.type === 'gleaner-failed') reject(new GleanerError(m.usage ? 'BAD_ARGUMENT' : 'NOT_FOUND', m.message));
      });
      worker.once('exit', (code) => {
        live.delete(worker);
        reject(new Error(`a serve worker exited (code ${code}) before it listened`));
        if (!listened) failedStarts++;
        // Exit code 0 is a worker asked to stop (Ctrl-C reaches the whole process group, and a worker
        // may hear it before the primary does): only a crash is replaced.
        if (!stopping && code !== 0) {
          const delayMs = restartDelayMs(failedStarts, backoff);
          log(`a serve worker stopped (code ${code}); starting another${delayMs > 0 ? ` in ${delayMs / 1000} s (${failedStarts} failed to start in a row)` : ''}`);
          const timer = setTimeout(() => {
            waiting.delete(timer);
            if (!stopping) fork().catch((e: unknown) => log(`could not replace the worker: ${(e as Error).message}`));
          }, delayMs);
          waiting.add(timer);
        }
      });
    });
  };
  const stopAll = async () => {
    stopping = true;
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
    await Promise.all([...live].map((w) => new Promise<void>((resolve) => {
      if (w.isDead()) { resolve(); return; }
      // A worker that does not go in time (a request that never ends) is killed: stopping must stop.
      const force = setTimeout(() => w.process.kill('SIGKILL'), WORKER_STOP_MS * 2);
      w.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      w.kill();
    })));
  };
  try {
    const urls = await Promise.all(Array.from({ length: workers }, fork));
    return { url: urls[0]!, close: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function runWorker(start: () => Promise<RunningServer>): Promise<ServedUrl> {
  let running: RunningServer;
  try {
    running = await start();
  } catch (e) {
    const usage = e instanceof GleanerError && e.code === 'BAD_ARGUMENT';
    process.send?.({ type: 'gleaner-failed', message: (e as Error).message, usage } satisfies WorkerMessage);
    process.exit(1);
  }
  process.send?.({ type: 'gleaner-ready', url: running.url } satisfies WorkerMessage);
  // Each worker runs the command too, so its own SIGINT/SIGTERM handler (untilInterrupted) catches the
  // primary's kill, and server.close() waits for open connections and for a channel that may be gone:
  // workers outlived the primary's SIGTERM. So a stopping worker (the primary went away, or a signal
  // reached it) finishes what it can in WORKER_STOP_MS and exits, whatever close() does.
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(0), WORKER_STOP_MS).unref();
    void running.close().finally(() => process.exit(0));
  };
  process.once('disconnect', exit);
  // In a worker, close() ends the process: nothing after it is meant to run.
  return { url: running.url, close: () => new Promise<void>(() => exit()) };
}
