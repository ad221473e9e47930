// Work handed to a worker thread for one answer, done in the calling thread instead whenever the worker
// cannot give it: its compiled script is not there (tests running the TypeScript sources), it fails to
// start, throws, exits, or answers something else. The same function runs in either place, so the
// answer is the same; the worker only lends the build another core (typeahead-thread.ts,
// encode-thread.ts).

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** What `workerScript`, started with `workerData`, answers when `accepted(answer)`; else `here()`. */
export function onWorkerOrHere<T>(workerScript: URL, workerData: unknown, accepted: (answer: unknown) => answer is T, here: () => T): Promise<T> {
  if (!existsSync(workerScript)) return new Promise((resolve) => resolve(here()));
  return new Promise((resolve, reject) => {
    let settled = false;
    const instead = (): void => {
      if (settled) return;
      settled = true;
      try {
        resolve(here());
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    const worker = new Worker(workerScript, { workerData });
    worker.once('message', (answer: unknown) => {
      if (accepted(answer)) {
        settled = true;
        resolve(answer);
      } else instead();
      void worker.terminate();
    });
    worker.once('error', instead);
    worker.once('exit', instead);
  });
}
