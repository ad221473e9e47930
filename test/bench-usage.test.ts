// Every bench answers --help with the comment that opens it and does no work (bench/usage.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asksHelp, headerComment, parsedOrReason } from '../bench/usage.js';

const BENCH = join(import.meta.dirname, '..', 'bench');

describe('bench --help', () => {
  it('the help is the comment that opens the file, without its slashes, up to the first line of code', () => {
    const source = ['#!/usr/bin/env node', '// Bench: what it measures.', '//', '//   node dist/bench/x.js --flag', 'import x from "y";', '// not this'].join('\n');
    expect(headerComment(source)).toBe('Bench: what it measures.\n\n  node dist/bench/x.js --flag');
    expect(headerComment('const a = 1;\n// later')).toBe('');
  });

  it('--help and -h ask for it; other arguments do not', () => {
    expect(asksHelp(['--data', 'd', '--help'])).toBe(true);
    expect(asksHelp(['-h'])).toBe(true);
    expect(asksHelp(['--data', '--helpful'])).toBe(false);
  });

  it('every bench that runs on its own answers --help before any work, with a header that says how to run it', () => {
    const runnable = readdirSync(BENCH)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ f, source: readFileSync(join(BENCH, f), 'utf8') }))
      // A library of the benches (metrics, collections) has no top-level statement that does work.
      .filter(({ source }) => /^(await |for |if |corpus\(\)|const \w+ = process\.argv)/m.test(source));
    expect(runnable.length).toBeGreaterThanOrEqual(14);
    for (const { f, source } of runnable) {
      expect(source, f).toContain('exitOnHelp(import.meta.url);');
      // Called before the first statement that does anything: right after the imports.
      const before = source.slice(0, source.indexOf('exitOnHelp(import.meta.url);'));
      expect(before.split('\n').filter((l) => l.trim() !== '' && !/^(import |\/\/|  |\} from|\*)/.test(l)), f).toEqual([]);
      expect(headerComment(source).split('\n').length, f).toBeGreaterThanOrEqual(3);
    }
  });

  it('arguments a bench does not take are refused with one line naming them, and every bench parses its flags so', () => {
    const options = { from: { type: 'string', multiple: true }, copies: { type: 'string', default: '5' } } as const;
    const stray = parsedOrReason({ args: ['/tmp/no-such-crawl'], options });
    const unknown = parsedOrReason({ args: ['--no-such-flag'], options });
    const missing = parsedOrReason({ args: ['--from'], options });
    for (const [reason, names] of [[stray, '/tmp/no-such-crawl'], [unknown, '--no-such-flag'], [missing, '--from']] as const) {
      expect(typeof reason).toBe('string');
      expect(reason).toContain(names);
      expect(reason).not.toContain('\n');
    }
    expect(parsedOrReason({ args: ['--from', 'a', '--from', 'b'], options })).toEqual({ values: { from: ['a', 'b'], copies: '5' }, positionals: [] });
    // benchArgs prints that line and exits 2; no bench calls parseArgs itself, which throws a stack trace.
    const direct = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && f !== 'usage.ts' && /\bparseArgs\(/.test(readFileSync(join(BENCH, f), 'utf8')));
    expect(direct).toEqual([]);
    expect(readdirSync(BENCH).filter((f) => f.endsWith('.ts') && readFileSync(join(BENCH, f), 'utf8').includes('benchArgs({')).length).toBeGreaterThanOrEqual(3);
  });
});
