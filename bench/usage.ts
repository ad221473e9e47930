// Every bench answers --help (or -h) with the comment that opens its file, which says what it measures
// and how to run it, and exits before any work: a bench started by mistake can take minutes, start
// servers and crawl a site.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
