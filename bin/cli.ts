// `gleaner <command>`: finds the command, runs it, and turns every failure into one line and an exit
// code. A stack trace is shown only with GLEANER_DEBUG=1.

import { GLEANER_VERSION } from '../shared/agent.js';
import { dataDirError } from '../shared/data-dir.js';
import { isGleanerError } from '../shared/errors.js';
import type { Command } from './command.js';
import { crawlCommand } from './commands/crawl.js';
import { demoCommand } from './commands/demo.js';
import { exportCommand } from './commands/export.js';
import { extractCommand } from './commands/extract.js';
import { traceCommand } from './commands/trace.js';
import { searchCommand } from './commands/search.js';
import { indexCommand } from './commands/index.js';
import { robotsCommand } from './commands/robots.js';
import { repairCommand } from './commands/repair.js';
import { serveCommand } from './commands/serve.js';
import { terminalSafe } from './terminal-text.js';

export const COMMANDS: readonly Command[] = [demoCommand, crawlCommand, indexCommand, serveCommand, searchCommand, robotsCommand, extractCommand, exportCommand, traceCommand, repairCommand];

/** Exit codes: 0 ok, 1 failed, 2 bad usage, 70 internal error (BSD sysexits' EX_SOFTWARE). `crawl` and
 * `index` also exit 130 after Ctrl-C (stopped; run again to resume or to build). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** No seed host of a crawl could be reached (robots.txt: connection refused, DNS failure, 5xx or no
   * answer until given up), so nothing was crawled: sysexits' EX_UNAVAILABLE. */
  unreachable: 69,
  internal: 70,
} as const;

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Gleaner: a small search engine you run on one machine.',
    '',
    'Usage: gleaner <command> [options]     (gleaner <command> --help for its options; gleaner --version)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Start with `gleaner demo`: it serves a small demo intranet, crawls it, indexes it and serves search.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usage() + '\n');
    return EXIT.usage;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`gleaner ${GLEANER_VERSION}\n`);
    return EXIT.ok;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `gleaner help crawl` is `gleaner crawl --help`, as git and npm have it.
    const topic = rest[0] === undefined ? undefined : COMMANDS.find((c) => c.name === rest[0]);
    if (rest[0] !== undefined && topic === undefined) {
      process.stderr.write(terminalSafe(`gleaner: no command "${rest[0]}" to help with (see \`gleaner --help\`)\n`));
      return EXIT.usage;
    }
    process.stdout.write(topic ? topic.help : usage() + '\n');
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    // An option before any command (`gleaner --data x crawl`) is named as an option, not a command.
    const what = name.startsWith('-') ? `"${name}" before a command: options go after it, as in gleaner COMMAND ${name}` : `unknown command "${name}"`;
    process.stderr.write(terminalSafe(`gleaner: ${what} (see \`gleaner --help\`)\n`));
    return EXIT.usage;
  }
  try {
    return await command.run(rest);
  } catch (caught) {
    // A file-system failure that names its path (a full disk, a read-only mount) is a message, not a bug.
    const path = (caught as NodeJS.ErrnoException | undefined)?.path;
    const e = (typeof path === 'string' ? dataDirError(caught, path) : undefined) ?? caught;
    if (isGleanerError(e)) {
      // Commands may name themselves in their messages already ("crawl: ..."): say it once. A message
      // may quote what a server sent (a zip entry's name in a Word document's error): shown, not obeyed.
      const message = e.message.startsWith(`${name}: `) ? e.message : `${name}: ${e.message}`;
      process.stderr.write(`gleaner ${terminalSafe(message)}\n`);
      return e.code === 'BAD_ARGUMENT' ? EXIT.usage : e.code === 'UNREACHABLE' ? EXIT.unreachable : EXIT.failed;
    }
    // Anything can be thrown (null included): only an Error has a message and a stack.
    const err = e instanceof Error ? e : undefined;
    process.stderr.write(terminalSafe(`gleaner ${name}: unexpected error: ${err?.message ?? String(e)}\n`));
    if (process.env.GLEANER_DEBUG === '1') process.stderr.write(`${err?.stack ?? ''}\n`);
    else process.stderr.write('(set GLEANER_DEBUG=1 to see where it happened)\n');
    return EXIT.internal;
  }
}
