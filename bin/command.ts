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

/** Parses argv for a command; unknown flags and missing values become BAD_ARGUMENT errors. */
export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O): Parsed<O> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    const { help, ...rest } = values as Record<string, unknown>;
    return { values: rest as Parsed<O>['values'], positionals, help: help === true };
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument.*$/, '');
    throw new GleanerError('BAD_ARGUMENT', `${command}: ${message} (see \`gleaner ${command} --help\`)`);
  }
}

/** A number flag: rejects what is not a number in [min, max]. */
export function numberFlag(command: string, flag: string, raw: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new GleanerError('BAD_ARGUMENT', `${command}: --${flag} must be a number from ${min} to ${max}, not "${raw}"`);
  }
  return n;
}

/** An integer flag. */
export function integerFlag(command: string, flag: string, raw: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = numberFlag(command, flag, raw, fallback, min, max);
  if (!Number.isInteger(n)) throw new GleanerError('BAD_ARGUMENT', `${command}: --${flag} must be a whole number, not "${raw}"`);
  return n;
}

/** For commands that take no positional arguments: the first one is a usage error. */
export function rejectPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0) {
    throw new GleanerError('BAD_ARGUMENT', `${command}: unexpected argument "${positionals[0]}" (see \`gleaner ${command} --help\`)`);
  }
}
