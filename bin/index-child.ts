// An index build in a process of its own, as `gleaner index` runs it: with the heap sized to the
// machine (bin/heap.ts) and its own event loop. `gleaner serve --recrawl-every` builds each round's
// index this way. In serve's own process the build met Node's default heap, so a site past about
// 150,000 pages ended serve itself with V8's abort, and its long synchronous stretches (counting
// links, laying out postings) held up every search meanwhile (DESIGN.md, "Recrawling while serving").

import { fileURLToPath } from 'node:url';
import { GleanerError } from '../shared/errors.js';
import type { IndexBuildSummary } from '../indexer/index.js';
import { childEnding, discardUnfinishedIndex, heapFacts, heapPlan, outOfMemoryLine, spawnWithHeap, untilOomReport } from './heap.js';

/** The CLI's entry, which runs `index` as the process run again would. */
const GLEANER_SCRIPT = fileURLToPath(new URL('../../bin/gleaner', import.meta.url));

/** Lines of the child's stderr kept for the message of a build that failed. */
const STDERR_LINES_KEPT = 20;

/**
 * Runs `gleaner index --data DIR --json` and resolves with its summary. A build that fails rejects
 * with the one line `gleaner index` said (out of memory included); `signal` ends the build (SIGTERM:
 * the index in place is never touched by a build that did not finish) and rejects with an AbortError.
 */
export function indexInChild(dataDir: string, { signal }: { signal?: AbortSignal } = {}): Promise<IndexBuildSummary> {
  const facts = heapFacts(['index']);
  const plan = heapPlan(facts);
  if (plan.run === 'refuse') return Promise.reject(new GleanerError('BAD_ARGUMENT', plan.message));
  const heapMb = plan.run === 'again' ? plan.heapMb : undefined;
  const child = spawnWithHeap(GLEANER_SCRIPT, ['index', '--data', dataDir, '--json'], heapMb, 'pipe');
  let stdout = '';
  let stderr = '';
  const keep = untilOomReport((text) => (stderr = (stderr + text).split('\n').slice(-STDERR_LINES_KEPT).join('\n')));
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => keep.push(text));
  const abort = (): void => void child.kill('SIGTERM');
  signal?.addEventListener('abort', abort, { once: true });
  return new Promise((resolve, reject) => {
    child.on('error', (e) => reject(new GleanerError('BUILD_FAILED', `could not start an index build: ${e.message}`)));
    // 'close': the child has exited and its output has all been read.
    child.on('close', (code, exitSignal) => {
      signal?.removeEventListener('abort', abort);
      keep.end();
      const ending = childEnding(code, exitSignal);
      const said = stderr.split('\n').filter((l) => l.trim() !== '').pop();
      // A build stopped or out of memory left its unfinished generation (one that failed removed its own).
      const cleared = ending.code !== 0 && child.pid !== undefined ? discardUnfinishedIndex(dataDir, child.pid) : Promise.resolve();
      void cleared.then(() => {
        if (signal?.aborted) reject(new DOMException('the index build was stopped', 'AbortError'));
        else if (ending.outOfMemory) reject(new GleanerError('BUILD_FAILED', outOfMemoryLine('index', heapMb ?? Math.round(facts.heapLimitBytes / 2 ** 20))));
        else if (ending.code !== 0) reject(new GleanerError('BUILD_FAILED', said ?? `gleaner index: the build exited with code ${ending.code}`));
        else summaryOf(stdout, resolve, reject);
      });
    });
  });
}

function summaryOf(stdout: string, resolve: (s: IndexBuildSummary) => void, reject: (e: Error) => void): void {
  try {
    resolve(JSON.parse(stdout) as IndexBuildSummary);
  } catch {
    reject(new GleanerError('BUILD_FAILED', `gleaner index: printed no summary (${JSON.stringify(stdout.slice(0, 200))})`));
  }
}
