// The shared frontier against a real redis-server (test/support/redis-server.ts), on a unix socket in a
// temp dir with appendonly yes and appendfsync always. Every time measured here is Redis's own (TIME).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createServer, type AddressInfo } from 'node:net';
import { RedisFrontier, type RedisEntry, type FrontierLease } from './frontier-redis.js';
import { isGleanerError } from '../shared/errors.js';
import { haveRedisServer, startRedisServer, type RedisServer } from '../test/support/redis-server.js';
import { tempDirs } from '../test/support/temp-dirs.js';

const run = haveRedisServer('the Redis frontier tests');
const dirs = tempDirs('gleaner-redis-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!run)('RedisFrontier', () => {
  let server: RedisServer;
  let admin: Redis;
  const open: RedisFrontier[] = [];

  /** A frontier on db 0, emptied first; closed after the test file. */
  async function fresh(): Promise<RedisFrontier> {
    await admin.flushdb();
    return another();
  }
  async function another(): Promise<RedisFrontier> {
    const f = await RedisFrontier.open(server.url(0));
    open.push(f);
    return f;
  }
  async function leaseOf(f: RedisFrontier, worker = 'w', leaseMs = 60_000): Promise<FrontierLease> {
    const r = await f.lease(worker, leaseMs);
    if (r.kind !== 'lease') throw new Error(`expected a lease, got ${JSON.stringify(r)}`);
    return r.lease;
  }
  /** Leases as soon as a host is ready (polling every 10 ms). */
  async function leaseWhenReady(f: RedisFrontier, worker: string): Promise<FrontierLease> {
    for (;;) {
      const r = await f.lease(worker, 60_000);
      if (r.kind === 'lease') return r.lease;
      if (r.kind === 'empty') throw new Error('frontier empty');
      await sleep(Math.min(r.waitMs, 10));
    }
  }
  /** Leases and completes (delay 0) until the frontier is empty; the URLs in the order leased. */
  async function drain(f: RedisFrontier, worker: string, linksOf: (url: string) => RedisEntry[] = () => []): Promise<string[]> {
    const urls: string[] = [];
    while ((await f.counts()).queued > 0) {
      const l = await leaseWhenReady(f, worker);
      urls.push(`${l.url}@${String(l.depth)}`);
      expect((await f.complete(l, { delayMs: 0, newLinks: linksOf(l.url) })).kind).toBe('ok');
    }
    return urls;
  }
  const entries = (urls: string[], depth = 0): RedisEntry[] => urls.map((url) => ({ url, depth }));

  beforeAll(async () => {
    server = await startRedisServer(await dirs.make());
    admin = new Redis({ path: server.socket, lazyConnect: true, maxRetriesPerRequest: null });
    // It reconnects by itself after the kill -9 test; its connection errors meanwhile are expected.
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    for (const f of open.splice(0)) await f.close();
    admin.disconnect();
    await server.stop();
    await dirs.removeAll();
  });
  beforeEach(async () => {
    for (const f of open.splice(0)) await f.close();
  });

  it('gives each host its URLs breadth-first: by depth, then in the order they were queued', async () => {
    const f = await fresh();
    await f.add([
      { url: 'http://a.test/d2', depth: 2 },
      { url: 'http://a.test/d0-first', depth: 0 },
      { url: 'http://a.test/d1', depth: 1 },
      { url: 'http://a.test/d0-second', depth: 0 },
    ]);
    // A link found at depth 0 comes after the depth-1 URL queued before it, ahead of depth 2.
    const order = await drain(f, 'w', (url) => (url.endsWith('d0-first') ? [{ url: 'http://a.test/d1-link', depth: 1 }] : []));
    expect(order).toEqual(['http://a.test/d0-first@0', 'http://a.test/d0-second@0', 'http://a.test/d1@1', 'http://a.test/d1-link@1', 'http://a.test/d2@2']);
  });

  it('frees a host when its request ends: the next URL may be leased after the delay while the page is pending, and finish queues its links', async () => {
    const f = await fresh();
    const g = await another();
    await f.add([{ url: 'http://a.test/1', depth: 0, data: '{"via":"seed"}' }, { url: 'http://a.test/2', depth: 0 }]);
    const first = await leaseOf(f, 'w1');
    expect(first.data).toBe('{"via":"seed"}');
    // 1 s: the lease call below comes well within it, however loaded the machine.
    const freed = await f.free(first, 1000);
    if (freed.kind !== 'ok') throw new Error('not freed');
    expect(await g.lease('w2', 60_000)).toMatchObject({ kind: 'wait' });
    const second = await leaseWhenReady(g, 'w2');
    expect(second.url).toBe('http://a.test/2');
    expect(second.nowMs).toBeGreaterThanOrEqual(freed.nextAllowedMs);
    expect(await f.counts()).toMatchObject({ pending: 1, leased: 1 });
    expect((await g.complete(second, { delayMs: 0 })).kind).toBe('ok');
    // Nothing queued or leased, but a page pending: its links may still come, so not empty.
    expect((await g.lease('w2', 60_000)).kind).toBe('wait');
    expect(await f.finish(first, { newLinks: entries(['http://a.test/3', 'http://a.test/1']) })).toEqual({ kind: 'ok', linksAdded: 1 });
    expect((await f.finish(first, {})).kind).toBe('stale');
    expect(await f.counts()).toMatchObject({ pending: 0, done: 2, queued: 1 });
  });

  it('finishes several pending pages in one round trip, each on its own: a stale one changes nothing, and a script Redis forgot is loaded again', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://b.test/1', 'http://c.test/1']));
    const leases = [await leaseOf(f, 'w'), await leaseOf(f, 'w'), await leaseOf(f, 'w')];
    for (const l of leases) expect((await f.free(l, 0)).kind).toBe('ok');
    expect(await f.finish(leases[1]!, {})).toEqual({ kind: 'ok', linksAdded: 0 });
    // Redis restarted without its scripts: every call of the pipeline is refused NOSCRIPT, then run again.
    await admin.script('FLUSH');
    const results = await f.finishAll([
      { lease: leases[0]!, done: { newLinks: entries(['http://a.test/2', 'http://b.test/1']) } },
      { lease: leases[1]!, done: { newLinks: entries(['http://b.test/2']) } },
      { lease: leases[2]!, done: { newLinks: entries(['http://c.test/2', 'http://c.test/3']), outcome: 'gone' } },
    ]);
    expect(results).toEqual([{ kind: 'ok', linksAdded: 1 }, { kind: 'stale' }, { kind: 'ok', linksAdded: 2 }]);
    // b.test/2 came with the stale finish: not queued.
    expect(await f.counts()).toMatchObject({ pending: 0, done: 3, queued: 3, seen: 6 });
  });

  it('leases the host\'s next URL in the same step as freeing it, only when no delay is left', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']));
    const first = await leaseOf(f, 'w1');
    const renewed = await f.free(first, 0, { workerId: 'w1', leaseMs: 60_000 });
    expect(renewed).toMatchObject({ kind: 'ok', next: { url: 'http://a.test/2', host: 'http://a.test' } });
    if (renewed.kind !== 'ok' || !renewed.next) throw new Error('no renewed lease');
    expect(await f.lease('w2', 60_000)).toMatchObject({ kind: 'wait' });
    const later = await f.free(renewed.next, 200, { workerId: 'w1', leaseMs: 60_000 });
    expect(later).toMatchObject({ kind: 'ok' });
    expect(later.kind === 'ok' ? later.next : 'stale').toBeUndefined();
    expect((await leaseWhenReady(f, 'w2')).url).toBe('http://a.test/3');
  });

  it('leases a host whose delay is 0 in batches: every URL pending from the start, the host held until freed, those not asked given back first', async () => {
    const f = await fresh();
    const g = await another();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://a.test/4', 'http://a.test/5', 'http://a.test/6']));
    const first = await f.lease('w1', 60_000, undefined, 4);
    if (first.kind !== 'lease') throw new Error('no lease');
    expect(first.lease.more).toBeUndefined(); // the host's delay is not known yet
    const freed = await f.free(first.lease, 0, { workerId: 'w1', leaseMs: 60_000, batch: 4 });
    const batch = freed.kind === 'ok' ? freed.next : undefined;
    if (!batch?.more) throw new Error(`no batch: ${JSON.stringify(freed)}`);
    expect([batch.url, ...batch.more.map((l) => l.url)]).toEqual(['http://a.test/2', 'http://a.test/3', 'http://a.test/4', 'http://a.test/5']);
    expect(new Set(batch.more.map((l) => l.token))).toEqual(new Set([batch.token]));
    expect(await f.counts()).toMatchObject({ queued: 1, leased: 1, pending: 5 });
    expect(await g.lease('w2', 60_000, undefined, 4)).toMatchObject({ kind: 'wait' }); // one lease per host
    expect((await f.finish(first.lease, {})).kind).toBe('ok');
    expect((await f.finish(batch, {})).kind).toBe('ok');
    expect(await f.finish(batch.more[0]!, { newLinks: entries(['http://a.test/7']) })).toEqual({ kind: 'ok', linksAdded: 1 });
    // Cut short: the two not asked go back, ahead of the URLs queued after them.
    expect((await f.free(batch, 0, undefined, [batch.more[1]!.url, batch.more[2]!.url])).kind).toBe('ok');
    expect(await f.counts()).toMatchObject({ queued: 4, leased: 0, pending: 0, done: 3 });
    const next = await g.lease('w2', 60_000, undefined, 4);
    if (next.kind !== 'lease' || !next.lease.more) throw new Error(`no batch: ${JSON.stringify(next)}`);
    expect([next.lease.url, ...next.lease.more.map((l) => l.url)]).toEqual(['http://a.test/4', 'http://a.test/5', 'http://a.test/6', 'http://a.test/7']);
  });

  it('keeps a batch live while it is extended, gives it again to a lease call sent twice, and takes it back URL by URL when it expires', async () => {
    const f = await fresh();
    const g = await another();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']));
    const first = await leaseOf(f, 'w1');
    await f.free(first, 0);
    expect((await f.finish(first, {})).kind).toBe('ok');
    // Seconds, not milliseconds, between each step and the deadline it must beat: a loaded machine
    // ran a 300 ms version of this test with 50 ms to spare.
    const batch = await f.lease('w1', 2000, 'r:b', 3);
    expect(await f.lease('w1', 2000, 'r:b', 3)).toMatchObject({ kind: 'lease', lease: { token: (batch as { lease: FrontierLease }).lease.token, more: [{ url: 'http://a.test/3' }] } });
    if (batch.kind !== 'lease' || !batch.lease.more) throw new Error('no batch');
    await sleep(1000);
    expect((await f.extend(batch.lease, 3000)).kind).toBe('ok');
    await sleep(1500); // past the first deadline: the extension held the lease and both pending URLs
    expect(await g.lease('w2', 60_000, undefined, 3)).toMatchObject({ kind: 'wait' });
    await sleep(2000);
    const again = await g.lease('w2', 60_000, undefined, 3);
    if (again.kind !== 'lease') throw new Error('not taken back');
    expect([again.lease.url, ...(again.lease.more ?? []).map((l) => l.url)]).toEqual(['http://a.test/2', 'http://a.test/3']);
    expect((await f.finish(batch.lease.more[0]!, {})).kind).toBe('stale');
    expect(await f.counts()).toMatchObject({ reclaimed: 3 });
  });

  it('answers a lease or free sent again after a lost answer as the first call did, instead of orphaning a lease', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://b.test/1']));
    const first = await f.lease('w1', 60_000, 'r:same');
    const again = await f.lease('w1', 60_000, 'r:same');
    expect(again).toEqual({ ...first, lease: { ...(first as { lease: FrontierLease }).lease, nowMs: (again as { lease: FrontierLease }).lease.nowMs } });
    if (first.kind !== 'lease') throw new Error('no lease');
    // A new request id is a new lease (another host: this one is leased).
    expect(await f.lease('w1', 60_000, 'r:other')).toMatchObject({ kind: 'lease' });
    expect(await f.counts()).toMatchObject({ leased: 2 });
    const renew = { workerId: 'w1', leaseMs: 60_000 };
    // Ready hosts of equal time come in name order: a.test first, whose second URL the renewal takes.
    expect(first.lease.host).toBe('http://a.test');
    const a = first.lease;
    const freed = await f.free(a, 0, renew);
    const freedAgain = await f.free(a, 0, renew);
    expect(freed).toMatchObject({ kind: 'ok', next: { url: 'http://a.test/2' } });
    expect(freedAgain).toMatchObject({ kind: 'ok', next: { url: 'http://a.test/2', token: (freed as { next: FrontierLease }).next.token } });
    expect(await f.counts()).toMatchObject({ pending: 1, leased: 2 });
  });

  it('takes a pending page back when its deadline passes, and requeue puts one back at once', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://b.test/1']));
    // Seconds between the steps and a's deadline: five round trips to Redis on a loaded machine.
    const a = await leaseOf(f, 'w1', 3000);
    const b = await leaseOf(f, 'w1', 60_000);
    expect((await f.free(a, 0)).kind).toBe('ok');
    expect((await f.free(b, 0)).kind).toBe('ok');
    expect((await f.requeue(b)).kind).toBe('ok');
    expect((await leaseOf(f, 'w2')).url).toBe('http://b.test/1');
    await sleep(3100);
    const again = await leaseOf(f, 'w2');
    expect(again.url).toBe('http://a.test/1');
    expect((await f.finish(a, {})).kind).toBe('stale');
    expect((await f.extendPending(a, 60_000)).kind).toBe('stale');
    expect(await f.counts()).toMatchObject({ reclaimed: 1, pending: 0 });
  });

  it('keeps an exact seen set: a URL queued twice is queued once, and 10,000 distinct URLs are all kept', async () => {
    const f = await fresh();
    expect(await f.add(entries(['http://a.test/x', 'http://a.test/x']))).toBe(1);
    expect(await f.add(entries(['http://a.test/x']))).toBe(0);
    const urls = Array.from({ length: 10_000 }, (_, i) => `http://h${String(i % 50)}.test/page/${String(i)}`);
    expect(await f.add(entries(urls))).toBe(10_000);
    // All kept: each is in the seen set (none is queued again). Draining them all is left to the
    // smaller tests: with fsync at every write it takes tens of seconds here.
    expect(await f.add(entries(urls))).toBe(0);
    expect(await f.counts()).toMatchObject({ queued: 10_001, seen: 10_001 });
  });

  it('holds one live lease per host: two workers asking at once get two hosts, or one waits', async () => {
    const f = await fresh();
    const g = await another();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://b.test/1']));
    const [x, y] = await Promise.all([f.lease('w1', 60_000), g.lease('w2', 60_000)]);
    if (x.kind !== 'lease' || y.kind !== 'lease') throw new Error(JSON.stringify([x, y]));
    expect(new Set([x.lease.host, y.lease.host])).toEqual(new Set(['http://a.test', 'http://b.test']));
    expect(x.lease.token).not.toBe(y.lease.token);
    // a.test still has a URL queued, but its lease is live: nobody gets it.
    const third = await f.lease('w3', 60_000);
    expect(third.kind).toBe('wait');

    const h = await fresh();
    const h2 = await another();
    await h.add(entries(['http://a.test/1', 'http://a.test/2']));
    const both = await Promise.all([h.lease('w1', 60_000), h2.lease('w2', 60_000)]);
    expect(both.map((r) => r.kind).sort()).toEqual(['lease', 'wait']);
  });

  it('makes a host wait its delay after the completion, on Redis time, for every worker', async () => {
    const f = await fresh();
    const g = await another();
    await f.add(entries(['http://a.test/1', 'http://a.test/2']));
    const first = await leaseOf(f, 'w1');
    const before = await f.redisTimeMs();
    const done = await f.complete(first, { delayMs: 300 });
    const after = await f.redisTimeMs();
    if (done.kind !== 'ok') throw new Error('stale');
    expect(done.nextAllowedMs).toBeGreaterThanOrEqual(before + 300);
    expect(done.nextAllowedMs).toBeLessThanOrEqual(after + 300);
    const early = await g.lease('w2', 60_000);
    // Asked at once, it waits (unless this machine stalled for the whole delay: then the lease below
    // is that one, and must still be on time).
    if (early.kind === 'wait') expect(early.waitMs).toBeLessThanOrEqual(300);
    const second = early.kind === 'lease' ? early.lease : await leaseWhenReady(g, 'w2');
    expect(second.url).toBe('http://a.test/2');
    expect(second.nowMs).toBeGreaterThanOrEqual(done.nextAllowedMs);
    expect(second.nowMs - before).toBeGreaterThanOrEqual(300);
  });

  it('gives an expired lease\'s URL again with a new token; the old token then changes nothing', async () => {
    const f = await fresh();
    const g = await another();
    await f.add(entries(['http://a.test/slow', 'http://a.test/next']));
    const old = await leaseOf(f, 'stalled', 100);
    await sleep(150);
    const countsBefore = await f.counts();
    // Expired, not reclaimed yet: still refused.
    expect(await f.complete(old, { delayMs: 0, newLinks: entries(['http://a.test/from-stale']) })).toEqual({ kind: 'stale' });
    expect(await f.release(old, 0)).toEqual({ kind: 'stale' });
    expect(await f.extend(old, 60_000)).toEqual({ kind: 'stale' });
    expect(await f.counts()).toEqual(countsBefore);
    const again = await leaseOf(g, 'alive');
    expect(again.url).toBe('http://a.test/slow');
    expect(again.token).not.toBe(old.token);
    const counts = await f.counts();
    expect(counts).toMatchObject({ queued: 1, leased: 1, done: 0, seen: 2, reclaimed: 1 });
    // Re-leased: the stalled worker's return changes nothing (queue, done, links).
    expect(await f.complete(old, { delayMs: 0, newLinks: entries(['http://a.test/from-stale']) })).toEqual({ kind: 'stale' });
    expect(await f.release(old, 0)).toEqual({ kind: 'stale' });
    expect(await f.counts()).toEqual(counts);
    expect(await f.add(entries(['http://a.test/from-stale']))).toBe(1);
    expect(await g.complete(again, { delayMs: 0 })).toMatchObject({ kind: 'ok' });
    // Returned already: a second return is stale too.
    expect(await g.complete(again, { delayMs: 0 })).toEqual({ kind: 'stale' });
    expect((await f.counts()).done).toBe(1);
  });

  it('asks an expired lease\'s host again only its last delay after the deadline', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://a.test/2']));
    await f.complete(await leaseOf(f), { delayMs: 200 });
    // The dead worker's request may have run until its deadline: the delay counts from there.
    const dead = await leaseWhenReady(f, 'dies');
    const short = await f.extend(dead, 50);
    if (short.kind !== 'ok') throw new Error('stale');
    const again = await leaseWhenReady(f, 'alive');
    expect(again.url).toBe(dead.url);
    expect(again.nowMs).toBeGreaterThanOrEqual(short.deadlineMs + 200);
  });

  it('keeps an extended lease live past its first deadline', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/long-download']));
    // Extended well before the first deadline, however loaded the machine.
    const l = await leaseOf(f, 'w', 3000);
    const first = l.deadlineMs;
    const r = await f.extend(l, 60_000);
    expect(r.kind).toBe('ok');
    expect(l.deadlineMs).toBeGreaterThan(first);
    await sleep(3100);
    expect((await f.lease('other', 60_000)).kind).toBe('wait');
    expect(await f.complete(l, { delayMs: 0 })).toMatchObject({ kind: 'ok' });
  });

  it('puts a released URL back at the front of its host queue, the host waiting the delay', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://a.test/2']));
    const l = await leaseOf(f);
    const r = await f.release(l, 200);
    if (r.kind !== 'ok') throw new Error('stale');
    const next = await leaseWhenReady(f, 'w');
    expect(next.url).toBe('http://a.test/1');
    expect(next.nowMs).toBeGreaterThanOrEqual(r.nextAllowedMs);
  });

  it('puts a URL released or requeued `last` behind every URL of its host, deeper ones too, its depth kept', async () => {
    const f = await fresh();
    await f.add([...entries(['http://a.test/broken1', 'http://a.test/broken2'], 1), ...entries(['http://a.test/deep'], 3), ...entries(['http://a.test/next'], 1)]);
    const one = await leaseOf(f);
    expect((await f.release(one, 0, 'last')).kind).toBe('ok');
    const two = await leaseWhenReady(f, 'w');
    expect((await f.free(two, 0)).kind).toBe('ok');
    expect((await f.requeue(two, 'last')).kind).toBe('ok');
    // The fresh URLs first, by depth; then the retries in the order they failed, each at its own depth.
    expect(await drain(f, 'w')).toEqual(['http://a.test/next@1', 'http://a.test/deep@3', 'http://a.test/broken1@1', 'http://a.test/broken2@1']);
  });

  it('holds a host\'s retries while a page of it is pending: the links it finds go first, a batch stops before them', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/broken', 'http://a.test/hub'], 1));
    const broken = await leaseOf(f);
    expect(broken.url).toBe('http://a.test/broken');
    expect((await f.free(broken, 0)).kind).toBe('ok');
    expect((await f.requeue(broken, 'last')).kind).toBe('ok');
    const hub = await leaseWhenReady(f, 'w');
    expect(hub.url).toBe('http://a.test/hub');
    // Its request is over, its page is being stored: only the retry is queued, and it waits.
    expect((await f.free(hub, 0)).kind).toBe('ok');
    expect((await f.lease('w', 60_000)).kind).toBe('wait');
    expect((await f.finish(hub, { newLinks: entries(['http://a.test/deeper1', 'http://a.test/deeper2', 'http://a.test/deeper3'], 2) })).kind).toBe('ok');
    // A batch of up to four takes the three fresh URLs and stops before the retry.
    const batch = await f.lease('w', 60_000, undefined, 4);
    if (batch.kind !== 'lease') throw new Error(`expected a lease, got ${JSON.stringify(batch)}`);
    const taken = [batch.lease.url, ...(batch.lease.more ?? []).map((u) => u.url)];
    expect(taken).toEqual(['http://a.test/deeper1', 'http://a.test/deeper2', 'http://a.test/deeper3']);
    expect((await f.free(batch.lease, 0, undefined, taken)).kind).toBe('ok');
    expect(await drain(f, 'w')).toEqual(['http://a.test/deeper1@2', 'http://a.test/deeper2@2', 'http://a.test/deeper3@2', 'http://a.test/broken@1']);
  });

  it('refuses a db holding another program\'s keys, and leaves them untouched', async () => {
    await admin.flushdb();
    await admin.set('session:42', 'someone else');
    const err: unknown = await RedisFrontier.open(server.url(0)).catch((e: unknown) => e);
    expect(isGleanerError(err) && err.code).toBe('BAD_ARGUMENT');
    expect(String(err)).toMatch(/another program/);
    expect(await admin.keys('*')).toEqual(['session:42']);
    // A db the frontier already marked is resumed, not refused.
    await admin.flushdb();
    const f = await another();
    await f.add(entries(['http://a.test/1']));
    await f.close();
    expect((await (await another()).counts()).seen).toBe(1);
  });

  it('fails with one clear error when Redis cannot be reached', async () => {
    const dir = await dirs.make();
    for (const url of [`unix://${dir}/absent.sock`, 'redis://127.0.0.1:1/0']) {
      const err: unknown = await RedisFrontier.open(url, { connectTimeoutMs: 2000 }).catch((e: unknown) => e);
      expect(isGleanerError(err) && err.code).toBe('UNREACHABLE');
      expect((err as Error).message).toMatch(/^cannot reach the Redis frontier at .+: .+/);
      expect((err as Error).message).not.toContain('\n');
    }
    // A server that takes the connection and never answers: the connect deadline ends the wait.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    const hung: unknown = await RedisFrontier.open(`redis://127.0.0.1:${String(port)}/0`, { connectTimeoutMs: 500 }).catch((e: unknown) => e);
    silent.close();
    expect(isGleanerError(hung) && hung.code).toBe('UNREACHABLE');
    expect((hung as Error).message).toMatch(/no answer within 500 ms/);
    const bad: unknown = await RedisFrontier.open('http://example.test/').catch((e: unknown) => e);
    expect(isGleanerError(bad) && bad.code).toBe('BAD_ARGUMENT');
  });

  it('once a call went unanswered for the command timeout, fails every later call and closes at once, not a timeout each', async () => {
    await admin.flushdb();
    const f = await RedisFrontier.open(server.url(0), { commandTimeoutMs: 500 });
    await f.add([{ url: 'http://a.test/1', depth: 0 }]);
    server.pause();
    try {
      const first: unknown = await f.lease('w', 60_000).catch((e: unknown) => e);
      expect(isGleanerError(first) && first.code).toBe('UNREACHABLE');
      // The crawl stops on the first; what it sends as it stops must not hold the exit a timeout each.
      const started = performance.now();
      const later = await Promise.all([f.lease('w', 60_000), f.counts(), f.add([{ url: 'http://a.test/2', depth: 0 }])].map((p) => p.catch((e: unknown) => e)));
      await f.close();
      expect(performance.now() - started).toBeLessThan(250);
      for (const e of later) expect(e).toBe(first);
    } finally {
      server.resume();
    }
  });

  it('fails a write Redis refuses for want of memory (maxmemory, noeviction) as a full store, in one line', async () => {
    await admin.flushdb();
    const f = await RedisFrontier.open(server.url(0));
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1');
    try {
      const err: unknown = await f.add([{ url: 'http://a.test/1', depth: 0 }]).catch((e: unknown) => e);
      expect(isGleanerError(err) && err.code).toBe('DATA_DIR');
      expect((err as Error).message).toMatch(/^the Redis frontier at .* is full \(OOM .*\): raise its maxmemory/);
      const atOpen: unknown = await RedisFrontier.open(server.url(1)).catch((e: unknown) => e);
      expect(isGleanerError(atOpen) && atOpen.code).toBe('DATA_DIR');
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
  });

  it('refuses a db number the server does not have, rather than writing into db 0', async () => {
    await admin.flushdb();
    const err: unknown = await RedisFrontier.open(server.url(99)).catch((e: unknown) => e);
    expect(isGleanerError(err) && err.code).toBe('BAD_ARGUMENT');
    expect((err as Error).message).toMatch(/has no database 99/);
    expect(await admin.dbsize()).toBe(0);
  });

  it('keeps queue, seen set and leases across a kill -9 of redis-server (append-only file, fsync always); workers ride through', async () => {
    const f = await fresh();
    await f.add(entries(['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://c.test/1']));
    const done = await leaseOf(f, 'w1');
    await f.complete(done, { delayMs: 0, newLinks: entries(['http://a.test/link'], 1) });
    const held = await leaseOf(f, 'w1');
    const before = await f.counts();
    await server.kill9();
    // A worker asking while Redis is down waits, and goes on once it is back (its scripts reloaded).
    const asked = f.counts();
    await sleep(200);
    await server.start();
    expect(await asked).toEqual(before);
    const g = await another();
    expect(await g.counts()).toEqual(before);
    expect(await g.add(entries(['http://a.test/1', 'http://a.test/link']))).toBe(0);
    // The lease survived with its token: its holder returns it.
    expect(await f.complete(held, { delayMs: 0 })).toMatchObject({ kind: 'ok' });
    const rest = (await drain(g, 'w2')).map((u) => u.replace(/@\d+$/, ''));
    expect([done.url, held.url, ...rest].sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/link', 'http://b.test/1', 'http://c.test/1']);
  });

  it('never gives two live leases of one host, nor loses or repeats a URL, whatever workers do (property)', async () => {
    const hosts = ['http://a.test', 'http://b.test', 'http://c.test'];
    const url = fc.tuple(fc.constantFrom(...hosts), fc.integer({ min: 0, max: 12 })).map(([h, n]) => `${h}/p${String(n)}`);
    let batches = 0;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), urls: fc.array(url, { maxLength: 4 }) }),
      // A short lease (2 ms) expires before the next step: its worker has stalled.
      // A batch lease (3 URLs) when the host's last delay was 0.
      fc.record({ kind: fc.constant('lease' as const), worker: fc.nat(3), short: fc.boolean(), batch: fc.boolean() }),
      fc.record({ kind: fc.constant('complete' as const), worker: fc.nat(3), links: fc.array(url, { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('release' as const), worker: fc.nat(3), last: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(url, { minLength: 1, maxLength: 5 }), fc.array(op, { maxLength: 25 }), fc.boolean(), async (seeds, ops, batchFirst) => {
        for (const x of open.splice(0)) await x.close();
        const f = await fresh();
        const workers = [f, await another(), await another(), f];
        const held = new Map<number, FrontierLease>();
        /** Every live-at-grant lease: host -> its deadline. */
        const liveUntil = new Map<string, number>();
        const completed: string[] = [];
        const expected = new Set<string>();
        const grant = (l: FrontierLease) => {
          const until = liveUntil.get(l.host);
          // Another lease of this host may exist only if it was past its deadline.
          if (until !== undefined) expect(until).toBeLessThanOrEqual(l.nowMs);
          liveUntil.set(l.host, l.deadlineMs);
        };
        /** Done with a lease: a single one completed, a batch's URLs each finished and its host freed. */
        const done = async (w: number, l: FrontierLease, links: string[]) => {
          if (!l.more) {
            if ((await workers[w]!.complete(l, { delayMs: 0, newLinks: entries(links, 1) })).kind !== 'ok') return;
            completed.push(l.url);
            for (const u of links) expected.add(u);
            liveUntil.delete(l.host);
            return;
          }
          for (const u of [l, ...l.more]) {
            if ((await workers[w]!.finish(u, { newLinks: entries(u === l ? links : [], 1) })).kind !== 'ok') continue;
            completed.push(u.url);
            if (u === l) for (const x of links) expected.add(x);
          }
          if ((await workers[w]!.free(l, 0)).kind === 'ok') liveUntil.delete(l.host);
        };
        await f.add(entries(seeds));
        for (const s of seeds) expected.add(s);
        // As if each host had been asked before with no delay, so a batch may be taken from the start.
        if (batchFirst) for (const h of hosts) await admin.hset('gleaner:delay', h, '0');
        for (const o of ops) {
          if (o.kind === 'add') {
            await f.add(entries(o.urls));
            for (const u of o.urls) expected.add(u);
          } else if (o.kind === 'lease') {
            if (held.has(o.worker)) continue;
            const r = await workers[o.worker]!.lease(`w${String(o.worker)}`, o.short ? 2 : 60_000, undefined, o.batch ? 3 : 1);
            if (r.kind === 'lease') {
              grant(r.lease);
              held.set(o.worker, r.lease);
              if (r.lease.more) batches++;
              if (o.short) await sleep(4);
            }
          } else {
            const l = held.get(o.worker);
            if (l === undefined) continue;
            held.delete(o.worker);
            if (o.kind === 'complete') await done(o.worker, l, o.links);
            else if (l.more && o.last) {
              // Every URL of the batch asked and failed: pending once the host is freed, then each a retry.
              if ((await workers[o.worker]!.free(l, 0)).kind === 'ok') liveUntil.delete(l.host);
              for (const u of [l, ...l.more]) await workers[o.worker]!.requeue(u, 'last');
            } else if (l.more) {
              if ((await workers[o.worker]!.free(l, 0, undefined, [l.url, ...l.more.map((u) => u.url)])).kind === 'ok') liveUntil.delete(l.host);
            } else if ((await workers[o.worker]!.release(l, 0, o.last ? 'last' : 'its-place')).kind === 'ok') liveUntil.delete(l.host);
          }
        }
        // Everyone still holding returns (stale for the expired ones), then one worker drains the rest.
        for (const [w, l] of held) await done(w, l, []);
        for (;;) {
          const r = await f.lease('drain', 60_000);
          if (r.kind === 'empty') break;
          if (r.kind === 'wait') {
            await sleep(Math.min(r.waitMs, 10));
            continue;
          }
          grant(r.lease);
          expect((await f.complete(r.lease, { delayMs: 0 })).kind).toBe('ok');
          liveUntil.delete(r.lease.host);
          completed.push(r.lease.url);
        }
        expect([...completed].sort()).toEqual([...expected].sort());
        expect(await f.counts()).toMatchObject({ queued: 0, leased: 0, done: expected.size, seen: expected.size });
      }),
      { numRuns: 40 },
    );
    expect(batches).toBeGreaterThan(0); // the runs did take batch leases
  });
});
