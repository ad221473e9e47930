// Several crawler processes, one crawl (issue 17): four `gleaner crawl --frontier redis://... --store
// postgres://...` processes on three local sites (Crawl-delay 1 s, Crawl-delay 0.5 s, none with
// --delay 0.25), read from each site's own request log as its owner would: one request at a time, every
// gap from a response's end to the next request at least the delay, robots.txt once, nothing disallowed,
// every page fetched once and stored once, each site served by two processes or more. The control (four
// crawls each polite on its own) fails the same check. Then the failures: a crawler killed holding a
// slow page's lease, Redis killed and restarted from its append-only file, PostgreSQL restarted, all
// mid-crawl; a site with no delay crawled in batch leases, and its batch holder killed; and the bad
// inputs. Real redis-server and PostgreSQL, started here on unix sockets.

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesOfSite, politenessViolations, startLoggedSite, type LoggedRequest, type LoggedSite } from './support/logged-site.js';
import { havePostgres, PostgresServer } from './support/postgres-server.js';
import { haveRedisServer, startRedisServer, type RedisServer } from './support/redis-server.js';
import { BUILT, startCli, type CliResult } from './support/run-cli.js';

const run = haveRedisServer('the shared crawl tests') && havePostgres('the shared crawl tests') && BUILT;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The three sites of every run, fresh each time (their logs are the evidence). */
interface Sites {
  a: LoggedSite; // Crawl-delay: 1
  b: LoggedSite; // Crawl-delay: 0.5, and a slow page
  c: LoggedSite; // no Crawl-delay: the crawl's --delay 0.25
  all: { site: LoggedSite; delayMs: number; pages: string[] }[];
}

const SLOW_MS = 2500;

async function startSites(): Promise<Sites> {
  const robots = (delay: string) => `User-agent: *\nDisallow: /private/\n${delay}`;
  const aPages = pagesOfSite('alpha', 6);
  const bPages = pagesOfSite('beta', 6, ['/slow']);
  const cPages = pagesOfSite('gamma', 8);
  const a = await startLoggedSite({ robots: robots('Crawl-delay: 1\n'), pages: aPages });
  const b = await startLoggedSite({ robots: robots('Crawl-delay: 0.5\n'), pages: bPages, slowMs: new Map([['/slow', SLOW_MS]]) });
  const c = await startLoggedSite({ robots: robots(''), pages: cPages });
  return {
    a,
    b,
    c,
    all: [
      { site: a, delayMs: 1000, pages: [...aPages.keys()] },
      { site: b, delayMs: 500, pages: [...bPages.keys()] },
      { site: c, delayMs: 250, pages: [...cPages.keys()] },
    ],
  };
}

const pageRequests = (log: readonly LoggedRequest[]) => log.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml');

