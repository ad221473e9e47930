// terms.bin: the vocabulary (TermTable) as packed columns (string-columns.ts), and TermLookup, a term's
// number found from its bytes. As terms.json and a Map from term to number they were three strings a
// term and a Map entry each: at a million pages 257,181 terms, 126 ms of JSON.parse at every open and
// about 800,000 objects that every full garbage collection marked again.
//
// Layout, little-endian, n = terms, every part starting at a multiple of 8 bytes:
//   Uint32 n, Uint32 flags (bit 0: forms are present)
//   terms, words[, forms]:  Float64 ends[n], then the values' UTF-8 back to back

import type { TermTable } from './index-format.js';
import { ColumnReader, encodePacked, valuesOf, type PackedStrings } from './string-columns.js';

const HAS_FORMS = 1;

/** TermTable as read back: each column decoded a value at a time. */
export interface TermColumns {
  terms: PackedStrings;
  words: PackedStrings;
  forms?: PackedStrings;
}

export function encodeTermTable(table: TermTable): Buffer {
  const n = table.terms.length;
  for (const column of [table.words, ...(table.forms ? [table.forms] : [])]) {
    if (column.length !== n) throw new RangeError(`term table: a column of ${column.length} values for ${n} terms`);
  }
  return Buffer.concat([
    Buffer.from(new Uint32Array([n, table.forms ? HAS_FORMS : 0]).buffer),
    ...encodePacked(valuesOf(table.terms), n),
    ...encodePacked(valuesOf(table.words), n),
    ...(table.forms ? encodePacked(valuesOf(table.forms), n) : []),
  ]);
}

/** The columns over `bytes`; throws RangeError when the bytes do not hold what their counts say. */
export function decodeTermTable(bytes: Uint8Array): TermColumns {
  const file = new ColumnReader(bytes, 'terms.bin');
  const header = file.uint32(2, 'its header');
  const n = header[0]!;
  const flags = header[1]!;
  const terms = file.packed(n, 'terms');
  const words = file.packed(n, 'words');
  const forms = (flags & HAS_FORMS) !== 0 ? file.packed(n, 'forms') : undefined;
  file.end(`${n} terms`);
  return { terms, words, ...(forms ? { forms } : {}) };
}

/**
 * A term's number from its text, as a Map would give it, without a string per term: an open-addressing
 * table of term numbers by a hash of their UTF-8 bytes, each probe compared byte for byte. Built in one
 * pass over the packed bytes when a generation opens.
 */
export class TermLookup {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private scratch = new Uint8Array(256);
  private readonly encoder = new TextEncoder();

  constructor(private readonly terms: PackedStrings) {
    // At most half full: a miss (a query word the pages never used) ends within a probe or two.
    let size = 16;
    while (size < 2 * terms.length) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    const { bytes, ends } = terms;
    for (let t = 0, start = 0; t < terms.length; start = ends[t]!, t++) {
      let slot = hashBytes(bytes, start, ends[t]!) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = t;
    }
  }

  get(term: string): number | undefined {
    // A UTF-16 unit is at most 3 UTF-8 bytes.
    if (this.scratch.length < 3 * term.length) this.scratch = new Uint8Array(3 * term.length);
    const length = this.encoder.encodeInto(term, this.scratch).written;
    const { bytes, ends } = this.terms;
    for (let slot = hashBytes(this.scratch, 0, length) & this.mask; ; slot = (slot + 1) & this.mask) {
      const t = this.slots[slot]!;
      if (t === -1) return undefined;
      const start = t === 0 ? 0 : ends[t - 1]!;
      if (ends[t]! - start === length && bytes.compare(this.scratch, 0, length, start, ends[t]) === 0) return t;
    }
  }
}

/** FNV-1a over bytes [from, to). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
