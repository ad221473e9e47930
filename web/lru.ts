// A small least-recently-used map: the gateway's search-result cache. A cached answer names the index
// generation in its key, so it stays right; popular queries (a search log is heavily skewed) are then
// answered without touching the index. Bounded by entries and by estimated bytes: one answer of fifty
// explained hits holds a thousand times what ten bare ones do, and 2,000 entries alone had let unique
// `size=50&explain=1` queries grow the server to 825 MB.
//
// What is kept can be limited to keys set twice (`admitRepeatsAmong`): a search log is mostly queries
// asked once, and keeping each of their answers (sizing it, holding it until it is promoted to V8's
// old space, collecting it there) cost a stream of distinct queries about a tenth of its requests a
// second (DESIGN.md, "The answer cache keeps what is asked again"). Lucene's query cache admits a
// filter only once it was used several times among the last 256 queries, and TinyLFU's doorkeeper
// lets in only keys seen before, for the same reason.

import { approxBytes } from './approx-bytes.js';

export interface LruOptions<V> {
  /** Most entries kept; 0 keeps none. */
  maxEntries: number;
  /** Most bytes kept, as `sizeOf` estimates them; an entry larger than this alone is not kept. Default: no
   * bound but the entries'. */
  maxBytes?: number;
  /** Estimated bytes of a value (its key is added). Default approxBytes. */
  sizeOf?: (value: V) => number;
  /** Keep a value only when its key was set before, among the last this many distinct keys set and not
   * kept (remembered as keys only). 0, the default, keeps every value set. */
  admitRepeatsAmong?: number;
}

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  /** Keys set once and not kept, oldest first (admitRepeatsAmong). */
  private readonly seenOnce = new Set<string>();
  private heldBytes = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly admitRepeatsAmong: number;
  private readonly sizeOf: (value: V) => number;

  constructor(options: LruOptions<V>) {
    this.maxEntries = options.maxEntries;
    this.maxBytes = options.maxBytes ?? Infinity;
    this.admitRepeatsAmong = options.admitRepeatsAmong ?? 0;
    this.sizeOf = options.sizeOf ?? approxBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const held = this.remove(key);
    if (this.maxEntries <= 0) return;
    if (this.admitRepeatsAmong > 0 && !held && !this.seenOnce.delete(key)) {
      this.seenOnce.add(key);
      if (this.seenOnce.size > this.admitRepeatsAmong) this.seenOnce.delete(this.seenOnce.values().next().value as string);
      return;
    }
    const bytes = 2 * key.length + this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.heldBytes += bytes;
    while (this.entries.size > this.maxEntries || this.heldBytes > this.maxBytes) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  /** Whether the key was held. */
  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes of the entries kept. */
  get bytes(): number {
    return this.heldBytes;
  }
}
