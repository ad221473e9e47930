// Issue 12, classes 1 and 2, end to end against test/sites/hostile-http.ts: small binary files answered in
// full, repeated Content-Type and an oversized gzip page do not crash the crawl; a dripping body ends as
// an error at the request's deadline or minimum rate; Ctrl-C stops the real CLI within seconds during a
// drip, leaves the request queued, and the same command run again resumes and finishes.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { CHARSET_DROPPED_PHRASE, CODED_PHRASE, HOSTILE_CASES as C, startHostileHttp, type HostileHttpSite } from './sites/hostile-http.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'gleaner');
const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));

/** Slack on the server's side of a deadline: timers, a loaded 2-core machine. */
const SLACK_MS = 3_000;

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'gleaner-hostile-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface StoreView {
  /** Every stored record, by path (a path stored twice has two). */
  pages: Map<string, PageRecord[]>;
  queued: string[];
}

async function view(dataDir: string): Promise<StoreView> {
  const store = await openStore(dataDir, { mustExist: true });
  const pages = new Map<string, PageRecord[]>();
  for await (const p of store.pages()) {
    const path = new URL(p.url).pathname;
    pages.set(path, [...(pages.get(path) ?? []), p]);
  }
  const queued: string[] = [];
  for await (const e of store.frontier.queued()) queued.push(new URL(e.url).pathname);
  await store.close();
  return { pages, queued };
}

const one = (v: StoreView, path: string): PageRecord => {
  const records = v.pages.get(path) ?? [];
  expect(records, path).toHaveLength(1);
  return records[0]!;
};

async function until(done: () => boolean, withinMs: number): Promise<void> {
  const end = performance.now() + withinMs;
  while (!done() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
}

/** How long each request for `path` stayed open, seen from the server. */
const durations = (site: HostileHttpSite, path: string): number[] => site.hits(path).map((r) => (r.closedMs ?? Infinity) - r.arrivedMs);

describe('crawl() against hostile but ordinary HTTP: deadline', () => {
  const REQUEST_TIMEOUT_MS = 3_000;
  const MAX_RETRIES = 1;
  let site: HostileHttpSite;
  let summary: CrawlSummary;
  let v: StoreView;

  beforeAll(async () => {
    site = await startHostileHttp({ dripIntervalMs: 500, bigGzipBytes: 1024 * 1024 });
    const dataDir = await tmp();
    summary = await crawl({
      dataDir,
      seeds: [site.url],
      delayMs: 0,
      backoffMs: 100,
      maxBackoffMs: 200,
      maxRetries: MAX_RETRIES,
      maxBodyBytes: 64 * 1024,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      minBytesPerSecond: 0,
    });
    v = await view(dataDir);
    await site.close();
  }, 60_000);

  it('finishes (no crash, no hang) with nothing left queued', () => {
    expect(summary.stoppedBecause).toBe('done');
    expect(v.queued).toEqual([]);
  });

  it('stores every good page once, as ok', () => {
    for (const path of C.good) expect(one(v, path).state, path).toBe('ok');
  });

  it('keeps a gzip or deflate page whole when bytes follow its compressed stream', () => {
    for (const path of C.codedThenCrlf) expect(one(v, path).text, path).toContain(CODED_PHRASE);
  });

  it('stores small binary files answered in full as skipped, with their media type', () => {
    for (const [path, type] of Object.entries(C.binaries)) {
      expect(one(v, path), path).toMatchObject({ state: 'skipped', status: 200, contentType: type });
    }
  });

  it('decides a repeated Content-Type by its last valid value', () => {
    expect(one(v, C.typeClash.htmlLast)).toMatchObject({ state: 'ok', contentType: 'text/html', title: 'Clash' });
    expect(one(v, C.typeClash.jsonLast)).toMatchObject({ state: 'skipped', contentType: 'application/json' });
    expect(one(v, C.typeClash.invalidLast)).toMatchObject({ state: 'skipped', contentType: 'application/zip' });
    // The charset goes with the media type it came with: a koi8-r on the dropped text/plain value is not used.
    expect(one(v, C.typeClash.charsetDropped)).toMatchObject({ state: 'ok', contentType: 'text/html' });
    expect(one(v, C.typeClash.charsetDropped).text).toContain(CHARSET_DROPPED_PHRASE);
  });

  it('cuts the gzip page at the body cap instead of crashing', () => {
    expect(one(v, C.bigGzip)).toMatchObject({ state: 'ok', truncated: true, title: 'Big gzip page' });
  });

  it('ends the dripping page as an error naming the deadline, each attempt cut at the deadline', () => {
    expect(one(v, C.drip)).toMatchObject({ state: 'error', error: 'deadline of 3 s exceeded' });
    const times = durations(site, C.drip);
    expect(times).toHaveLength(MAX_RETRIES + 1);
    for (const ms of times) {
      // Timed at the server, which sees the request later than the deadline's clock started (a
      // connection made, a collection paused): a second's margin still tells a cut from an early failure.
      expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 1000);
      expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    }
  });

  it('reads an endless tree of nested sitemaps only as deep as the nesting limit (the protocol\u2019s index and two levels)', () => {
    const read = site.requests.filter((r) => r.path.startsWith(C.sitemapChain.prefix)).map((r) => r.path);
    // 0 names 1 and 2; those name 2, 4 and 3, 6: four levels would be 0..6 and more.
    expect(new Set(read)).toEqual(new Set(['/chain/0.xml', '/chain/1.xml', '/chain/2.xml', '/chain/3.xml', '/chain/4.xml', '/chain/6.xml']));
    expect(read).toHaveLength(6);
  });

  it('gives up the dripping sitemap at the deadline and goes on', () => {
    const times = durations(site, C.dripSitemap);
    expect(times).toHaveLength(1);
    expect(times[0]).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
  });
});

