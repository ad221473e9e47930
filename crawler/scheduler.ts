// The in-memory side of the frontier: one queue per host, breadth-first inside each, and a pick rule
// that keeps every host at its limit of requests under way (one, unless a crawl of one's own servers asks
// for more) and at its delay, so a slow host never stalls the others.
// The persistent frontier (shared/store/store.ts) is the truth; this is rebuilt from it on resume.

import type { QueuedEntry } from '../shared/store/index.js';

/** A first-in first-out bucket. Array.prototype.shift moves every element once the array is large (V8
 * cannot trim arrays in its large-object space): 96 us a pick with 100,000 URLs queued for a host,
 * 790 us with a million. Reading from a head index and compacting now and then keeps a pick O(1). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item; the bucket must not be empty. */
  shift(): T {
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as T; // let it be collected
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }
}

interface HostState {
  /** Entries by depth, and retries under RETRIES (behind every depth); each bucket in the order queued. */
  buckets: Map<number, Fifo<QueuedEntry>>;
  size: number;
  /** Requests under way. */
  inFlight: number;
  /** Requests ended whose pages are not stored yet: the links they found are not queued yet. */
  settling: number;
  /** Earliest time the next request may start, on the caller's monotonic clock (performance.now(), ms). */
  notBefore: number;
  delayMs: number;
}

export type Pick = { entry: QueuedEntry; host: string } | { waitMs: number } | { empty: true };

export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();
  private queuedCount = 0;

  constructor(
    private readonly hostOf: (url: string) => string,
    private readonly defaultDelayMs: number,
    /** Requests under way at once per host (CrawlOptions.hostConnections). */
    private readonly perHost = 1,
  ) {}

  get size(): number {
    return this.queuedCount;
  }

  get hostCount(): number {
    return this.hosts.size;
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { buckets: new Map(), size: 0, inFlight: 0, settling: 0, notBefore: 0, delayMs: this.defaultDelayMs };
      this.hosts.set(host, s);
    }
    return s;
  }

  /** Queues an entry at the back of its depth, or, `last`, behind every URL of its host (a retry). */
  add(entry: QueuedEntry, last = false): void {
    const s = this.state(this.hostOf(entry.url));
    const key = last ? RETRIES : entry.depth;
    let bucket = s.buckets.get(key);
    if (!bucket) {
      bucket = new Fifo<QueuedEntry>();
      s.buckets.set(key, bucket);
    }
    bucket.push(entry);
    s.size++;
    this.queuedCount++;
  }

  /** The shallowest entry of a ready host, or how long until one is ready. Counts it as under way. */
  next(now: number): Pick {
    let best: { host: string; s: HostState; depth: number } | undefined;
    let soonest = Infinity;
    for (const [host, s] of this.hosts) {
      if (s.inFlight >= this.perHost || s.size === 0) continue;
      if (s.notBefore > now) {
        soonest = Math.min(soonest, s.notBefore - now);
        continue;
      }
      const depth = minDepth(s);
      // Only retries left, but a page just fetched may yet queue fresh URLs, which go first: the retry
      // waits for its store (settled), which wakes the crawl.
      if (depth === RETRIES && s.settling > 0) continue;
      if (!best || depth < best.depth) best = { host, s, depth };
    }
    if (!best) return soonest === Infinity ? { empty: true } : { waitMs: soonest };
    const bucket = best.s.buckets.get(best.depth)!;
    const entry = bucket.shift();
    if (bucket.length === 0) best.s.buckets.delete(best.depth);
    best.s.size--;
    this.queuedCount--;
    best.s.inFlight++;
    // Several requests to one host under way: with a delay, they still start at least that far apart.
    if (this.perHost > 1) best.s.notBefore = now + best.s.delayMs;
    return { entry, host: best.host };
  }

  /** The request to `host` ended; the next may start after its delay (or `extraWaitMs`, when longer). */
  release(host: string, now: number, extraWaitMs = 0): void {
    const s = this.state(host);
    s.inFlight--;
    s.settling++;
    s.notBefore = Math.max(s.notBefore, now + Math.max(s.delayMs, extraWaitMs));
  }

  /** A pick whose request ended (release) is done with: its page and the links it found are queued. */
  settled(host: string): void {
    this.state(host).settling--;
  }

  /** The pick ended without a request (blocked by robots, cut): the host is free at once, no delay. */
  releaseWithoutRequest(host: string): void {
    this.state(host).inFlight--;
  }

  delayOf(host: string): number {
    return this.state(host).delayMs;
  }

  setDelay(host: string, delayMs: number): void {
    this.state(host).delayMs = delayMs;
  }

  /** The host whose queue takes longest at its delay alone (queued x delay / requests at once), or
   * undefined when no host with a delay has work: the floor under any estimate of the time left. */
  slowestHost(): { host: string; queued: number; delayMs: number; ms: number } | undefined {
    let slowest: { host: string; queued: number; delayMs: number; ms: number } | undefined;
    for (const [host, s] of this.hosts) {
      const ms = (s.size * s.delayMs) / this.perHost;
      if (ms > 0 && (!slowest || ms > slowest.ms)) slowest = { host, queued: s.size, delayMs: s.delayMs, ms };
    }
    return slowest;
  }

  /** Each host's queue, requests under way and current delay, for the live status. */
  hostStates(): { host: string; queued: number; inFlight: number; delayMs: number }[] {
    return [...this.hosts].map(([host, s]) => ({ host, queued: s.size, inFlight: s.inFlight, delayMs: s.delayMs }));
  }

  /** Whether any host has work or a request under way. */
  get idle(): boolean {
    if (this.queuedCount > 0) return false;
    for (const s of this.hosts.values()) if (s.inFlight > 0) return false;
    return true;
  }

  /** Drops every queued entry of a host (e.g. its robots.txt stays unreachable); returns them. */
  clearHost(host: string): QueuedEntry[] {
    const s = this.hosts.get(host);
    if (!s) return [];
    const all = [...s.buckets.values()].flatMap((b) => b.toArray());
    s.buckets.clear();
    this.queuedCount -= s.size;
    s.size = 0;
    return all;
  }
}

/** The bucket of a host's retries: a failed URL is asked again after the host's other queued URLs, as
 * Scrapy lowers a retried request's priority. Back at its depth, the retries of a few broken URLs came
 * before every deeper URL of their host, one after another: failures in a row, which gave the host up
 * (politeness.ts hostGiveUp) with thousands of its good URLs unasked. */
const RETRIES = Infinity;

function minDepth(s: HostState): number {
  let min = Infinity;
  for (const d of s.buckets.keys()) if (d < min) min = d;
  return min;
}
