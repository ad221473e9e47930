// Shared frontier speed: lease + complete pairs per second (one page's frontier work, no HTTP) against a
// redis-server this script starts (Debian's, on a unix socket in a temp dir), with `appendfsync always`
// (what the frontier's guarantees need) and `everysec`. 200 hosts, delay 0, so a host is always ready:
// the figure is the frontier's own ceiling, not politeness. Workers are separate connections running
// lease -> complete in a loop; "links" is how many new links each completion queues (seen-set checked).
// Baseline in the same run: INCR (one plain write, fsynced the same way) per second on the same server,
// the ceiling of any Redis write under that fsync setting.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/frontier.js [--seconds 3] [--dir DIR]
// --dir puts the server's files (append-only file) on the disk to measure; default the system temp dir.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisFrontier, type RedisEntry } from '../crawler/frontier-redis.js';
import { REDIS_SERVER, startRedisServer, type RedisServer } from '../test/support/redis-server.js';
import { existsSync } from 'node:fs';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const seconds = Number(flag('--seconds') ?? '3');
const baseDir = flag('--dir') ?? tmpdir();
const HOSTS = 200;
const URLS_PER_HOST = 500;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Runs `workers` loops of `step` for `seconds` (or until one reports there is nothing left). */
async function loops(workers: number, step: (worker: number) => Promise<boolean>): Promise<{ ops: number; ms: number }> {
  let ops = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < end) {
        if (!(await step(w))) return;
        ops++;
      }
    }),
  );
  return { ops, ms: performance.now() - start };
}

async function leaseComplete(server: RedisServer, workers: number, links: number): Promise<number> {
  const admin = new Redis({ path: server.socket });
  await admin.flushdb();
  admin.disconnect();
  const frontiers = await Promise.all(Array.from({ length: workers }, () => RedisFrontier.open(server.url(0))));
  const seed: RedisEntry[] = [];
  for (let i = 0; i < URLS_PER_HOST; i++) for (let h = 0; h < HOSTS; h++) seed.push({ url: `http://h${String(h)}.bench/p${String(i)}`, depth: 0 });
  await frontiers[0]!.add(seed);
  let next = 0;
  const result = await loops(workers, async (w) => {
    const f = frontiers[w]!;
    const r = await f.lease(`w${String(w)}`, 60_000);
    if (r.kind === 'empty') return false;
    if (r.kind === 'wait') throw new Error(`a host should always be ready at delay 0 with ${String(HOSTS)} hosts (wait ${String(r.waitMs)} ms)`);
    const newLinks = Array.from({ length: links }, () => ({ url: `http://h${String(next % HOSTS)}.bench/new${String(next++)}`, depth: 1 }));
    const done = await f.complete(r.lease, { delayMs: 0, newLinks });
    if (done.kind !== 'ok') throw new Error('stale completion in the bench');
    return true;
  });
  for (const f of frontiers) await f.close();
  return (result.ops * 1000) / result.ms;
}

async function incr(server: RedisServer, workers: number): Promise<number> {
  const clients = Array.from({ length: workers }, () => new Redis({ path: server.socket }));
  const result = await loops(workers, async (w) => {
    await clients[w]!.incr('bench:counter');
    return true;
  });
  for (const c of clients) c.disconnect();
  return (result.ops * 1000) / result.ms;
}

async function main(): Promise<void> {
  if (!existsSync(REDIS_SERVER)) {
    console.log(`skipped: the frontier bench needs ${REDIS_SERVER} (Debian package redis-server)`);
    return;
  }
  console.log(`Shared frontier: lease + complete pairs/s, ${String(HOSTS)} hosts, delay 0, ${String(seconds)} s per row, server files in ${baseDir}`);
  const rows: string[][] = [];
  for (const appendfsync of ['always', 'everysec'] as const) {
    const dir = await mkdtemp(join(baseDir, 'bench-frontier-'));
    const server = await startRedisServer(dir, { appendfsync });
    try {
      for (const workers of [1, 4]) {
        const base = await incr(server, workers);
        for (const links of [0, 10]) {
          const pairs = await leaseComplete(server, workers, links);
          rows.push([appendfsync, String(workers), String(links), fmt(pairs), fmt(pairs * 2), fmt(base)]);
        }
      }
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
  const head = ['appendfsync', 'workers', 'links/page', 'pages/s (lease+complete)', 'scripts/s', 'baseline INCR/s'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

await main();
