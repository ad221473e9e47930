// Crawl bench: Gleaner beside `wget -r` and `httrack`, one run each, on the real documentation sites that
// ../shared/sites/serve-docs.sh serves with nginx on 127.0.0.1 (Rust docs on 8082, Python docs on 8081).
// Politeness delay off for every tool. `gleaner` and `wget` keep one connection (wget has only one);
// `gleaner-c2` is politeness off altogether, as the issue's bench asks: two requests to the host at once
// (--host-connections 2, the best of 1-4 on the 2-core bench machine). httrack is told -c1.
// Sitemaps are not read (neither wget nor httrack reads them).
//
// Prints, per site and tool: HTML pages fetched (status 200, from nginx's access log), seconds, pages/s,
// peak RSS (from /usr/bin/time -v), URLs requested that robots.txt disallows (must be 0), and how many
// robots-allowed HTML pages wget found that the tool did not.
//
// Run from the project folder (needs root for apt-get the first time: nginx, the docs, wget, httrack):
//   npx tsc -p tsconfig.json && node dist/bench/crawl.js [--sites rust,python] [--tools gleaner,gleaner-c2,wget,httrack] [--rounds N]
//   GLEANER_BASE=<another built checkout> ... --tools gleaner,gleaner-base,wget: two versions in the same run
// --rounds N runs the tools N times in turn, every other round in reverse order (A B C, C B A, ...), so a
// machine that speeds up or slows down during the bench favours no tool; it adds, per tool, the median of
// each round's pages/s against wget's in that round: a ratio measured side by side is steadier than any
// one run.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkUrl, parseRobots } from '../shared/robots/index.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const ROOT = fileURLToPath(new URL('../..', import.meta.url)); // dist/bench -> project
const SHARED = join(ROOT, '..', 'shared');
const SERVE = join(SHARED, 'sites', 'serve-docs.sh');
const SITES_DIR = '/tmp/gleaner-sites';

interface Site {
  name: string;
  port: number;
}
const SITES: Site[] = [
  { name: 'rust', port: 8082 },
  { name: 'python', port: 8081 },
];
/** `gleaner-base`: the Gleaner checkout at $GLEANER_BASE (built), to compare two versions in one run. */
const TOOLS = ['gleaner', 'gleaner-c2', 'gleaner-base', 'wget', 'httrack'] as const;
type Tool = (typeof TOOLS)[number];
const USER_AGENTS: Record<Tool, string> = { gleaner: 'Gleaner', 'gleaner-c2': 'Gleaner', 'gleaner-base': 'Gleaner', wget: 'BenchWget', httrack: 'BenchHTTrack' };

interface Row {
  site: string;
  round: number;
  tool: Tool;
  pages: number;
  seconds: number;
  rssMb: number;
  disallowed: number;
  missedVsWget: number | null;
  htmlPaths: Set<string>;
  /** Stopped at its time limit rather than finished. */
  stopped: boolean;
}

/** Seconds each tool may run before it is stopped (httrack, as Debian ships it, asks about once a second here). */
const TIME_LIMIT_S: Record<Tool, number> = { gleaner: 900, 'gleaner-c2': 900, 'gleaner-base': 900, wget: 900, httrack: 60 };

function run(cmd: string, args: string[], cwd: string, limitS = 3600): Promise<{ code: number; stderr: string; stdout: string; seconds: number; stopped: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      try {
        process.kill(-child.pid!, 'SIGKILL'); // the whole process group: /usr/bin/time and the tool
      } catch {
        /* already gone */
      }
    }, limitS * 1000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, seconds: (performance.now() - started) / 1000, stopped });
    });
  });
}

function commandFor(tool: Tool, origin: string, out: string): string[] {
  switch (tool) {
    case 'gleaner':
    case 'gleaner-c2':
    case 'gleaner-base': {
      const root = tool === 'gleaner-base' ? baseCheckout() : ROOT;
      const gleaner = [process.execPath, join(root, 'bin', 'gleaner'), 'crawl', `${origin}/`, '--data', out, '--delay', '0', '--max-pages', '1000000', '--max-depth', '1000', '--no-sitemaps', '--log-level', 'warn'];
      return tool === 'gleaner-c2' ? [...gleaner, '--host-connections', '2'] : gleaner;
    }
    case 'wget':
      return ['wget', '-r', '-l', 'inf', '-nv', '-e', 'robots=on', '-U', USER_AGENTS.wget, '-P', out, `${origin}/`];
    case 'httrack':
      return ['httrack', `${origin}/`, '-O', out, '-s2', '-c1', '-%c999', '-A999999999', '--disable-security-limits', '-r999', '-q', '-%v0', '-F', USER_AGENTS.httrack];
  }
}

function baseCheckout(): string {
  const dir = process.env.GLEANER_BASE;
  if (dir === undefined || !existsSync(join(dir, 'dist', 'bin', 'cli.js'))) throw new Error('gleaner-base needs GLEANER_BASE=<a built Gleaner checkout>');
  return dir;
}

async function logSize(site: Site): Promise<number> {
  const file = join(SITES_DIR, 'logs', `access-${site.name}.log`);
  return existsSync(file) ? (await stat(file)).size : 0;
}

/** Request paths and statuses from the access log written since `offset`, for one user agent. */
async function requestsSince(site: Site, offset: number, agent: string): Promise<{ path: string; status: number }[]> {
  await new Promise((r) => setTimeout(r, 1500)); // nginx flushes its log buffer every second
  const text = (await readFile(join(SITES_DIR, 'logs', `access-${site.name}.log`))).subarray(offset).toString('utf8');
  const out: { path: string; status: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /"GET (\S+) HTTP\/[\d.]+" (\d{3}) \d+ "([^"]*)"/.exec(line);
    if (m && m[3]!.includes(agent)) out.push({ path: m[1]!, status: Number(m[2]) });
  }
  return out;
}

