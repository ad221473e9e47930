// Issue 12, classes 3 and 5: crawls of hosts with broken or hostile robots.txt files (test/sites/
// robots-hostile.ts), with the crawl() API and, for a seed that cannot be reached, the real CLI.
// A failed robots.txt is retried on the crawl's short test schedule while a healthy host is crawled; a
// host that takes no connection is given up at once; rules in an HTML robots.txt and typos are obeyed
// toward the site owner.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProgress, formatSummary } from '../bin/commands/crawl.js';
import { crawl, type CrawlProgress, type CrawlSummary } from '../crawler/index.js';
import { openStore } from '../shared/store/index.js';
import { PAGES, refusedOrigin, startRobotsHost, type RobotsHost } from './sites/robots-hostile.js';
import { servePages } from './support/page-site.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));
if (!BUILT) console.warn('robots-hostile CLI test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'gleaner-robots-hostile-'));
  dirs.push(d);
  return d;
}
const hosts: RobotsHost[] = [];
async function host(kind: RobotsHost['kind']): Promise<RobotsHost> {
  const h = await startRobotsHost(kind);
  hosts.push(h);
  return h;
}
afterAll(async () => {
  for (const h of hosts) await h.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function storedPaths(dataDir: string): Promise<Set<string>> {
  const store = await openStore(dataDir, { mustExist: true });
  const out = new Set<string>();
  for await (const p of store.pages()) if (p.state === 'ok') out.add(p.url);
  await store.close();
  return out;
}

/** A short robots schedule: 0.3 + 0.6 + 1.2 s of waiting, four tries, each at most 1 s (headersTimeoutMs). */
const SCHEDULE = { robotsRetries: 3, robotsBackoffMs: 300, maxBackoffMs: 5_000, headersTimeoutMs: 1_000 };
const TRIES = SCHEDULE.robotsRetries + 1;
/** The schedule's total: every wait plus every try timing out, and a generous margin for a loaded machine. */
const SCHEDULE_TOTAL_S = (300 + 600 + 1_200) / 1000 + TRIES * (SCHEDULE.headersTimeoutMs / 1000);
const DEADLINE_S = SCHEDULE_TOTAL_S + 15;

describe('class 3: a robots.txt that answers 503 or never answers, beside a healthy host', () => {
  let healthy: RobotsHost;
  let failing: RobotsHost;
  let hanging: RobotsHost;
  let summary: CrawlSummary;
  let stored: Set<string>;
  const snapshots: Array<{ at: number; p: CrawlProgress }> = [];

  beforeAll(async () => {
    [healthy, failing, hanging] = await Promise.all([host('healthy'), host('status-503'), host('hang')]);
    const dataDir = await tmp();
    summary = await crawl(
      { dataDir, seeds: [failing.url, hanging.url, healthy.url], delayMs: 0, parseThreads: 0, ...SCHEDULE },
      { onProgress: (p) => snapshots.push({ at: Date.now(), p }), progressIntervalMs: 50 },
    );
    stored = await storedPaths(dataDir);
  }, 120_000);

  it('the healthy host finishes its pages while the bad ones wait', () => {
    for (const p of [PAGES.home, ...PAGES.public]) expect(stored.has(healthy.origin + p), p).toBe(true);
    expect(healthy.hits(PAGES.secret)).toBe(0);
    // A moment when the healthy host's three pages were stored and both bad hosts were still waiting.
    const during = snapshots.find(({ p }) => p.pagesThisRun >= 3 && p.robotsWaiting.length === 2);
    expect(during, 'no progress line showed the healthy pages done while the bad hosts waited').toBeDefined();
    expect(summary.stoppedBecause).toBe('done');
  });

  it('the bad hosts are asked on the crawl\u2019s schedule, then given up (whole site disallowed), within its total', () => {
    expect(failing.hits('/robots.txt')).toBe(TRIES);
    expect(hanging.hits('/robots.txt')).toBe(TRIES);
    expect(failing.requested.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(hanging.requested.filter((p) => p !== '/robots.txt')).toEqual([]);
    const givenUp = Object.fromEntries(summary.hostsGivenUp.map((h) => [h.origin, h]));
    expect(givenUp[failing.origin]).toMatchObject({ reason: 'HTTP 503', failures: TRIES, cannotConnect: false, urls: 1 });
    expect(givenUp[hanging.origin]).toMatchObject({ reason: 'no answer (timed out)', failures: TRIES, cannotConnect: false, urls: 1 });
    expect(summary.seconds).toBeLessThan(DEADLINE_S);
  });

  it('the progress line says which host waits, why, when it is asked again and which try it was', () => {
    const lines = snapshots.map(({ at, p }) => formatProgress(p, at));
    // The line names the first host to wait, here the 503 (at once; the hang takes headersTimeoutMs), through
    // all its tries: the hang's first failure, coming during the 503's second try, does not take its place.
    const waitLine = new RegExp(`waiting: ${failing.origin} robots\\.txt HTTP 503, asking again in \\d+ s \\(2 of ${TRIES}\\)`);
    expect(lines.some((l) => waitLine.test(l)), lines.join('\n')).toBe(true);
    expect(lines.some((l) => l.includes(`${hanging.origin} robots.txt no answer (timed out), asking again in`))).toBe(true);
    expect(lines.at(-1)).toContain(`given up 2: `);
    expect(lines.at(-1)).toContain(`${failing.origin} (HTTP 503)`);
  });

  it('the summary names each host given up and why', () => {
    const text = formatSummary(summary);
    expect(text).toContain(`given up: ${failing.origin}: robots.txt HTTP 503 after ${TRIES} tries; whole site disallowed (RFC 9309 2.3.1.4), 1 URL skipped`);
    expect(text).toContain(`given up: ${hanging.origin}: robots.txt no answer (timed out) after ${TRIES} tries`);
  });
});

describe('class 3: a seed whose robots.txt always answers 503', () => {
  it('ends as `unreachable`; resumed, it keeps this run\'s schedule, not a failure cached by the last run', async () => {
    const failing = await host('status-503');
    const dataDir = await tmp();
    // Run 1 waits 30 s after its first failure (the store caches the failure that long); stopped meanwhile.
    const stop = new AbortController();
    const first = await crawl(
      { dataDir, seeds: [failing.url], delayMs: 0, parseThreads: 0, ...SCHEDULE, robotsBackoffMs: 30_000 },
      { signal: stop.signal, progressIntervalMs: 20, onProgress: (p) => (p.robotsWaiting.length > 0 ? stop.abort() : undefined) },
    );
    expect(first.stoppedBecause).toBe('aborted');
    expect(failing.hits('/robots.txt')).toBe(1);
    // Run 2 resumes with the short schedule: robots.txt is asked at once and on that schedule, every try a request.
    const second = await crawl({ dataDir, seeds: [failing.url], delayMs: 0, parseThreads: 0, ...SCHEDULE });
    expect(second.stoppedBecause).toBe('unreachable');
    expect(failing.hits('/robots.txt')).toBe(1 + TRIES);
    expect(second.seconds).toBeLessThan(DEADLINE_S);
  }, 120_000);
});

describe('class 3: a host given up, linked again later in the run', () => {
  it('is not asked again: its later URLs are skipped with it, unasked', async () => {
    const failing = await host('status-503');
    const dead = failing.url.replace(/\/$/, '');
    // Each page of the healthy site links to a new URL of the failing host, found one after another.
    const pages = new Map([
      ['/', `<title>Home</title><a href="/p1">p1</a><a href="${dead}/x0">x0</a>`],
      ['/p1', `<title>P1</title><a href="/p2">p2</a><a href="${dead}/x1">x1</a>`],
      ['/p2', `<title>P2</title><a href="${dead}/x2">x2</a>`],
    ]);
    const healthy = await servePages(pages);
    try {
      const summary = await crawl({ dataDir: await tmp(), seeds: [failing.url, healthy.url], scope: 'any', delayMs: 0, parseThreads: 0, ...SCHEDULE, robotsRetries: 0 });
      expect(summary.stoppedBecause).toBe('done');
      expect(failing.hits('/robots.txt')).toBe(1);
      expect(summary.hostsGivenUp).toEqual([expect.objectContaining({ origin: dead, failures: 1, urls: 4 })]);
    } finally {
      await healthy.close();
    }
  }, 60_000);
});

describe('class 3: a host that takes no connection', () => {
  it('is given up at once while a healthy host beside it is crawled', async () => {
    const [healthy, refused] = await Promise.all([host('healthy'), refusedOrigin()]);
    // The default schedule (seconds apart): being quick here must not come from short test options.
    const summary = await crawl({ dataDir: await tmp(), seeds: [`${refused}/`, healthy.url], delayMs: 0, parseThreads: 0 });
    expect(summary.stoppedBecause).toBe('done');
    expect(summary.hostsGivenUp).toEqual([{ origin: refused, reason: 'connection refused', failures: 1, cannotConnect: true, urls: 1 }]);
    expect(healthy.hits(PAGES.public[0])).toBe(1);
    // Not "blocked by robots.txt": no rule blocked anything, the host was not there.
    expect(Object.keys(summary.stats.blockedByRule).filter((k) => k.startsWith(refused))).toEqual([]);
    expect(summary.seconds).toBeLessThan(15);
  }, 60_000);

  it('as the only seed, the crawl ends within seconds as `unreachable`, not done and not blocked', async () => {
    const refused = await refusedOrigin();
    const summary = await crawl({ dataDir: await tmp(), seeds: [`${refused}/`], parseThreads: 0 });
    expect(summary.stoppedBecause).toBe('unreachable');
    expect(summary.hostsGivenUp.map((h) => `${h.origin} ${h.reason}`)).toEqual([`${refused} connection refused`]);
    expect(summary.stats.blockedByRule).toEqual({});
    expect(summary.seconds).toBeLessThan(10);
    expect(formatSummary(summary)).toContain('(no seed host could be reached)');
  }, 60_000);

  it('a host name that does not resolve is given up at once too', async () => {
    const summary = await crawl({ dataDir: await tmp(), seeds: ['http://no-such-host.invalid/'], parseThreads: 0 });
    expect(summary.stoppedBecause).toBe('unreachable');
    expect(summary.hostsGivenUp[0]).toMatchObject({ origin: 'http://no-such-host.invalid', cannotConnect: true, failures: 1 });
    expect(summary.seconds).toBeLessThan(20);
  }, 60_000);

  it('a TLS failure that every try would repeat (here: https:// to a port that speaks plain HTTP) is given up at once, saying so', async () => {
    const plain = await host('healthy');
    const tls = plain.url.replace(/^http:/, 'https:').replace(/\/$/, '');
    // The default schedule: without the rule this waits 2 + 4 + 8 s of robots.txt retries.
    const summary = await crawl({ dataDir: await tmp(), seeds: [`${tls}/`], parseThreads: 0 });
    expect(summary.stoppedBecause).toBe('unreachable');
    expect(summary.hostsGivenUp).toEqual([{ origin: tls, reason: 'no TLS on that port (is it http://?)', failures: 1, cannotConnect: true, urls: 1 }]);
    expect(summary.seconds).toBeLessThan(10);
  }, 60_000);

  it.skipIf(!BUILT)('`gleaner crawl` exits 69 with the reason on stderr', async () => {
    const refused = await refusedOrigin();
    const dataDir = await tmp();
    const started = Date.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'gleaner'), 'crawl', `${refused}/`, '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code, stderr).toBe(69);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stderr).toContain(`gleaner crawl: no seed host could be reached, nothing was crawled: ${refused} (robots.txt connection refused)`);
    expect(stdout).toContain('(no seed host could be reached)');
    expect(stdout).toContain('blocked by robots.txt: 0');
  }, 60_000);
});

describe('class 3: a robots.txt that redirects to file:', () => {
  it('is no robots.txt (allow all), decided on the first answer, not retried as an outage; the log says why', async () => {
    const moved = await host('redirect-file');
    const dataDir = await tmp();
    const warnings: string[] = [];
    // The default schedule: read as a network error, this took 4 tries over 14 s and then disallowed the site.
    const summary = await crawl(
      { dataDir, seeds: [moved.url], delayMs: 0, parseThreads: 0 },
      { log: (level, msg, fields) => (level === 'warn' ? warnings.push(`${msg} ${String(fields?.['why'])}`) : undefined) },
    );
    expect(summary.stoppedBecause).toBe('done');
    expect(summary.hostsGivenUp).toEqual([]);
    expect(moved.hits('/robots.txt')).toBe(1);
    expect(await storedPaths(dataDir)).toEqual(new Set([PAGES.home, ...PAGES.public, PAGES.secret, PAGES.open].map((p) => moved.origin + p)));
    expect(warnings).toContain('robots.txt redirects to a URL that cannot be fetched: read as no robots.txt 301 to "file:///etc/passwd", which cannot be fetched: no robots.txt, allow all');
    expect(summary.seconds).toBeLessThan(5);
  }, 60_000);
});

describe('class 5: robots.txt served as HTML, and typos', () => {
  let rules: RobotsHost;
  let empty: RobotsHost;
  let typo: RobotsHost;
  let stored: Set<string>;

  beforeAll(async () => {
    [rules, empty, typo] = await Promise.all([host('html-rules'), host('html-empty'), host('alow')]);
    const dataDir = await tmp();
    await crawl({ dataDir, seeds: [rules.url, empty.url, typo.url], delayMs: 0, parseThreads: 0 });
    stored = await storedPaths(dataDir);
  }, 60_000);

  it('the rule lines of an HTML robots.txt are obeyed (RFC 9309 2.2); an HTML page without rules is empty', () => {
    expect(rules.hits(PAGES.secret)).toBe(0);
    expect(rules.hits(PAGES.open)).toBe(0);
    for (const p of PAGES.public) expect(stored.has(rules.origin + p), p).toBe(true);
    // No parseable rule: read as empty, so the private pages are crawled.
    expect(stored.has(empty.origin + PAGES.secret)).toBe(true);
    expect(stored.has(empty.origin + PAGES.open)).toBe(true);
  });

  it('`Alow:` after a Disallow does not open the disallowed page', () => {
    expect(typo.hits(PAGES.open)).toBe(0);
    expect(typo.hits(PAGES.secret)).toBe(0);
    for (const p of PAGES.public) expect(stored.has(typo.origin + p), p).toBe(true);
  });
});
