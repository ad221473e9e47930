// Runs the real `bin/gleaner` (dist/, built by `npm run build`) the way a user does, for end-to-end tests.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'bin', 'gleaner');
/** Whether dist/ is built; end-to-end tests skip with a line when it is not. */
export const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `gleaner ...args` in `cwd` with stdout and stderr piped (so not terminals); `detached` gives it
 * its own process group, as a shell gives a command (so a test can Ctrl-C the group). */
export function startCli(args: readonly string[], cwd: string = ROOT, { detached = false } = {}): ChildProcess & { output: () => CliResult; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let code: number | null = null;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve((code = c))));
  return Object.assign(child, { output: () => ({ code, stdout, stderr }), exited });
}

/** Runs `gleaner ...args` in `cwd` to the end. */
export async function runCli(args: readonly string[], cwd: string = ROOT): Promise<CliResult> {
  const child = startCli(args, cwd);
  await child.exited;
  return child.output();
}
