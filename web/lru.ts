// A small least-recently-used map: the gateway's search-result cache. The index a gateway serves never
// changes while it runs (a new index means a restart), so a cached answer stays right; popular queries
// (a search log is heavily skewed) are then answered without touching the index.

export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
