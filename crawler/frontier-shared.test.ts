// The shared frontier as a crawl process uses it, against a real redis-server: a process that stalls
// past its lease (a machine asleep, a VM paused) must not ask a host that has become another's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { openStore, type CrawlStats, type Store } from '../shared/store/index.js';
import { blankPage } from './page.js';
import { SharedFrontier, type SharedFrontierOptions } from './frontier-shared.js';
import { RedisFrontier } from './frontier-redis.js';
import type { Ticket } from './frontier.js';
import { haveRedisServer, startRedisServer, type RedisServer } from '../test/support/redis-server.js';
import { tempDirs } from '../test/support/temp-dirs.js';

const run = haveRedisServer('the shared frontier tests');
const dirs = tempDirs('gleaner-shared-frontier-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the event loop, as a stalled process does: no heartbeat extends a lease meanwhile. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: timers cannot run
  }
}

describe.skipIf(!run)('SharedFrontier', () => {
  let server: RedisServer;
  let store: Store;
  let db = 0;
  const warnings: string[] = [];
  const options = (leaseMs: number, requestMs = 100): SharedFrontierOptions => ({
    workerId: 'w1',
    leaseMs,
    pollMs: 50,
    countsIntervalMs: 1000,
    delayMs: 0,
    requestMs,
    batchUrls: 1,
    redisTimeoutMs: 5000,
    commitBatch: { maxPages: 3, lingerMs: 10_000 },
    hostOf: (url) => new URL(url).origin,
    log: (level, msg) => {
      if (level === 'warn') warnings.push(msg);
    },
  });

  beforeAll(async () => {
    server = await startRedisServer(await dirs.make());
    store = await openStore(await dirs.make());
  });
  afterAll(async () => {
    await store.close();
    await server.stop();
    await dirs.removeAll();
  });

  /** A frontier on a fresh db with one URL queued, and the ticket it hands out. */
  async function leased(leaseMs: number, requestMs?: number): Promise<{ f: SharedFrontier; ticket: Ticket }> {
    db++;
    const f = await SharedFrontier.open(server.url(db), store, options(leaseMs, requestMs));
    await f.start([{ url: 'http://a.test/page', depth: 0, via: 'seed' }], []);
    for (;;) {
      const pick = await f.next();
      if ('ticket' in pick) return { f, ticket: pick.ticket };
      if ('empty' in pick) throw new Error('frontier empty');
      await sleep(pick.waitMs);
    }
  }

  it('confirms a live lease by the clock, and one too short for a request by extending it in Redis', async () => {
    // A 2 s lease and a 1.5 s request: after a 600 ms stall the lease no longer covers a request, and
    // is still live however slowly a loaded machine ran the test (it has 1.4 s to spare).
    const { f, ticket } = await leased(2000, 1500);
    expect(await f.confirm(ticket)).toBe(true);
    stall(600);
    expect(await f.confirm(ticket)).toBe(true);
    const redis = new Redis({ path: server.socket, db });
    const deadlineMs = Number(await redis.zscore('gleaner:deadlines', 'http://a.test'));
    const [sec, us] = await redis.time();
    // Without the extension at most 2000 - 600 ms would be left.
    expect(deadlineMs - (Number(sec) * 1000 + Math.floor(Number(us) / 1000))).toBeGreaterThan(1500);
    redis.disconnect();
    await f.close();
  });

  it('stores the pages that end together in one write and finishes them in Redis, their links queued', async () => {
    db++;
    const writes: number[] = [];
    const counted: Store = Object.assign(Object.create(store) as Store, {
      commitPages: (pages: Parameters<Store['commitPages']>[0]) => {
        writes.push(pages.length);
        return store.commitPages(pages);
      },
    });
    const f = await SharedFrontier.open(server.url(db), counted, { ...options(60_000), batchUrls: 4 });
    const urls = ['http://g.test/1', 'http://g.test/2', 'http://g.test/3'];
    await f.start(urls.map((url) => ({ url, depth: 0, via: 'seed' as const })), []);
    const tickets: Ticket[] = [];
    while (tickets.length < 3) {
      const pick = await f.next();
      if (!('ticket' in pick)) throw new Error(`expected a ticket, got ${JSON.stringify(pick)}`);
      tickets.push(pick.ticket);
      f.ended(pick.ticket, performance.now());
    }
    // Three pages to a group (commitBatch.maxPages): the third write sends the group.
    await Promise.all(
      tickets.map((t, i) => f.commit(t, { ...blankPage(t.entry, new Date()), state: 'ok' }, i === 0 ? [{ url: 'http://g.test/4', depth: 1, via: 'link' }] : [], {} as CrawlStats, [`http://elsewhere.test/${String(i)}`])),
    );
    expect(writes).toEqual([3]);
    for (const url of urls) expect((await store.getPage(url))?.url).toBe(url);
    const refused: string[] = [];
    for await (const url of store.refusedUrls()) refused.push(url);
    expect(refused).toEqual(expect.arrayContaining(['http://elsewhere.test/0', 'http://elsewhere.test/1', 'http://elsewhere.test/2']));
    const redis = await RedisFrontier.open(server.url(db));
    expect(await redis.counts()).toMatchObject({ done: 3, pending: 0, queued: 1 });
    await redis.close();
    await f.close();
  });

  it('refuses a ticket whose lease ran out while the process stalled and its host went to another process', async () => {
    warnings.length = 0; // this test's warnings only
    const { f, ticket } = await leased(300);
    stall(400);
    // Another process takes the expired lease's host.
    const other = await RedisFrontier.open(server.url(db));
    const r = await other.lease('w2', 60_000);
    expect(r.kind).toBe('lease');
    expect(await f.confirm(ticket)).toBe(false);
    // Giving the ticket back changes nothing of the other's lease.
    await f.again(ticket);
    expect(warnings.some((w) => w.includes('lease expired'))).toBe(true);
    expect(await other.counts()).toMatchObject({ leased: 1, queued: 0 });
    await other.close();
    await f.close();
  });

  it('asks a URL that failed again after its host\'s other URLs, a batch\'s included, as one machine does', async () => {
    db++;
    const f = await SharedFrontier.open(server.url(db), store, { ...options(60_000), batchUrls: 3, commitBatch: { maxPages: 1, lingerMs: 0 } });
    const urls = ['http://r.test/1', 'http://r.test/2', 'http://r.test/3', 'http://r.test/4'];
    await f.start([{ url: 'http://r.test/', depth: 0, via: 'seed' }], []);
    await f.add(urls.map((url) => ({ url, depth: 1, via: 'link' as const })));
    const asked: string[] = [];
    for (;;) {
      const pick = await f.next();
      if ('empty' in pick) break;
      if ('waitMs' in pick) {
        await sleep(pick.waitMs);
        continue;
      }
      const { ticket } = pick;
      asked.push(ticket.entry.url);
      // As crawl.ts retries: the request ended (the batch goes on), then the URL goes last, once.
      f.ended(ticket, performance.now());
      if (ticket.entry.url === 'http://r.test/1' && asked.filter((u) => u === ticket.entry.url).length === 1) await f.again(ticket, 'last');
      else await f.commit(ticket, { ...blankPage(ticket.entry, new Date()), state: 'ok' }, [], {} as CrawlStats, []);
    }
    expect(asked).toEqual(['http://r.test/', ...urls, 'http://r.test/1']);
    await f.close();
  });
});
