import { describe, expect, it } from 'vitest';
import type { QueuedEntry } from '../shared/store/index.js';
import { originOf } from '../shared/url.js';
import { HostScheduler } from './scheduler.js';

let seq = 0;
const entry = (url: string, depth = 0): QueuedEntry => ({ url, depth, via: 'link', id: String(seq++) });

describe('HostScheduler: one request per host at a time, at its delay, shallowest first', () => {
  it('never hands out a second URL of a busy host', () => {
    const s = new HostScheduler(originOf, 1000);
    s.add(entry('http://a/1'));
    s.add(entry('http://a/2'));
    const first = s.next(0);
    expect('entry' in first && first.entry.url).toBe('http://a/1');
    expect(s.next(0)).toEqual({ empty: true });
  });

  it('hands a large queue out in the order it was queued, added to while it drains, and clears what is left', () => {
    const s = new HostScheduler(originOf, 0);
    for (let i = 0; i < 5_000; i++) s.add(entry(`http://a/${i}`));
    const out: string[] = [];
    for (let i = 0; i < 4_000; i++) {
      const pick = s.next(i);
      if (!('entry' in pick)) throw new Error('no entry');
      out.push(pick.entry.url);
      s.releaseWithoutRequest('http://a');
      if (i % 2 === 0) s.add(entry(`http://a/later-${i}`));
    }
    expect(out).toEqual(Array.from({ length: 4_000 }, (_, i) => `http://a/${i}`));
    expect(s.size).toBe(1_000 + 2_000);
    const left = s.clearHost('http://a').map((e) => e.url);
    expect(left.slice(0, 2)).toEqual(['http://a/4000', 'http://a/4001']);
    expect(left.at(-1)).toBe('http://a/later-3998');
    expect(s.size).toBe(0);
  });

  it('waits the host delay after a request, and says how long', () => {
    const s = new HostScheduler(originOf, 1000);
    s.add(entry('http://a/1'));
    s.add(entry('http://a/2'));
    s.next(0);
    s.release('http://a', 100);
    expect(s.next(500)).toEqual({ waitMs: 600 });
    const again = s.next(1100);
    expect('entry' in again && again.entry.url).toBe('http://a/2');
  });

  it('the slowest host is the longest queue at its delay, requests at once shared', () => {
    const s = new HostScheduler(originOf, 1000, 2);
    expect(s.slowestHost()).toBeUndefined();
    for (let i = 0; i < 6; i++) s.add(entry(`http://a/${i}`));
    for (let i = 0; i < 3; i++) s.add(entry(`http://b/${i}`));
    s.setDelay('http://b', 5000);
    // a: 6 x 1 s / 2 at once = 3 s; b: 3 x 5 s / 2 = 7.5 s.
    expect(s.slowestHost()).toEqual({ host: 'http://b', queued: 3, delayMs: 5000, ms: 7500 });
    const none = new HostScheduler(originOf, 0);
    none.add(entry('http://a/1'));
    expect(none.slowestHost()).toBeUndefined();
  });

  it('a slow (busy or waiting) host does not stall another host', () => {
    const s = new HostScheduler(originOf, 1000);
    s.add(entry('http://slow/1'));
    s.add(entry('http://slow/2'));
    s.add(entry('http://fast/1'));
    s.add(entry('http://fast/2'));
    const a = s.next(0);
    const b = s.next(0);
    expect(['entry' in a && a.host, 'entry' in b && b.host].sort()).toEqual(['http://fast', 'http://slow']);
    s.release('http://fast', 0);
    const c = s.next(1000);
    expect('entry' in c && c.entry.url).toBe('http://fast/2');
  });

  it('takes the shallowest ready URL across hosts (breadth-first)', () => {
    const s = new HostScheduler(originOf, 0);
    s.add(entry('http://a/deep', 3));
    s.add(entry('http://b/shallow', 1));
    const p = s.next(0);
    expect('entry' in p && p.entry.url).toBe('http://b/shallow');
  });

  it('a retry goes behind every URL its host has queued, deeper ones included; a host with only retries is still asked', () => {
    const s = new HostScheduler(originOf, 0);
    s.add(entry('http://a/broken1', 1), true);
    s.add(entry('http://a/broken2', 1), true);
    s.add(entry('http://a/deep', 3));
    s.add(entry('http://a/next', 1));
    s.add(entry('http://b/only-retry', 1), true);
    const out: string[] = [];
    for (let pick = s.next(0); 'entry' in pick; pick = s.next(0)) {
      out.push(pick.entry.url);
      s.releaseWithoutRequest(pick.host);
    }
    // Across hosts a retry is picked after any host's fresh URL; each host's retries in the order failed.
    expect(out).toEqual(['http://a/next', 'http://a/deep', 'http://a/broken1', 'http://a/broken2', 'http://b/only-retry']);
    // Cleared with the host like any queued URL, depth kept.
    s.add(entry('http://a/broken3', 2), true);
    expect(s.clearHost('http://a').map((e) => [e.url, e.depth])).toEqual([['http://a/broken3', 2]]);
    expect(s.size).toBe(0);
  });

  it('a retry waits while a page of its host is fetched but not stored: the links it found go first', () => {
    const s = new HostScheduler(originOf, 0);
    s.add(entry('http://a/hub', 1));
    s.add(entry('http://a/broken', 1), true);
    const hub = s.next(0);
    expect('entry' in hub && hub.entry.url).toBe('http://a/hub');
    // The hub's request ended; its page is parsed and stored meanwhile.
    s.release('http://a', 0);
    expect(s.next(0)).toEqual({ empty: true });
    // Stored, with a link found on it: the link is asked before the retry.
    s.add(entry('http://a/deeper', 2));
    s.settled('http://a');
    const after: string[] = [];
    for (let pick = s.next(0); 'entry' in pick; pick = s.next(0)) {
      after.push(pick.entry.url);
      s.releaseWithoutRequest(pick.host);
    }
    expect(after).toEqual(['http://a/deeper', 'http://a/broken']);
  });

  it('a fresh URL is not held by a page of its host still being stored', () => {
    const s = new HostScheduler(originOf, 0);
    s.add(entry('http://a/1', 1));
    s.add(entry('http://a/2', 1));
    s.next(0);
    s.release('http://a', 0);
    const p = s.next(0);
    expect('entry' in p && p.entry.url).toBe('http://a/2');
  });

  it('Retry-After or backoff longer than the delay wins', () => {
    const s = new HostScheduler(originOf, 1000);
    s.add(entry('http://a/1'));
    s.next(0);
    s.release('http://a', 0, 5000);
    s.add(entry('http://a/1'));
    expect(s.next(1000)).toEqual({ waitMs: 4000 });
  });

  it('a pick without a request frees the host at once; idle only when nothing is queued or busy', () => {
    const s = new HostScheduler(originOf, 1000);
    s.add(entry('http://a/1'));
    s.add(entry('http://a/2'));
    s.next(0);
    expect(s.idle).toBe(false);
    s.releaseWithoutRequest('http://a');
    const p = s.next(0);
    expect('entry' in p && p.entry.url).toBe('http://a/2');
    s.releaseWithoutRequest('http://a');
    expect(s.idle).toBe(true);
  });

  it('clearHost drops a host’s queue and keeps the count right', () => {
    const s = new HostScheduler(originOf, 0);
    s.add(entry('http://a/1'));
    s.add(entry('http://a/2', 2));
    s.add(entry('http://b/1'));
    expect(s.clearHost('http://a').map((e) => e.url).sort()).toEqual(['http://a/1', 'http://a/2']);
    expect(s.size).toBe(1);
  });

  it('with more connections per host, hands out that many URLs of one host and no more', () => {
    const s = new HostScheduler(originOf, 0, 3);
    for (let i = 1; i <= 5; i++) s.add(entry(`http://a/${i}`));
    const got = [s.next(0), s.next(0), s.next(0)].map((p) => 'entry' in p && p.entry.url);
    expect(got).toEqual(['http://a/1', 'http://a/2', 'http://a/3']);
    expect(s.next(0)).toEqual({ empty: true });
    s.release('http://a', 0);
    const fourth = s.next(0);
    expect('entry' in fourth && fourth.entry.url).toBe('http://a/4');
  });

  it('with more connections per host and a delay, requests still start a delay apart', () => {
    const s = new HostScheduler(originOf, 1000, 4);
    for (let i = 1; i <= 3; i++) s.add(entry(`http://a/${i}`));
    s.next(0);
    expect(s.next(10)).toEqual({ waitMs: 990 });
    const second = s.next(1000);
    expect('entry' in second && second.entry.url).toBe('http://a/2');
    // The first answer came late: the next start waits a delay after it too.
    s.release('http://a', 1500);
    expect(s.next(2000)).toEqual({ waitMs: 500 });
  });
});
