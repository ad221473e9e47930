// The heap an index build may use. Node caps a process's JavaScript heap at about 4 GiB whatever the
// machine has, and an index build held about 25 KB of heap a page (DESIGN.md "The indexer holds links
// lightly"; now about 5, "The store read twice"): past roughly 150,000 pages `gleaner index` died of V8's out-of-memory abort, a native stack
// trace and no word of what to do, on a machine with memory to spare. So `gleaner index` runs itself
// again with the heap sized to the machine (three quarters of its memory, or of the container's limit),
// and if that still runs out, says so in one line; the index in place is never touched by a build that
// did not finish (indexer/write-index.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { usableMemoryBytes } from '../shared/machine.js';

/** Commands that build an index, and so may need more heap than Node's default. */
export const HEAP_COMMANDS: ReadonlySet<string> = new Set(['index']);

/** The user's say: GLEANER_HEAP_MB, in MiB. */
export const HEAP_ENV = 'GLEANER_HEAP_MB';
/** Set in the process run again, so it does not run itself a third time. */
const CHILD_ENV = 'GLEANER_HEAP_CHILD';

/** Share of the machine's memory the heap may take; the rest is for Node itself, the analysis
 * threads, the typed arrays of the index being written and the other programs. */
export const HEAP_MEMORY_SHARE = 0.75;
/** Below this a heap cannot even load the CLI. */
const MIN_HEAP_MB = 16;

export interface HeapFacts {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  execArgv: readonly string[];
  /** Bytes of memory this process may use: the container's limit, else the machine's. */
  memoryBytes: number;
  /** The heap limit this process has now, in bytes (v8.getHeapStatistics().heap_size_limit). */
  heapLimitBytes: number;
}

/** This process's facts. */
export function heapFacts(argv: readonly string[]): HeapFacts {
  return {
    argv,
    env: process.env,
    execArgv: process.execArgv,
    memoryBytes: usableMemoryBytes(),
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  };
}

/** The heap `index` gets when GLEANER_HEAP_MB does not say, in MiB. */
export function defaultHeapMb(memoryBytes = heapFacts([]).memoryBytes): number {
  return Math.floor((memoryBytes * HEAP_MEMORY_SHARE) / 2 ** 20);
}

/** What to do: run here, run again with a heap of `heapMb`, or refuse a GLEANER_HEAP_MB that is no number. Pure. */
export type HeapPlan = { run: 'here' } | { run: 'again'; heapMb: number } | { run: 'refuse'; message: string };