describe('crawl() against a dripping body: minimum rate', () => {
  it('abandons a body slower than minBytesPerSecond over the window, long before the deadline', async () => {
    const site = await startHostileHttp({ dripIntervalMs: 200 });
    const dataDir = await tmp();
    try {
      await crawl({
        dataDir,
        seeds: [site.url],
        delayMs: 0,
        maxRetries: 0,
        useSitemaps: false,
        requestTimeoutMs: 60_000,
        minBytesPerSecond: 100,
        minRateWindowMs: 1_500,
      });
    } finally {
      await site.close();
    }
    const v = await view(dataDir);
    expect(one(v, C.drip)).toMatchObject({ state: 'error', error: 'slower than 100 bytes/s for 1.5 s' });
    const [ms] = durations(site, C.drip);
    expect(ms).toBeGreaterThanOrEqual(1_500 - 100);
    expect(ms).toBeLessThan(1_500 + SLACK_MS);
    for (const path of C.good) expect(one(v, path).state, path).toBe('ok');
  }, 60_000);
});

describe.skipIf(!BUILT)('Ctrl-C during a drip (real CLI, dist/)', () => {
  const REQUEST_TIMEOUT_S = 8;
  /** The stop must not wait for the drip's deadline: well under REQUEST_TIMEOUT_S. */
  const STOP_WITHIN_MS = 5_000;

  function run(args: string[], onStart?: (kill: (signal: NodeJS.Signals) => void) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
      onStart?.((signal) => child.kill(signal));
    });
  }

  it('the first SIGINT stops within seconds (exit 130), the drip stays queued, and the same command resumes and finishes', async () => {
    const site = await startHostileHttp({ dripIntervalMs: 1_000 });
    const dataDir = await tmp();
    // No retries, so the resumed run ends the drip at its first deadline.
    const config = join(await tmp(), 'crawl.json');
    await writeFile(config, JSON.stringify({ crawl: { maxRetries: 0 } }));
    const args = ['crawl', site.url, '--data', dataDir, '--delay', '0', '--no-sitemaps', '--request-timeout', String(REQUEST_TIMEOUT_S), '--min-rate', '0', '--config', config];
    try {
      let signalledAt = 0;
      const first = await run(args, (kill) => {
        const poll = setInterval(() => {
          if (site.open(C.drip).length === 0) return;
          clearInterval(poll);
          signalledAt = performance.now();
          kill('SIGINT');
        }, 20);
      });
      const stoppedInMs = performance.now() - signalledAt;
      expect(signalledAt, 'the drip was requested').toBeGreaterThan(0);
      expect(first.code, first.stderr).toBe(130);
      expect(stoppedInMs).toBeLessThan(STOP_WITHIN_MS);
      expect(first.stdout).toContain('stopped; run again to resume');
      await until(() => site.open(C.drip).length === 0, 3_000);
      expect(site.open(C.drip), 'the client let go of the drip').toHaveLength(0);

      const stopped = await view(dataDir);
      expect(stopped.pages.has(C.drip), 'an interrupted request is not stored as an error').toBe(false);
      expect(stopped.queued).toContain(C.drip);

      const second = await run(args);
      expect(second.code, second.stderr).toBe(0);
      const done = await view(dataDir);
      expect(done.queued).toEqual([]);
      for (const path of C.good) expect(one(done, path).state, path).toBe('ok');
      expect(one(done, C.drip)).toMatchObject({ state: 'error', error: `deadline of ${REQUEST_TIMEOUT_S} s exceeded` });
    } finally {
      await site.close();
    }
  }, 90_000);

  it('SIGTERM stops the same way, with exit 143', async () => {
    const site = await startHostileHttp({ dripIntervalMs: 1_000 });
    const dataDir = await tmp();
    try {
      const stopped = await run(['crawl', site.origin + C.drip, '--data', dataDir, '--delay', '0', '--no-sitemaps', '--request-timeout', String(REQUEST_TIMEOUT_S)], (kill) => {
        const poll = setInterval(() => {
          if (site.open(C.drip).length === 0) return;
          clearInterval(poll);
          kill('SIGTERM');
        }, 20);
      });
      expect(stopped.code, stopped.stderr).toBe(143);
      expect((await view(dataDir)).queued).toEqual([C.drip]);
    } finally {
      await site.close();
    }
  }, 60_000);
});
