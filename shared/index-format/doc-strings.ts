// doc-strings.bin: the string columns of DocColumns (url, title, language, host), read with one file
// read and no parsing, each value decoded when asked. As docs.json they were a JavaScript string per
// document and column: at a million pages 1.3 s of JSON.parse at every open, and about 250 MB of
// strings that every full garbage collection of `serve` marked again, 115-160 ms each (a query's
// cold p99 at a million pages was that collection's pause, DESIGN.md "A million strings the collector
// marks"). URLs and titles are packed UTF-8; languages and hosts, a few distinct values each, are
// codes into a table of them, and so is each page's site key (host and port, what `site:` compares).
//
// Layout, little-endian, n = documents, every part starting at a multiple of 8 bytes:
//   Uint32 n, Uint32 0
//   url, title:              Float64 ends[n], then the values' UTF-8 back to back
//   language, host, site:    Uint32 k, Uint32 0, Float64 ends[k], the k values' UTF-8, Uint32 codes[n]

import type { TextColumn } from './index-format.js';

/** Values packed as UTF-8 one after another: `at(i)` decodes value i (about 0.1 µs for a URL). */
export class PackedStrings implements TextColumn {
  constructor(
    private readonly bytes: Buffer,
    private readonly ends: Float64Array,
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

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.codes.length; i++) yield this.values[this.codes[i]!]!;
  }
}

/** The string columns as read back: DocColumns' four and each page's site key. */
export interface DocStrings {
  url: PackedStrings;
  title: PackedStrings;
  language: CodedStrings;
  host: CodedStrings;
  /** `host:port` as `site:` with a port compares it, '' for the port when the URL gives none. */
  site: CodedStrings;
}

export interface DocStringsInput {
  url: TextColumn;
  title: TextColumn;
  language: TextColumn;
  host: TextColumn;
}

/** The explicit port of an absolute URL ('' for none): canonical URLs carry no default port. */
export function urlPort(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*)(?::(\d*))?/i.exec(url)?.[1] ?? '';
}

/** A page's key for `site:` with a port: its host, a colon and its URL's port ('' when none). */
export function siteKey(host: string, url: string): string {
  return `${host}:${urlPort(url)}`;
}

const pad8 = (n: number): number => (n + 7) & ~7;

function* valuesOf(column: TextColumn): Generator<string> {
  for (let i = 0; i < column.length; i++) yield column.at(i) ?? '';
}

/** Pieces of the file, each padded to 8 bytes as written. */
function packed(values: Iterable<string>, count: number): Buffer[] {
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

function coded(values: Iterable<string>, count: number): Buffer[] {
  const table = new Map<string, number>();
  const codes = new Uint32Array(pad8(4 * count) / 4);
  let i = 0;
  for (const value of values) {
    let code = table.get(value);
    if (code === undefined) table.set(value, (code = table.size));
    codes[i++] = code;
  }
  const head = new Uint32Array([table.size, 0]);
  return [Buffer.from(head.buffer), ...packed(table.keys(), table.size), Buffer.from(codes.buffer)];
}

export function encodeDocStrings(columns: DocStringsInput): Buffer {
  const n = columns.url.length;
  for (const name of ['title', 'language', 'host'] as const) {
    if (columns[name].length !== n) throw new RangeError(`doc strings: ${columns[name].length} ${name}s for ${n} urls`);
  }
  const sites = (function* () {
    for (let i = 0; i < n; i++) yield siteKey(columns.host.at(i) ?? '', columns.url.at(i) ?? '');
  })();
  return Buffer.concat([
    Buffer.from(new Uint32Array([n, 0]).buffer),
    ...packed(valuesOf(columns.url), n),
    ...packed(valuesOf(columns.title), n),
    ...coded(valuesOf(columns.language), n),
    ...coded(valuesOf(columns.host), n),
    ...coded(sites, n),
  ]);
}

/** The columns over `bytes` (views into one aligned copy); throws RangeError when the bytes do not
 * hold what their counts say. */
export function decodeDocStrings(bytes: Uint8Array): DocStrings {
  // Typed views need 8-byte alignment: a Buffer from a file read may sit at any offset of its pool.
  const file = bytes.byteOffset % 8 === 0 ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.from(bytes);
  let at = 0;
  const need = (length: number, what: string): void => {
    if (at + length > file.byteLength) throw new RangeError(`doc-strings.bin ends inside ${what} (${file.byteLength} bytes)`);
  };
  const u32 = (count: number, what: string): Uint32Array => {
    need(4 * count, what);
    const view = new Uint32Array(file.buffer, file.byteOffset + at, count);
    at += pad8(4 * count);
    return view;
  };
  const strings = (count: number, what: string): PackedStrings => {
    need(8 * count, what);
    const ends = new Float64Array(file.buffer, file.byteOffset + at, count);
    at += 8 * count;
    const length = count === 0 ? 0 : ends[count - 1]!;
    need(length, what);
    for (let i = 0, start = 0; i < count; start = ends[i]!, i++) {
      if (!(ends[i]! >= start && ends[i]! <= length)) throw new RangeError(`doc-strings.bin: ${what} value ${i} ends out of order`);
    }
    const values = file.subarray(at, at + length);
    at += pad8(length);
    return new PackedStrings(values, ends);
  };
  const codedColumn = (n: number, what: string): CodedStrings => {
    const k = u32(2, what)[0]!;
    const table = strings(k, what);
    const codes = u32(n, what);
    for (let i = 0; i < n; i++) if (codes[i]! >= k) throw new RangeError(`doc-strings.bin: ${what} code ${codes[i]} of document ${i} is past its ${k} values`);
    return new CodedStrings([...table], codes);
  };
  const n = u32(2, 'its header')[0]!;
  const url = strings(n, 'url');
  const title = strings(n, 'title');
  const language = codedColumn(n, 'language');
  const host = codedColumn(n, 'host');
  const site = codedColumn(n, 'site');
  if (at !== file.byteLength) throw new RangeError(`doc-strings.bin has ${file.byteLength} bytes, not the ${at} of ${n} documents`);
  return { url, title, language, host, site };
}