describe.runIf(run)('several crawler processes on one shared frontier', () => {
  let redisServer: RedisServer | undefined;
  let postgresServer: PostgresServer | undefined;
  let dir: string;
  let db = 0;
  /** Every site started, closed after the tests. */
  const started: LoggedSite[] = [];
  /** Every crawler process started, killed after the tests should one have failed halfway. */
  const processes: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-shared-crawl-'));
    redisServer = await startRedisServer(await mkdtemp(join(tmpdir(), 'gleaner-shared-redis-')));
    postgresServer = await PostgresServer.create();
  }, 60_000);
  afterAll(async () => {
    for (const p of processes) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const site of started) await site.close();
    if (redisServer) {
      await redisServer.stop();
      await rm(redisServer.dir, { recursive: true, force: true });
    }
    await postgresServer?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const redis = (): RedisServer => redisServer!;
  const postgres = (): PostgresServer => postgresServer!;

  async function sites(): Promise<Sites> {
    const s = await startSites();
    started.push(...s.all.map(({ site }) => site));
    return s;
  }

  /** A fresh Redis db and PostgreSQL database for one crawl. */
  async function sharedPlace(): Promise<{ frontier: string; store: string; name: string }> {
    db++;
    const name = `crawl${db}`;
    return { frontier: redis().url(db), store: await postgres().createDatabase(name), name };
  }

  /** Starts `n` crawler processes on the three sites, each with its own data dir and From address. */
  /** Flags for a lease of 3 s + 1 s: a dead process's host (or a lost answer's) waits that long, not
   * the default 75 s. */
  async function shortLease(): Promise<string[]> {
    const config = join(dir, 'short-lease.json');
    await writeFile(config, JSON.stringify({ crawl: { leaseMarginMs: 1000 } }));
    return ['--request-timeout', '3', '--config', config];
  }

  /** Crawler k is crawler<first + k>@example.org. */
  function crawlers(n: number, s: Sites, shared: { frontier: string; store: string } | undefined, extra: string[] = [], first = 0) {
    const seeds = s.all.map(({ site }) => site.url);
    return Array.from({ length: n }, (_, k) => {
      const i = first + k;
      const where = shared ? ['--frontier', shared.frontier, '--store', shared.store] : [];
      const p = startCli(['crawl', ...seeds, ...where, '--data', join(dir, `run${db}-${String(i)}-${String(Date.now())}`), '--delay', '0.25', '--from', `crawler${String(i)}@example.org`, ...extra]);
      processes.push(p);
      return p;
    });
  }

  async function storedUrls(store: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: store });
    await client.connect();
    try {
      return (await client.query<{ url: string }>('SELECT url FROM gleaner_pages ORDER BY url')).rows.map((r) => r.url);
    } finally {
      await client.end();
    }
  }

  /** The checks on every site's log, and the store. */
  async function expectPoliteAndComplete(s: Sites, store: string, { fetchedOnce = true } = {}): Promise<void> {
    const stored = await storedUrls(store);
    for (const { site, delayMs, pages } of s.all) {
      expect(politenessViolations(site.log, delayMs), site.url).toEqual([]);
      expect(site.log.filter((r) => r.path === '/robots.txt'), `${site.url} robots.txt`).toHaveLength(1);
      expect(site.log.filter((r) => r.path.startsWith('/private/')), `${site.url} disallowed`).toEqual([]);
      const asked = pageRequests(site.log).map((r) => r.path);
      for (const p of pages) {
        const times = asked.filter((x) => x === p).length;
        if (fetchedOnce) expect(times, `${site.url}${p.slice(1)} fetched`).toBe(1);
        else expect(times, `${site.url}${p.slice(1)} fetched`).toBeGreaterThanOrEqual(1);
        expect(stored.filter((u) => u === new URL(p, site.url).href), `${site.url}${p.slice(1)} stored`).toHaveLength(1);
      }
    }
  }

  /** Resolves once `n` clients are connected to the crawl's Redis db: each crawler process has one. */
  async function clientsConnected(n: number): Promise<void> {
    const r = new Redis({ path: redis().socket });
    try {
      for (const started = Date.now(); Date.now() - started < 60_000; await sleep(20)) {
        const list = String(await r.call('CLIENT', 'LIST'));
        if (list.split('\n').filter((line) => line.includes(` db=${String(db)} `)).length >= n) return;
      }
      throw new Error(`fewer than ${String(n)} crawlers connected to Redis within 60 s`);
    } finally {
      r.disconnect();
    }
  }

  it('holds every site delay across four processes, fetches and stores every page once', async () => {
    const s = await sites();
    const shared = await sharedPlace();
    // The sites answer once all four are up: a process slow to start (a loaded machine) would otherwise
    // find the quickest site (2.5 s of pages) done, and the check that two or more served it would fail.
    const allUp = clientsConnected(4);
    for (const { site } of s.all) site.hold = allUp;
    const procs = crawlers(4, s, shared);
    const results: CliResult[] = [];
    for (const p of procs) {
      await p.exited;
      results.push(p.output());
    }
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    await expectPoliteAndComplete(s, shared.store);
    for (const { site } of s.all) {
      expect(new Set(pageRequests(site.log).map((r) => r.from)).size, `${site.url} served by`).toBeGreaterThanOrEqual(2);
    }
  }, 90_000);

  it('a site with no delay is leased in batches: three processes, one request at a time, every page fetched and stored once', async () => {
    const pages = pagesOfSite('delta', 40);
    const site = await startLoggedSite({ robots: 'User-agent: *\nDisallow: /private/\n', pages });
    started.push(site);
    const shared = await sharedPlace();
    const procs = Array.from({ length: 3 }, (_, i) => {
      const p = startCli(['crawl', site.url, '--frontier', shared.frontier, '--store', shared.store, '--data', join(dir, `batch-${String(i)}`), '--delay', '0', '--from', `crawler${String(i)}@example.org`]);
      processes.push(p);
      return p;
    });
    for (const p of procs) expect((await p.exited, p.output().code), p.output().stderr).toBe(0);
    expect(politenessViolations(site.log, 0, 0)).toEqual([]);
    expect(site.log.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
    const asked = pageRequests(site.log).map((r) => r.path);
    expect([...asked].sort()).toEqual([...pages.keys()].sort()); // each once, /private/ never
    expect(await storedUrls(shared.store)).toEqual([...pages.keys()].map((p) => new URL(p, site.url).href).sort());
    const counts = new Redis({ path: redis().socket, db });
    try {
      expect(Number(await counts.get('gleaner:batches'))).toBeGreaterThan(0);
    } finally {
      counts.disconnect();
    }
  }, 60_000);

  it('a crawler killed holding a batch loses all of it: the others take its URLs back, one request at a time, every page stored once', async () => {
    const pages = pagesOfSite('epsilon', 30);
    const site = await startLoggedSite({ robots: 'User-agent: *\nDisallow: /private/\n', pages, slowMs: new Map([...pages.keys()].map((p) => [p, 60])) });
    started.push(site);
    const shared = await sharedPlace();
    const lease = await shortLease();
    const procs = Array.from({ length: 3 }, (_, i) => {
      const p = startCli(['crawl', site.url, '--frontier', shared.frontier, '--store', shared.store, '--data', join(dir, `batch-kill-${String(i)}`), '--delay', '0', '--from', `crawler${String(i)}@example.org`, ...lease]);
      processes.push(p);
      return p;
    });
    let killed: number | undefined;
    site.onRequest = () => {
      // The tenth page is well inside a batch (the first lease is the home page alone).
      if (killed !== undefined || pageRequests(site.log).length < 10) return;
      killed = Number(/crawler(\d)/.exec(site.log[site.log.length - 1]!.from)?.[1]);
      procs[killed]!.kill('SIGKILL');
    };
    for (const p of procs) await p.exited;
    expect(killed).toBeDefined();
    procs.forEach((p, i) => {
      if (i !== killed) expect(p.output().code, p.output().stderr).toBe(0);
    });
    expect(politenessViolations(site.log, 0, 0)).toEqual([]);
    expect(await storedUrls(shared.store)).toEqual([...pages.keys()].map((p) => new URL(p, site.url).href).sort());
    const asked = pageRequests(site.log);
    for (const path of pages.keys()) expect(asked.filter((r) => r.path === path).length, path).toBeGreaterThanOrEqual(1);
    // A page asked twice is one the killed crawler had asked and not stored.
    const twice = [...pages.keys()].filter((path) => asked.filter((r) => r.path === path).length > 1);
    expect(twice.length).toBeGreaterThan(0);
    for (const path of twice) expect(asked.find((r) => r.path === path)!.from, path).toBe(`crawler${String(killed)}@example.org`);
  }, 60_000);

  it('the control: four crawls each polite on its own break the same check', async () => {
    const s = await sites();
    const procs = crawlers(4, s, undefined, ['--max-pages', '4']);
    for (const p of procs) expect((await p.exited, p.output().code), p.output().stderr).toBe(0);
    // Each process keeps the delay alone, so together they ask each site about four times as often.
    for (const { site, delayMs } of s.all) expect(politenessViolations(site.log, delayMs).length, site.url).toBeGreaterThan(0);
  }, 90_000);

  it('a crawler killed holding the slow page loses its lease; the page is asked again after the delay and stored once', async () => {
    const s = await sites();
    const shared = await sharedPlace();
    const procs = crawlers(4, s, shared, await shortLease());
    let killed: number | undefined;
    s.b.onRequest = (r) => {
      if (r.path !== '/slow' || killed !== undefined) return;
      killed = Number(/crawler(\d)/.exec(r.from)?.[1]);
      procs[killed]!.kill('SIGKILL');
    };
    for (const p of procs) await p.exited;
    expect(killed, procs[0]!.output().stderr).toBeDefined();
    procs.forEach((p, i) => {
      if (i !== killed) expect(p.output().code, p.output().stderr).toBe(0);
    });
    const slow = s.b.log.filter((r) => r.path === '/slow');
    expect(slow.length).toBe(2);
    expect(slow[1]!.from).not.toBe(slow[0]!.from);
    // The second ask waits the lease out: 4 s after the first began, then the site's delay.
    expect(slow[1]!.startMs - slow[0]!.startMs).toBeGreaterThan(4000 - 15);
    await expectPoliteAndComplete(s, shared.store, { fetchedOnce: false });
    // Besides the slow page, a page is asked twice only if the killed crawler had it under way on
    // another host when it died (its lease then expires as the slow page's does): asked first by it.
    const victim = `crawler${String(killed)}@example.org`;
    for (const { site } of s.all) {
      const asked = pageRequests(site.log).filter((r) => r.path !== '/slow');
      for (const path of new Set(asked.map((r) => r.path))) {
        const asks = asked.filter((r) => r.path === path);
        if (asks.length > 1) expect([asks.length, asks[0]!.from], `${site.url}${path.slice(1)}: asked again only after the killed crawler`).toEqual([2, victim]);
      }
    }
  }, 90_000);

  /** Waits for a moment when a host has pages queued and no lease, and may not be asked for 300 ms or
   * more (it waits out its delay), and pauses `procs` (SIGSTOP) then: that host is left to whoever asks
   * next. Fails when the crawl ends first. */
  async function pauseWhileWorkWaits(procs: readonly ReturnType<typeof startCli>[]): Promise<void> {
    const r = new Redis({ path: redis().socket, db });
    try {
      for (;;) {
        const [sec, us] = await r.time();
        const nowMs = Number(sec) * 1000 + Math.floor(Number(us) / 1000);
        if ((await r.zrangebyscore('gleaner:ready', nowMs + 300, '+inf')).length > 0) {
          for (const p of procs) p.kill('SIGSTOP');
          return;
        }
        if (procs.every((p) => p.exitCode !== null || p.signalCode !== null)) throw new Error('the crawl ended before a host waited out its delay with pages queued');
        await sleep(10);
      }
    } finally {
      r.disconnect();
    }
  }

  it('lets a crawler leave (Ctrl-C, mid-request) and another join mid-crawl: the crawl completes, polite, every page stored once', async () => {
    const s = await sites();
    const shared = await sharedPlace();
    const procs = crawlers(2, s, shared);
    // The one asking the slow page leaves while its request is under way; the site's delay still runs
    // from the moment that request was cut, for whoever asks the site next.
    let leaving: number | undefined;
    s.b.onRequest = (r) => {
      if (r.path !== '/slow' || leaving !== undefined) return;
      leaving = Number(/crawler(\d)/.exec(r.from)?.[1]);
      procs[leaving]!.kill('SIGINT');
    };
    while (leaving === undefined) await sleep(20);
    // A newcomer joins while a site waits out its delay with pages left. The crawlers already there are
    // paused (SIGSTOP, as a machine stalls) from that moment until the newcomer has asked a page: a
    // newcomer slow to start (a loaded machine) would otherwise find the crawl over. The paused ones keep
    // their leases (75 s) and go on afterwards, sharing what is left.
    await pauseWhileWorkWaits(procs);
    const newcomer = crawlers(1, s, shared, [], 2)[0]!;
    procs.push(newcomer);
    const askedByNewcomer = () => s.all.some(({ site }) => pageRequests(site.log).some((r) => r.from === 'crawler2@example.org'));
    for (const started = Date.now(); !askedByNewcomer() && newcomer.exitCode === null && Date.now() - started < 60_000; ) await sleep(20);
    for (const p of procs.slice(0, 2)) p.kill('SIGCONT');
    expect(askedByNewcomer(), newcomer.output().stderr).toBe(true);
    expect(await procs[leaving]!.exited, procs[leaving]!.output().stderr).toBe(130);
    for (const p of procs.filter((_, i) => i !== leaving)) expect((await p.exited, p.output().code), p.output().stderr).toBe(0);
    // The cut request is asked again by another crawler, so that page is fetched twice.
    await expectPoliteAndComplete(s, shared.store, { fetchedOnce: false });
  }, 150_000);

  /** Four crawlers; once the slowest site has served three pages, `interrupt` (a server down and back). */
  async function crawlThrough(interrupt: () => Promise<void>, { extra = [] as string[] } = {}): Promise<void> {
    const s = await sites();
    const shared = await sharedPlace();
    const procs = crawlers(4, s, shared, extra);
    while (pageRequests(s.a.log).length < 3) await sleep(20);
    await interrupt();
    for (const p of procs) expect((await p.exited, p.output().code), p.output().stderr).toBe(0);
    await expectPoliteAndComplete(s, shared.store);
  }

  it('Redis killed (kill -9) and restarted from its append-only file mid-crawl: the crawl completes, polite, nothing lost', async () => {
    // A script Redis ran just before the kill, whose answer was lost, is sent again after the restart:
    // lease and free answer as the first time (frontier-redis-lua.ts), so no lease is orphaned and no
    // page fetched twice. The short lease bounds the wait should one be orphaned all the same.
    await crawlThrough(
      async () => {
        await redis().kill9();
        // Short, so that no lease a live crawler holds (4 s, extended every 1.3 s) runs out while ioredis
        // reconnects (its backoff reached 3.6 s after a 1.5 s outage on a loaded machine).
        await sleep(300);
        await redis().start();
      },
      { extra: await shortLease() },
    );
  }, 120_000);

  /** One crawler with `crawlConfig`; once it has stored pages Redis hangs (SIGSTOP), `then` runs, and
   * Redis goes on again. Returns the crawler's result once it exited (failing if it still runs 30 s on),
   * having checked that the pages stored before are kept. */
  async function whileRedisHangs(crawlConfig: Record<string, number>, then: (crawler: ChildProcess) => Promise<void>): Promise<CliResult> {
    const s = await sites();
    const shared = await sharedPlace();
    const config = join(dir, `hang-${String(db)}.json`);
    await writeFile(config, JSON.stringify({ crawl: crawlConfig }));
    const [p] = crawlers(1, s, shared, ['--config', config]);
    while (pageRequests(s.c.log).length < 2) await sleep(20);
    redis().pause();
    try {
      await then(p!);
      const ended = await Promise.race([p!.exited.then(() => true), sleep(30_000).then(() => false)]);
      expect(ended, 'the crawler still runs 30 s on').toBe(true);
    } finally {
      redis().resume();
    }
    expect((await storedUrls(shared.store)).length).toBeGreaterThan(0);
    return p!.output();
  }

  it('a Ctrl-C while Redis hangs (SIGSTOP) still ends the crawler, after the stop deadline, with what is stored kept', async () => {
    const r = await whileRedisHangs({ stopDeadlineMs: 2000 }, async (crawler) => {
      await sleep(300);
      crawler.kill('SIGINT');
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/stopping took longer than 2 s/);
  }, 60_000);

  it('a Redis that hangs (SIGSTOP) for longer than frontierTimeoutMs stops the crawl in one line, what is stored kept', async () => {
    const r = await whileRedisHangs({ frontierTimeoutMs: 2000 }, () => Promise.resolve());
    expect(r.code).toBe(69);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/did not answer for 2 s; the \d+ pages stored so far are kept/)]);
  }, 60_000);

  it('PostgreSQL restarted mid-crawl: the crawlers wait for it and go on, nothing lost', async () => {
    await crawlThrough(async () => {
      await postgres().stop();
      await sleep(2000);
      await postgres().start();
    });
  }, 120_000);

  it('an unreachable Redis, or one holding another program\'s keys, is one line and no request', async () => {
    const s = await sites();
    const shared = await sharedPlace();
    const seeds = s.all.map(({ site }) => site.url);
    const gone = startCli(['crawl', ...seeds, '--frontier', `unix://${join(dir, 'no-such.sock')}`, '--store', shared.store, '--data', join(dir, 'gone')]);
    await gone.exited;
    expect(gone.output().code).not.toBe(0);
    expect(gone.output().stderr.trim().split('\n')).toHaveLength(1);
    expect(gone.output().stderr).toMatch(/cannot reach the Redis frontier/);

    db++;
    const other = new Redis({ path: redis().socket, db });
    await other.set('session:42', 'someone else');
    const foreign = startCli(['crawl', ...seeds, '--frontier', redis().url(db), '--store', shared.store, '--data', join(dir, 'foreign')]);
    await foreign.exited;
    expect(foreign.output().code).not.toBe(0);
    expect(foreign.output().stderr.trim().split('\n')).toHaveLength(1);
    expect(foreign.output().stderr).toMatch(/holds keys of another program/);
    expect(await other.get('session:42')).toBe('someone else');
    expect(await other.dbsize()).toBe(1);
    other.disconnect();

    const noStore = startCli(['crawl', ...seeds, '--frontier', redis().url(db + 1), '--data', join(dir, 'nostore')]);
    await noStore.exited;
    expect(noStore.output().code).not.toBe(0);
    expect(noStore.output().stderr).toMatch(/--frontier needs --store/);

    const config = join(dir, 'bad-batch.json');
    await writeFile(config, JSON.stringify({ crawl: { leaseBatchUrls: 0 } }));
    const badBatch = startCli(['crawl', ...seeds, '--frontier', redis().url(db + 1), '--store', shared.store, '--config', config, '--data', join(dir, 'badbatch')]);
    await badBatch.exited;
    expect(badBatch.output().code).not.toBe(0);
    expect(badBatch.output().stderr.trim().split('\n')).toEqual([expect.stringMatching(/leaseBatchUrls must be a whole number from 1 to 1000/)]);
    for (const { site } of s.all) expect(site.log, site.url).toEqual([]);
  }, 60_000);
});
