// doc-strings.bin: the string columns of DocColumns (url, title, language, host), read with one file
// read and no parsing, each value decoded when asked. As docs.json they were a JavaScript string per
// document and column: at a million pages 1.3 s of JSON.parse at every open, and about 250 MB of
// strings that every full garbage collection of `serve` marked again, 115-160 ms each (DESIGN.md "A
// million strings the collector marks"). URLs and titles are packed UTF-8 (string-columns.ts);
// languages and hosts, a few distinct values each, are codes into a table of them, and so is each
// page's site key (host and port, what `site:` with a port compares).
//
// Layout, little-endian, n = documents, every part starting at a multiple of 8 bytes:
//   Uint32 n, Uint32 0
//   url, title:              Float64 ends[n], then the values' UTF-8 back to back
//   language, host, site:    Uint32 k, Uint32 0, Float64 ends[k], the k values' UTF-8, Uint32 codes[n]

import type { TextColumn } from './index-format.js';
import { ColumnReader, encodeCoded, encodePacked, valuesOf, type CodedStrings, type PackedStrings } from './string-columns.js';

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
    ...encodePacked(valuesOf(columns.url), n),
    ...encodePacked(valuesOf(columns.title), n),
    ...encodeCoded(valuesOf(columns.language), n),
    ...encodeCoded(valuesOf(columns.host), n),
    ...encodeCoded(sites, n),
  ]);
}

/** The columns over `bytes` (views into one aligned copy); throws RangeError when the bytes do not
 * hold what their counts say. */
export function decodeDocStrings(bytes: Uint8Array): DocStrings {
  const file = new ColumnReader(bytes, 'doc-strings.bin');
  const n = file.uint32(2, 'its header')[0]!;
  const url = file.packed(n, 'url');
  const title = file.packed(n, 'title');
  const language = file.coded(n, 'language');
  const host = file.coded(n, 'host');
  const site = file.coded(n, 'site');
  file.end(`${n} documents`);
  return { url, title, language, host, site };
}
