// Which pairs of common words stand side by side in each document, read from the postings' word
// positions once every document is in (a word is common by its document frequency, known only then):
// the pair terms of shared/index-format phrase-pairs.ts.

import { decodePositionsInto, FIELD_SPAN } from '../shared/index-format/index.js';

/** A build's postings as PostingsBuilder keeps them: record i is term[i] in doc[i], its encoded
 * positions bytes positions[positionEnds[i - 1] ?? 0, positionEnds[i]). Records need not be in
 * document order (an incremental build copies the reused pages' postings term by term). */
export interface PositionedRecords {
  count: number;
  term: Uint32Array;
  doc: Uint32Array;
  positionEnds: Uint32Array;
  positions: Uint8Array;
}

/**
 * Calls `emit(doc, pair, first, second, count)` for each document, ascending, and each distinct pair of
 * common terms (`common[t]` not 0) standing side by side in one of its fields, `first` at some place
 * p and `second` at p + 1, `count` times; `pair` numbers the distinct pairs 0, 1, 2... in the order
 * first met. Reads only the common terms' positions.
 */
export function commonPairs(
  records: PositionedRecords,
  common: Uint8Array,
  documents: number,
  emit: (doc: number, pair: number, first: number, second: number, count: number) => void,
): void {
  const { count, term, doc, positionEnds, positions } = records;
  // The common terms' records grouped by document (a counting sort of their numbers).
  const start = new Uint32Array(documents + 1);
  const from = (i: number) => (i === 0 ? 0 : positionEnds[i - 1]!);
  // Records with positions of a common term.
  const wanted = (i: number) => common[term[i]!] === 1 && positionEnds[i]! > from(i);
  for (let i = 0; i < count; i++) if (wanted(i)) start[doc[i]! + 1]!++;
  for (let d = 0; d < documents; d++) start[d + 1]! += start[d]!;
  const byDoc = new Uint32Array(start[documents]!);
  const next = start.slice(0, documents);
  for (let i = 0; i < count; i++) if (wanted(i)) byDoc[next[doc[i]!]!++] = i;

  const terms = common.length;
  const numbers = new PairNumbers();
  let placeOf = new Int32Array(64);
  let termOf = new Int32Array(64);
  let keys = new Float64Array(64);
  let decoded = new Int32Array(64);
  // Per position, the term standing there plus one (0: none), one array per field, grown as needed
  // and emptied after each document. Two terms at one place (not seen: a place has one word's token)
  // are kept apart in `shared`, so no pair is lost.
  const slots: Int32Array[] = [];
  const shared: number[] = [];
  for (let d = 0; d < documents; d++) {
    let n = 0;
    for (let k = start[d]!; k < start[d + 1]!; k++) {
      const i = byDoc[k]!;
      const a = from(i);
      const b = positionEnds[i]!;
      if (decoded.length < b - a) decoded = new Int32Array(Math.max(b - a, decoded.length * 2));
      const m = decodePositionsInto(positions, a, b, decoded);
      if (placeOf.length < n + m) {
        const size = Math.max(n + m, placeOf.length * 2);
        const p = new Int32Array(size);
        p.set(placeOf.subarray(0, n));
        placeOf = p;
        const t = new Int32Array(size);
        t.set(termOf.subarray(0, n));
        termOf = t;
        keys = new Float64Array(size);
      }
      for (let j = 0; j < m; j++) {
        placeOf[n] = decoded[j]!;
        termOf[n++] = term[i]!;
      }
    }
    for (let e = 0; e < n; e++) {
      const position = placeOf[e]!;
      const field = position >>> FIELD_BITS;
      const place = position & PLACE_MASK;
      let slot = slots[field];
      if (slot === undefined || slot.length < place + 2) {
        const bigger = new Int32Array(Math.max(place + 2, (slot?.length ?? 0) * 2, 256));
        if (slot) bigger.set(slot);
        slots[field] = slot = bigger;
      }
      if (slot[place] === 0) slot[place] = termOf[e]! + 1;
      else if (slot[place] !== termOf[e]! + 1) shared.push(position, termOf[e]!);
    }
    // Each occurrence as a number (first * terms + second), sorted: equal pairs side by side.
    let found = 0;
    for (let e = 0; e < n; e++) {
      const position = placeOf[e]!;
      const after = slots[position >>> FIELD_BITS]![(position & PLACE_MASK) + 1]!;
      const first = termOf[e]! * terms;
      if (after > 0) keys[found++] = first + after - 1;
      for (let s = 0; s < shared.length; s += 2) {
        if (shared[s] !== position + 1) continue;
        if (found === keys.length) {
          const bigger = new Float64Array(found * 2);
          bigger.set(keys);
          keys = bigger;
        }
        keys[found++] = first + shared[s + 1]!;
      }
    }
    const occurrences = keys.subarray(0, found).sort();
    for (let x = 0; x < found; ) {
      const key = occurrences[x]!;
      let y = x + 1;
      while (y < found && occurrences[y] === key) y++;
      const first = Math.floor(key / terms);
      emit(d, numbers.of(key), first, key - first * terms, y - x);
      x = y;
    }
    shared.length = 0;
    for (let e = 0; e < n; e++) slots[placeOf[e]! >>> FIELD_BITS]![placeOf[e]! & PLACE_MASK] = 0;
  }
}

// A position is field * FIELD_SPAN + place (positions.ts), FIELD_SPAN a power of two, every position
// below 2^31: the field and place by shifts and masks.
const FIELD_BITS = Math.log2(FIELD_SPAN);
const PLACE_MASK = FIELD_SPAN - 1;

/** Dense numbers for pair keys, in the order first asked: an open-addressing table of typed arrays
 * (a Map of number keys was a third of the pairs' time over 14 million postings). */
class PairNumbers {
  private keys = new Float64Array(1 << 12).fill(-1);
  private values = new Int32Array(1 << 12);
  private size = 0;

  of(key: number): number {
    let mask = this.keys.length - 1;
    let h = slotOf(key, mask);
    while (this.keys[h] !== -1) {
      if (this.keys[h] === key) return this.values[h]!;
      h = (h + 1) & mask;
    }
    const value = this.size++;
    this.keys[h] = key;
    this.values[h] = value;
    if (this.size * 2 > this.keys.length) {
      const keys = this.keys;
      const values = this.values;
      this.keys = new Float64Array(keys.length * 2).fill(-1);
      this.values = new Int32Array(keys.length * 2);
      mask = this.keys.length - 1;
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] === -1) continue;
        let j = slotOf(keys[i]!, mask);
        while (this.keys[j] !== -1) j = (j + 1) & mask;
        this.keys[j] = keys[i]!;
        this.values[j] = values[i]!;
      }
    }
    return value;
  }
}

const slotOf = (key: number, mask: number): number => (Math.imul((key % 0x7fffffff) | 0, 0x9e3779b1) ^ Math.imul(Math.floor(key / 0x7fffffff) | 0, 0x85ebca6b)) & mask;
