// Per host, on how many pages each block or link fingerprint is (indexer/templates.ts): a hash table
// over typed arrays, each page counted once by a stamp per entry. Pure.
//
// Why not a Map<number, number>: fingerprints are 52-bit numbers, not small integers, so every key a
// Map holds or is asked for is a boxed number, and each page's keys were copied and sorted to count
// each once, while the build thread worked alone. With this table (and each linking page's host found
// once, link-graph.ts) counting links took 0.8-1.2 s of the Rust docs' build instead of 1.5-1.6, and
// 6.2 s at 106,170 pages instead of 8.6 (DESIGN.md "Counting and adding by number").

/** Slots of a new table; it doubles when half full. */
const INITIAL_SLOTS = 1024;

export class FingerprintCounts {
  /** NaN marks an empty slot (a fingerprint is an integer, never NaN). */
  private keys: Float64Array;
  private counts: Uint32Array;
  /** Per slot, the last page that counted it. */
  private stamps: Uint32Array;
  private mask: number;
  private shift: number;
  private page = 0;
  /** Distinct fingerprints held. */
  size = 0;

  constructor(slots = INITIAL_SLOTS) {
    let bits = 4;
    while (1 << bits < slots) bits++;
    this.keys = new Float64Array(1 << bits).fill(NaN);
    this.counts = new Uint32Array(1 << bits);
    this.stamps = new Uint32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  /** Counts each distinct fingerprint of one page once. */
  addPage(keys: Float64Array): void {
    const page = ++this.page;
    for (let i = 0; i < keys.length; i++) {
      if (2 * (this.size + 1) > this.keys.length) this.grow();
      const slot = this.slotOf(keys[i]!);
      if (this.keys[slot] !== keys[i]) {
        this.keys[slot] = keys[i]!;
        this.size++;
      }
      if (this.stamps[slot] !== page) {
        this.stamps[slot] = page;
        this.counts[slot]!++;
      }
    }
  }

  /** On how many pages `key` is (0 when on none). */
  get(key: number): number {
    const slot = this.slotOf(key);
    return this.keys[slot] === key ? this.counts[slot]! : 0;
  }

  /** A table of the fingerprints on at least `min` pages only: nearly every block of content is on one
   * page, and the counts of all were most of what the index build held from there to its end. */
  atLeast(min: number): FingerprintCounts {
    let kept = 0;
    for (let s = 0; s < this.keys.length; s++) if (this.counts[s]! >= min) kept++;
    const out = new FingerprintCounts(2 * kept + 2);
    for (let s = 0; s < this.keys.length; s++) {
      if (this.counts[s]! < min) continue;
      const slot = out.slotOf(this.keys[s]!);
      out.keys[slot] = this.keys[s]!;
      out.counts[slot] = this.counts[s]!;
      out.size++;
    }
    return out;
  }

  /** The slot holding `key`, or the empty one where it would go (linear probing). */
  private slotOf(key: number): number {
    // The low and high 32 bits mixed, the top bits of the product taken (Fibonacci hashing).
    let slot = Math.imul((key >>> 0) ^ ((key / 4294967296) >>> 0), 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = this.keys[slot]!;
      if (k === key || k !== k) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const { keys, counts, stamps } = this;
    const bits = 33 - this.shift;
    this.keys = new Float64Array(1 << bits).fill(NaN);
    this.counts = new Uint32Array(1 << bits);
    this.stamps = new Uint32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (let s = 0; s < keys.length; s++) {
      const k = keys[s]!;
      if (k !== k) continue;
      const slot = this.slotOf(k);
      this.keys[slot] = k;
      this.counts[slot] = counts[s]!;
      this.stamps[slot] = stamps[s]!;
    }
  }
}
