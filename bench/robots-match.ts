// Matcher speed: checks per second on the RFC 9309 spec corpus (rules chosen per case, then the URL
// matched), and the worst cases: patterns with 20 wildcards against a 2,000-character path. Baselines
// measured in the same run: a position-set simulation of the pattern (O(path x pattern), the classic
// reference algorithm) and a regular-expression translation (what many robots libraries do; it
// backtracks, so it is measured on a few wildcards only: 20 would not finish).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/robots-match.js [corpusDir]
// corpusDir defaults to ../shared/robots (skipped with a message when absent).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPath, checkUrl, pathParamsQuery, selectRules, parseRobots, compilePattern, matchesPath, type MatchWork } from '../shared/robots/index.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const dir = process.argv[2] ?? new URL('../../../shared/robots/', import.meta.url).pathname;

/** Runs `fn` repeatedly for about `ms` milliseconds; returns calls per second. */
function rate(fn: () => void, ms = 1000): number {
  // Warm up for a fifth of the budget so that the optimizing compiler has done its work.
  const warm = process.hrtime.bigint();
  while (process.hrtime.bigint() - warm < BigInt(ms) * 200_000n) fn();
  let calls = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 20; i++) fn();
    calls += 20;
    elapsed = process.hrtime.bigint() - start;
  }
  return (calls * 1e9) / Number(elapsed);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const micros = (perSecond: number) => (1e6 / perSecond).toFixed(2);

/** Baseline 1: the set of path positions each pattern prefix can reach (no backtracking, but O(n x m)). */
function positionSetMatch(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let positions = [0];
  for (const ch of body) {
    if (ch === '*') {
      const from = positions[0]!;
      positions = [];
      for (let p = from; p <= path.length; p++) positions.push(p);
      continue;
    }
    const next: number[] = [];
    for (const p of positions) if (p < path.length && path[p] === ch) next.push(p + 1);
    if (next.length === 0) return false;
    positions = next;
  }
  return anchored ? positions.includes(path.length) : positions.length > 0;
}

/** Baseline 2: the pattern as a regular expression. */
function toRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`, 's');
}

function corpus(): void {
  const file = join(dir, 'spec-cases.jsonl');
  if (!existsSync(file)) {
    console.log(`spec corpus not found at ${file}: corpus figures skipped`);
    return;
  }
  const cases = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { robots: string; robots_base64?: string; agent: string; url: string });
  const bodies = cases.map((c) => (c.robots_base64 !== undefined ? Buffer.from(c.robots_base64, 'base64') : c.robots));
  const parsed = bodies.map((b) => parseRobots(b));
  const ruleSets = cases.map((c, i) => selectRules(parsed[i]!, c.agent, 'rfc9309'));
  const paths = cases.map((c) => pathParamsQuery(c.url));

  console.log(`spec-cases.jsonl: ${cases.length} cases, rfc9309 mode`);
  const perCase = (fn: (i: number) => void) => () => {
    for (let i = 0; i < cases.length; i++) fn(i);
  };
  const matchOnly = rate(perCase((i) => checkPath(ruleSets[i]!, paths[i]!)));
  const checkUrlRate = rate(perCase((i) => checkUrl(parsed[i]!, cases[i]!.agent, cases[i]!.url, 'rfc9309')));
  const parseAndCheck = rate(perCase((i) => checkUrl(parseRobots(bodies[i]!), cases[i]!.agent, cases[i]!.url, 'rfc9309')), 1500);
  // Baseline: the same longest-match decision over the same rules with the position-set matcher.
  const baselineRate = rate(
    perCase((i) => {
      let best = -1;
      for (const r of ruleSets[i]!.rules) if (r.compiled.octets > best && positionSetMatch(r.compiled.normalized, paths[i]!)) best = r.compiled.octets;
    }),
  );
  console.log(`  match only (rules chosen once per robot, as the crawler does): ${fmt(matchOnly * cases.length)} checks/s`);
  console.log(`  baseline, same rules with the position-set matcher:           ${fmt(baselineRate * cases.length)} checks/s`);
  console.log(`  checkUrl (choose the group, then match):                      ${fmt(checkUrlRate * cases.length)} checks/s`);
  console.log(`  parse + checkUrl (a new robots.txt every time):              ${fmt(parseAndCheck * cases.length)} checks/s`);
}

function worstCases(): void {
  // A flat string, as a path sliced from a URL is (a concatenation would be measured on V8's rope).
  const path = Buffer.from('/' + 'a'.repeat(1999)).toString();
  const shapes: [string, string][] = [
    ['20 x "*a", then "b" (scan to the end)', '/' + '*a'.repeat(20) + 'b'],
    ['20 x "*aaaaaaaaab" (near misses everywhere)', '/' + '*aaaaaaaaab'.repeat(20)],
    ['20 x "a*", anchored "aab$"', '/' + 'a*'.repeat(20) + 'aab$'],
    ['20 x "*a" anchored "$" (a match)', '/' + '*a'.repeat(20) + '$'],
  ];
  console.log(`\nworst cases against a ${path.length}-character path (microseconds per check):`);
  console.log('  pattern                                       gleaner  steps   position-set');
  for (const [label, pattern] of shapes) {
    const compiled = compilePattern(pattern);
    const work: MatchWork = { steps: 0 };
    const result = matchesPath(compiled, path, work);
    if (positionSetMatch(pattern, path) !== result) throw new Error(`baseline disagrees on ${label}`);
    const ours = rate(() => matchesPath(compiled, path), 500);
    const baseline = rate(() => positionSetMatch(pattern, path), 500);
    console.log(`  ${label.padEnd(45)} ${micros(ours).padStart(7)}  ${String(work.steps).padStart(5)}  ${micros(baseline).padStart(10)}`);
  }

  console.log('\nregular-expression baseline (backtracking) on "/" + k x "*a" + "b" against the same path:');
  for (const k of [1, 2, 3]) {
    const pattern = '/' + '*a'.repeat(k) + 'b';
    const re = toRegExp(pattern);
    const compiled = compilePattern(pattern);
    const start = process.hrtime.bigint();
    re.test(path);
    const regexUs = Number(process.hrtime.bigint() - start) / 1000;
    console.log(`  k=${k}: regex ${regexUs.toFixed(0).padStart(9)} us   gleaner ${micros(rate(() => matchesPath(compiled, path), 300))} us`);
  }
  console.log('  (the regex cost grows as path^k; at k=20 it would not finish)');
}

corpus();
worstCases();
