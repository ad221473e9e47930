// Columns of strings in a file, read with one file read and no parsing, each value decoded when asked:
// as JSON arrays they were a JavaScript string per value, which every full garbage collection of
// `serve` marked again (doc-strings.ts has the figures). Packed: values as UTF-8 back to back with
// their ends. Coded: few distinct values (languages, hosts), each document a code into them.
// Every part of a file starts at a multiple of 8 bytes, so typed arrays view it in place.

import type { TextColumn } from './index-format.js';

/** Values packed as UTF-8 one after another: `at(i)` decodes value i (about 0.1 µs for a URL). */
export class PackedStrings implements TextColumn {
  constructor(
    /** The values' UTF-8, back to back. */
    readonly bytes: Buffer,
    /** Where each value ends in `bytes` (value i starts where i - 1 ends). */
    readonly ends: Float64Array,
  ) {}

  get length(): number {
    return this.ends.length;
  }

  at(i: number): string | undefined {
    if (i < 0 || i >= this.ends.length) return undefined;
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** The first index holding `value`, -1 when none: its UTF-8 bytes compared, nothing decoded. */
  indexOf(value: string): number {
    const wanted = Buffer.from(value, 'utf8');
    for (let i = 0, start = 0; i < this.ends.length; start = this.ends[i]!, i++) {
      const end = this.ends[i]!;
      if (end - start === wanted.length && this.bytes.compare(wanted, 0, wanted.length, start, end) === 0) return i;
    }
    return -1;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.ends.length; i++) yield this.at(i)!;
  }
}

/** Few distinct values, each document a code into them: `at(i)` is a lookup, every value one string. */
export class CodedStrings implements TextColumn {
  constructor(
    /** The distinct values; codes index them. */
    readonly values: readonly string[],
    readonly codes: Uint32Array,
  ) {}

  get length(): number {
    return this.codes.length;
  }

  at(i: number): string | undefined {
    return i < 0 || i >= this.codes.length ? undefined : this.values[this.codes[i]!];
  }

  indexOf(value: string): number {
    const code = this.values.indexOf(value);
    return code < 0 ? -1 : this.codes.indexOf(code);
  }

  /** How many documents hold `value`: a pass over the codes, nothing decoded. */
  count(value: string): number {
    const code = this.values.indexOf(value);
    let n = 0;
    if (code >= 0) for (let i = 0; i < this.codes.length; i++) if (this.codes[i] === code) n++;
    return n;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.codes.length; i++) yield this.values[this.codes[i]!]!;
  }
}

const pad8 = (n: number): number => (n + 7) & ~7;

export function* valuesOf(column: TextColumn): Generator<string> {
  for (let i = 0; i < column.length; i++) yield column.at(i) ?? '';
}

/** A packed column as file pieces, padded to 8 bytes: Float64 ends[count], then the values' UTF-8. */
export function encodePacked(values: Iterable<string>, count: number): Buffer[] {
  const ends = new Float64Array(count);
  const parts: Buffer[] = [];
  let end = 0;
  let i = 0;
  for (const value of values) {
    const bytes = Buffer.from(value, 'utf8');
    parts.push(bytes);
    end += bytes.length;
    ends[i++] = end;
  }
  return [Buffer.from(ends.buffer), ...parts, Buffer.alloc(pad8(end) - end)];
}

/** A coded column as file pieces: Uint32 k, Uint32 0, the k distinct values packed, Uint32 codes[count]. */
export function encodeCoded(values: Iterable<string>, count: number): Buffer[] {
  const table = new Map<string, number>();
  const codes = new Uint32Array(pad8(4 * count) / 4);
  let i = 0;
  for (const value of values) {
    let code = table.get(value);
    if (code === undefined) table.set(value, (code = table.size));
    codes[i++] = code;
  }
  const head = new Uint32Array([table.size, 0]);
  return [Buffer.from(head.buffer), ...encodePacked(table.keys(), table.size), Buffer.from(codes.buffer)];
}

/** Reads the columns of a file written as encodePacked and encodeCoded pieces, in order. Throws
 * RangeError naming `file` and the column when the bytes do not hold what their counts say. */
export class ColumnReader {
  private readonly file: Buffer;
  private at = 0;

  constructor(
    bytes: Uint8Array,
    private readonly fileName: string,
  ) {
    // Typed views need 8-byte alignment: a Buffer from a file read may sit at any offset of its pool,
    // and a copy made with new Uint8Array starts a buffer of its own.
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
    this.file = Buffer.from(aligned.buffer, aligned.byteOffset, aligned.byteLength);
  }

  private need(length: number, what: string): void {
    if (this.at + length > this.file.byteLength) throw new RangeError(`${this.fileName} ends inside ${what} (${this.file.byteLength} bytes)`);
  }

  uint32(count: number, what: string): Uint32Array {
    this.need(4 * count, what);
    const view = new Uint32Array(this.file.buffer, this.file.byteOffset + this.at, count);
    this.at += pad8(4 * count);
    return view;
  }

  packed(count: number, what: string): PackedStrings {
    this.need(8 * count, what);
    const ends = new Float64Array(this.file.buffer, this.file.byteOffset + this.at, count);
    this.at += 8 * count;
    const length = count === 0 ? 0 : ends[count - 1]!;
    this.need(length, what);
    for (let i = 0, start = 0; i < count; start = ends[i]!, i++) {
      if (!(ends[i]! >= start && ends[i]! <= length)) throw new RangeError(`${this.fileName}: ${what} value ${i} ends out of order`);
    }
    const values = this.file.subarray(this.at, this.at + length);
    this.at += pad8(length);
    return new PackedStrings(values, ends);
  }

  coded(count: number, what: string): CodedStrings {
    const k = this.uint32(2, what)[0]!;
    const table = this.packed(k, what);
    const codes = this.uint32(count, what);
    for (let i = 0; i < count; i++) if (codes[i]! >= k) throw new RangeError(`${this.fileName}: ${what} code ${codes[i]} of document ${i} is past its ${k} values`);
    return new CodedStrings([...table], codes);
  }

  /** Throws unless every byte was read: `counted` says what the counts add up to. */
  end(counted: string): void {
    if (this.at !== this.file.byteLength) throw new RangeError(`${this.fileName} has ${this.file.byteLength} bytes, not the ${this.at} of ${counted}`);
  }
}
