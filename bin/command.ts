// The shape every `gleaner <command>` has, and the argument parsing they share (node:util parseArgs,
// with its errors turned into one-line messages).

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { GleanerError } from '../shared/errors.js';

export interface Command {
  name: string;
  /** One line for `gleaner --help`. */
  summary: string;
  /** The full `--help` text. */
  help: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string };
  positionals: string[];
  help: boolean;
}

/** A value that starts with "-" but is a number (`--max-pages -5`): a value, not a flag. */
const NEGATIVE_NUMBER = /^-[\d.]/;

/**
 * Joins `--flag -5` into `--flag=-5`, so that a negative number reaches the flag's own range check (one
 * line) instead of parseArgs' three-line "ambiguous" text; a value flag with no value is a one-line error.
 */
export function joinFlagValues(command: string, argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name === undefined || options[name]?.type !== 'string') {
      out.push(arg);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('-') && !NEGATIVE_NUMBER.test(value))) {
      throw new GleanerError('BAD_ARGUMENT', `${command}: --${name} needs a value (see \`gleaner ${command} --help\`)`);
    }
    out.push(`${arg}=${value}`);
    i++;
  }
  return out;
}

/** Parses argv for a command; unknown flags and missing values become BAD_ARGUMENT errors. */
export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O): Parsed<O> {
  const args = joinFlagValues(command, argv, options);
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    const { help, ...rest } = values as Record<string, unknown>;
    return { values: rest as Parsed<O>['values'], positionals, help: help === true };
  } catch (e) {
    // `gleaner search rebase -interactive`: the query language's `-word` met as an unknown option.
    const word = (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && command === 'search' ? argv.find((a) => /^-[^-]/.test(a) && a !== '-h') : undefined;
    if (word !== undefined) {
      const typed = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && takesValue(argv[i - 1]!, options)));
      throw new GleanerError('BAD_ARGUMENT', `search: ${word} reads as an option; to leave a word out, quote the query (gleaner search '${typed.join(' ')}') or put -- before its words`);
    }
    // parseArgs' messages run to several lines: the first says what is wrong.
    const message = (e as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new GleanerError('BAD_ARGUMENT', `${command}: ${message} (see \`gleaner ${command} --help\`)`);
  }
}

/** Whether `arg` is a long flag of `options` whose value is the next argument (`--page 2`, not `--page=2`). */
function takesValue(arg: string, options: Options): boolean {
  return arg.startsWith('--') && !arg.includes('=') && options[arg.slice(2)]?.type === 'string';
}

/** How an error names the value: `--max-pages`, or as given when it came from a config file (`"crawl.maxPages" in FILE`). */
export function shownFlag(flag: string): string {
  return flag.startsWith('"') ? flag : `--${flag}`;
}

/** A decimal number as people write one (`2`, `0.5`, `1e3`): Number() also reads `0x10` as 16 and
 * `0b11` as 3, and `--delay 0x10` waited 16 seconds. */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/** A number flag: rejects what is not a decimal number in [min, max]. */
export function numberFlag(command: string, flag: string, raw: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isFinite(n) || n < min || n > max) {
    throw new GleanerError('BAD_ARGUMENT', `${command}: ${shownFlag(flag)} must be a number from ${min} to ${max}, not "${raw}"`);
  }
  return n;
}

/** An integer flag: rejects what is not a whole number in [min, max], saying the range. */
export function integerFlag(command: string, flag: string, raw: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new GleanerError('BAD_ARGUMENT', `${command}: ${shownFlag(flag)} must be a whole number ${range}, not "${raw}"`);
  }
  return n;
}

/** For commands that take no positional arguments: the first one is a usage error. */
export function rejectPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0) {
    throw new GleanerError('BAD_ARGUMENT', `${command}: unexpected argument "${positionals[0]}" (see \`gleaner ${command} --help\`)`);
  }
}