export function heapPlan(facts: HeapFacts): HeapPlan {
  if (!HEAP_COMMANDS.has(facts.argv[0] ?? '') || facts.env[CHILD_ENV] === '1') return { run: 'here' };
  if (facts.argv.includes('--help') || facts.argv.includes('-h')) return { run: 'here' };
  // A heap the user set on Node's own command line or NODE_OPTIONS is theirs.
  if ([...facts.execArgv, ...(facts.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--max-old-space-size'))) return { run: 'here' };
  const asked = facts.env[HEAP_ENV];
  if (asked !== undefined && asked !== '') {
    const mb = Number(asked);
    if (!Number.isInteger(mb) || mb < MIN_HEAP_MB) return { run: 'refuse', message: `${HEAP_ENV} must be a whole number of MiB, ${MIN_HEAP_MB} or more, not ${JSON.stringify(asked)}` };
    return { run: 'again', heapMb: mb };
  }
  const mb = defaultHeapMb(facts.memoryBytes);
  // Never less than Node gives anyway: running again is only worth it for more.
  return mb > facts.heapLimitBytes / 2 ** 20 ? { run: 'again', heapMb: mb } : { run: 'here' };
}

/** The line for a build that the heap limit (V8's abort) or the kernel (the OOM killer) stopped. */
export function outOfMemoryLine(command: string, heapMb: number): string {
  return (
    `gleaner ${command}: out of memory: the build needed more than its ${heapMb} MiB of heap (or the machine ran out); ` +
    `the index in place is unchanged. Give it more with ${HEAP_ENV}=MiB, or index on a machine with more memory`
  );
}

/** The line for a build that a signal stopped (Ctrl-C, a kill): the parent says it, since the build
 * process ended without a word, and says that nothing was lost. */
export function stoppedLine(command: string, signal: NodeJS.Signals): string {
  return `gleaner ${command}: stopped by ${signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal}; the index in place is unchanged. Run \`gleaner ${command}\` again to build`;
}

/** In the process run again: ends it (as SIGTERM does) when the process that ran it is gone, killed
 * with SIGKILL say, rather than letting it build on unseen, holding the store. */
export function heapChildWatch(): void {
  if (process.env[CHILD_ENV] !== '1' || process.channel === undefined) return;
  // The channel must not keep the build's process alive once its work is done.
  process.channel.unref();
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/** Set in the process run again when this one's stderr is a terminal: its width, since the child's
 * stderr is a pipe through this process (bin/progress.ts draws its line when it is set). */
export const TERMINAL_COLUMNS_ENV = 'GLEANER_TERMINAL_COLUMNS';

/** Where V8's report of a heap that ran out begins (with a line break of its own): the child's stderr
 * is passed on up to it, and the report (GC log and a native stack) replaced by outOfMemoryLine. */
const V8_OOM_REPORT = '\n<--- Last few GCs --->';

/** Passes text on until V8's out-of-memory report begins; holds back only what may be that report's
 * first characters, so a progress line is never kept waiting. Pure but for `write`. */
export function untilOomReport(write: (text: string) => void): { push(text: string): void; end(): void } {
  let held = '';
  let cut = false;
  return {
    push(chunk) {
      if (cut) return;
      const text = held + chunk;
      const at = text.indexOf(V8_OOM_REPORT);
      if (at >= 0) {
        cut = true;
        held = '';
        write(text.slice(0, at));
        return;
      }
      let keep = Math.min(text.length, V8_OOM_REPORT.length - 1);
      while (keep > 0 && !V8_OOM_REPORT.startsWith(text.slice(text.length - keep))) keep--;
      write(text.slice(0, text.length - keep));
      held = text.slice(text.length - keep);
    },
    end() {
      if (!cut && held !== '') write(held);
      held = '';
    },
  };
}

/** Starts this CLI (`script`, bin/gleaner) as a child that runs `argv` as the process run again: with a
 * heap of `heapMb` when given (Node's default otherwise), never running itself a third time, and ending
 * when this process is gone (heapChildWatch). Its stderr is a pipe for the caller to read. */
export function spawnWithHeap(script: string, argv: readonly string[], heapMb: number | undefined, stdout: 'inherit' | 'pipe', env: Record<string, string> = {}): ChildProcess {
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  return spawn(process.execPath, [...process.execArgv, ...heap, script, ...argv], {
    // The IPC channel only tells the child when this process is gone.
    stdio: [stdout === 'inherit' ? 'inherit' : 'ignore', stdout, 'pipe', 'ipc'],
    env: { ...process.env, [CHILD_ENV]: '1', ...env },
  });
}

/** How a child of spawnWithHeap ended: its exit code, and whether the heap limit (V8's abort) or the
 * kernel (the OOM killer) stopped it. Pure. */
export function childEnding(code: number | null, signal: NodeJS.Signals | null): { code: number; outOfMemory: boolean } {
  if (signal === 'SIGABRT' || signal === 'SIGKILL' || code === 128 + constants.signals.SIGABRT) return { code: 1, outOfMemory: true };
  if (signal !== null) return { code: 128 + constants.signals[signal], outOfMemory: false };
  return { code: code ?? 1, outOfMemory: false };
}

/** The data dir `gleaner index ARGS` builds in (--data DIR, or the default `data`). Pure. */
export function dataDirOf(argv: readonly string[]): string {
  const { values } = parseArgs({ args: argv.slice(1), options: { data: { type: 'string' } }, strict: false, allowPositionals: true });
  return typeof values.data === 'string' ? values.data : 'data';
}

/** Removes what an index build in process `pid` left unfinished. Loaded only then: this file is what
 * every command loads first. Never fails: the next build removes it too. */
export async function discardUnfinishedIndex(dataDir: string, pid: number): Promise<void> {
  try {
    const { discardUnfinished } = await import('../indexer/index.js');
    await discardUnfinished(dataDir, pid);
  } catch {
    // Left for the next build.
  }
}

/**
 * Runs this CLI again as a child with `--max-old-space-size=heapMb`, and resolves with the exit code
 * to leave with. Its stdin and stdout are this process's; its stderr comes through this process, which
 * replaces V8's out-of-memory report by one line. SIGINT and SIGTERM sent to this process alone are
 * passed on (a Ctrl-C reaches both already, as one process group).
 */
export function runAgainWithHeap(script: string, argv: readonly string[], heapMb: number): Promise<number> {
  const columns: Record<string, string> = process.stderr.isTTY ? { [TERMINAL_COLUMNS_ENV]: String(process.stderr.columns || 120) } : {};
  const child = spawnWithHeap(script, argv, heapMb, 'inherit', columns);
  const relay = untilOomReport((text) => process.stderr.write(text));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => relay.push(text));
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  // Kept to the end: a Ctrl-C reaches this process too, and its turn may come after the build's end
  // is seen; without a handler then, this process would die of it instead of saying why it stopped.
  for (const [s, h] of handlers) process.on(s, h);
  return new Promise((resolve) => {
    const done = (code: number): void => resolve(code);
    child.on('error', (e) => {
      process.stderr.write(`gleaner: could not start Node again with a larger heap: ${e.message}\n`);
      done(1);
    });
    // 'close': the child has exited and its stderr has all been passed on.
    child.on('close', (code, signal) => {
      relay.end();
      const ending = childEnding(code, signal);
      // On a terminal the child's progress line may still be there: the line replaces it.
      if (ending.outOfMemory) process.stderr.write((process.stderr.isTTY ? '\r\x1b[K' : '') + outOfMemoryLine(argv[0] ?? '', heapMb) + '\n');
      // A build that did not end by itself (a signal, V8's abort) left its unfinished generation.
      const unfinished = ending.code !== 0 && argv[0] === 'index' && child.pid !== undefined;
      void (unfinished ? discardUnfinishedIndex(dataDirOf(argv), child.pid) : Promise.resolve()).then(() => {
        if (signal !== null && !ending.outOfMemory) process.stderr.write((process.stderr.isTTY ? '\r\x1b[K' : '') + stoppedLine(argv[0] ?? '', signal) + '\n');
        done(ending.code);
      });
    });
  });
}
