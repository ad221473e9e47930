// Runs the real `bin/gleaner` (dist/, built by `npm run build`) the way a user does, for end-to-end tests.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'bin', 'gleaner');
/** Whether dist/ is built; end-to-end tests skip with a line when it is not. */
export const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));

export interface CliResult {
  code: number | null;
  /** The signal that ended the process when it did not exit by itself (code null). */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `gleaner ...args` in `cwd` with stdout and stderr piped (so not terminals); `detached` gives it
 * its own process group, as a shell gives a command (so a test can Ctrl-C the group). */
export function startCli(args: readonly string[], cwd: string = ROOT, { detached = false, env = {} }: { detached?: boolean; env?: Record<string, string> } = {}): ChildProcess & { output: () => CliResult; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, detached, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  let code: number | null = null;
  let signal: NodeJS.Signals | null = null;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (c, s) => {
      signal = s;
      resolve((code = c));
    }),
  );
  return Object.assign(child, { output: () => ({ code, signal, stdout, stderr }), exited });
}

/** Runs `gleaner ...args` in `cwd` to the end; `env` is added to this process's environment. */
export async function runCli(args: readonly string[], cwd: string = ROOT, env: Record<string, string> = {}): Promise<CliResult> {
  const child = startCli(args, cwd, { env });
  await child.exited;
  return child.output();
}

/** Pids of the direct children of `pid` (a `serve --workers` primary's workers, the process
 * `gleaner index` runs again with its heap). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
