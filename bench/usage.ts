// Every bench answers --help (or -h) with the comment that opens its file, which says what it measures
// and how to run it, and exits before any work: a bench started by mistake can take minutes, start
// servers and crawl a site.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The `//` comment lines that open `source`, their slashes taken off. Pure. */
export function headerComment(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n').trim();
}

/** Whether the arguments ask for help. Pure. */
export const asksHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/** Prints the opening comment of the module at `moduleUrl` and exits 0 when the arguments ask for help. */
export function exitOnHelp(moduleUrl: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!asksHelp(argv)) return;
  process.stdout.write(`${headerComment(readFileSync(fileURLToPath(moduleUrl), 'utf8'))}\n`);
  process.exit(0);
}

/** node:util parseArgs, or the reason it refuses the arguments (one line: an unknown flag, a missing
 * value, a stray argument). Pure but for reading process.argv when `config.args` is not given. */
export function parsedOrReason<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> | string {
  try {
    return parseArgs(config);
  } catch (e) {
    return (e as Error).message;
  }
}

/** parseArgs over the process's arguments, for a bench: arguments it refuses end the process with one
 * line naming them and exit 2, as the CLI's commands do, not with parseArgs' stack trace. */
export function benchArgs<T extends ParseArgsConfig>(config: T, name = basename(process.argv[1] ?? 'bench')): ReturnType<typeof parseArgs<T>> {
  const parsed = parsedOrReason(config);
  if (typeof parsed === 'string') {
    process.stderr.write(`${name}: ${parsed} (see --help)\n`);
    process.exit(2);
  }
  return parsed;
}
