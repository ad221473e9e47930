// Every bench answers --help with the comment that opens it and does no work (bench/usage.ts).

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asksHelp, headerComment } from '../bench/usage.js';

const BENCH = join(import.meta.dirname, '..', 'bench');
const BUILT_BENCH = join(import.meta.dirname, '..', 'dist', 'bench');

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

  // `npm test` builds dist/ before it runs the tests.
  it.skipIf(!existsSync(join(BUILT_BENCH, 'replicate-site.js')))('a bench given an argument it does not take says so in one line and exits 2, before any work', () => {
    for (const [bench, args] of [
      ['replicate-site.js', ['/tmp/no-such-crawl']],
      ['query-speed.js', ['--no-such-flag']],
    ] as const) {
      const run = spawnSync(process.execPath, [join(BUILT_BENCH, bench), ...args], { encoding: 'utf8', timeout: 30_000 });
      expect(run.status, bench).toBe(2);
      expect(run.stdout, bench).toBe('');
      // One line, naming the bench and the argument (the words between are Node's parseArgs').
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines, bench).toHaveLength(1);
      expect(lines[0], bench).toMatch(new RegExp(`^${bench.replace('.', '\\.')}: .*${args[0]}.* \\(see --help\\)$`));
    }
  });
});