const isHtmlPath = (p: string) => /(\.html?|\/)(\?.*)?$/.test(p);

async function benchOne(site: Site, tool: Tool, robotsText: string): Promise<Row> {
  const origin = `http://127.0.0.1:${site.port}`;
  const out = await mkdtemp(join(tmpdir(), `bench-crawl-${tool}-`));
  const offset = await logSize(site);
  const [cmd, ...args] = commandFor(tool, origin, out);
  const r = await run('/usr/bin/time', ['-v', cmd!, ...args], out, TIME_LIMIT_S[tool]);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0) / 1024;
  const requests = await requestsSince(site, offset, USER_AGENTS[tool]);
  const robots = parseRobots(robotsText);
  const disallowed = requests.filter((q) => q.path !== '/robots.txt' && !checkUrl(robots, USER_AGENTS[tool], origin + q.path, 'rfc9309').allowed);
  const html = new Set(requests.filter((q) => q.status === 200 && isHtmlPath(q.path)).map((q) => q.path.split('?')[0]!));
  await rm(out, { recursive: true, force: true });
  if (r.code !== 0 && tool !== 'wget' && !r.stopped) process.stderr.write(`${tool} exited ${r.code}: ${r.stderr.slice(-500)}\n`);
  return { site: site.name, round: 0, tool, pages: html.size, seconds: r.seconds, rssMb: rss, disallowed: disallowed.length, missedVsWget: null, htmlPaths: html, stopped: r.stopped };
}

async function main(): Promise<void> {
  if (!existsSync(SERVE)) {
    console.log(`crawl bench skipped: ${SERVE} not found (../shared is not next to the project)`);
    return;
  }
  const args = process.argv.slice(2);
  const pick = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1]!.split(',') : undefined;
  };
  const siteNames = pick('--sites') ?? SITES.map((s) => s.name);
  const tools = (pick('--tools') ?? [...TOOLS]) as Tool[];
  const rounds = Math.max(1, Number(pick('--rounds')?.[0] ?? 1));
  const served = await run('bash', [SERVE, 'start', SITES_DIR], ROOT);
  if (served.code !== 0) throw new Error(`serve-docs.sh failed: ${served.stderr}`);

  const rows: Row[] = [];
  for (const site of SITES.filter((s) => siteNames.includes(s.name))) {
    const robotsText = await (await fetch(`http://127.0.0.1:${site.port}/robots.txt`)).text();
    for (let round = 1; round <= rounds; round++) {
      const siteRows: Row[] = [];
      for (const tool of round % 2 === 0 ? [...tools].reverse() : tools) {
        process.stderr.write(`crawling ${site.name} with ${tool}${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}...\n`);
        siteRows.push({ ...(await benchOne(site, tool, robotsText)), round });
      }
      siteRows.sort((a, b) => tools.indexOf(a.tool) - tools.indexOf(b.tool));
      const wget = siteRows.find((r) => r.tool === 'wget');
      if (wget) {
        const robots = parseRobots(robotsText);
        const allowedByWget = [...wget.htmlPaths].filter((p) => checkUrl(robots, 'Gleaner', `http://127.0.0.1:${site.port}${p}`, 'rfc9309').allowed);
        for (const r of siteRows) r.missedVsWget = allowedByWget.filter((p) => !r.htmlPaths.has(p)).length;
      }
      rows.push(...siteRows);
    }
  }

  console.log('\nsite    round tool        HTML pages  seconds  pages/s  peak RSS MB  disallowed requested  allowed pages wget found, missed');
  for (const r of rows) {
    console.log(
      `${r.site.padEnd(7)} ${String(r.round).padStart(5)} ${r.tool.padEnd(11)} ${String(r.pages).padStart(10)} ${r.seconds.toFixed(1).padStart(8)} ${(r.pages / r.seconds).toFixed(0).padStart(8)} ${r.rssMb.toFixed(0).padStart(12)} ${String(r.disallowed).padStart(21)}  ${r.missedVsWget ?? '-'}${r.stopped ? `  (stopped at its ${TIME_LIMIT_S[r.tool]} s limit)` : ''}`,
    );
  }
  console.log('\nReference from the issue (same sites, this machine): Rust docs wget 510-640 pages/s (RSS 30 MB), httrack 420-436.');
  console.log('Goal: every robots-allowed HTML page wget finds, 0 disallowed requests, >= 2x wget pages/s on the Rust docs, RSS < 400 MB.');
  const rate = (r: Row) => r.pages / r.seconds;
  for (const site of new Set(rows.map((r) => r.site))) {
    const parts: string[] = [];
    for (const tool of tools.filter((t) => t.startsWith('gleaner'))) {
      const ratios: number[] = [];
      for (const r of rows.filter((x) => x.site === site && x.tool === tool)) {
        const wget = rows.find((x) => x.site === site && x.round === r.round && x.tool === 'wget');
        if (wget && wget.pages > 0) ratios.push(rate(r) / rate(wget));
      }
      if (ratios.length === 0) continue;
      ratios.sort((a, b) => a - b);
      const median = ratios[Math.floor((ratios.length - 1) / 2)]! / 2 + ratios[Math.ceil((ratios.length - 1) / 2)]! / 2;
      parts.push(ratios.length === 1 ? `${tool} ${median.toFixed(2)}x` : `${tool} median ${median.toFixed(2)}x (${ratios.map((x) => x.toFixed(2)).join(', ')})`);
    }
    if (parts.length > 0) console.log(`${site}: pages/s against wget in the same round: ${parts.join('; ')}`);
  }
}

await main();
