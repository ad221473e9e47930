// doc-numbers.bin: the numeric columns of DocColumns as typed arrays, read with one file read and no
// parsing. As JSON they took 70-100 ms to parse at 106k pages (and the whole docs.json 0.4-0.9 s with
// the fingerprints, now in a file of their own that only the indexer reads).
//
// Layout, little-endian, n = documents:
//   Uint32 n, Uint32 flags (bit 0: contentInbound is known)
//   Float64 storedOffset[n]                 (stored.bin may pass 4 GiB)
//   Float64 date[n]                         (milliseconds since the epoch; NaN: none)
//   Uint32 inbound[n], inboundHosts[n], contentInbound[n], storedLength[n], storedHeaderLength[n],
//          storedBodyLength[n], bodyFrequency[n], fieldLength[n * FIELD_COUNT]
//   Float32 hub[n], listing[n]

import { FIELD_COUNT, type DocNumbers } from './index-format.js';

const HEADER_BYTES = 8;
const CONTENT_INBOUND = 1;
/** The Uint32 columns of n entries each, in file order (fieldLength, n * FIELD_COUNT, follows them). */
const UINT32_COLUMNS = ['inbound', 'inboundHosts', 'contentInbound', 'storedLength', 'storedHeaderLength', 'storedBodyLength', 'bodyFrequency'] as const;

function byteLength(n: number): number {
  return HEADER_BYTES + 2 * 8 * n + 4 * n * (UINT32_COLUMNS.length + FIELD_COUNT) + 2 * 4 * n;
}

export function encodeDocNumbers(columns: DocNumbers): Uint8Array {
  const n = columns.inbound.length;
  const buffer = new ArrayBuffer(byteLength(n));
  const header = new Uint32Array(buffer, 0, 2);
  header[0] = n;
  header[1] = columns.contentInbound === undefined ? 0 : CONTENT_INBOUND;
  new Float64Array(buffer, HEADER_BYTES, n).set(columns.storedOffset);
  new Float64Array(buffer, HEADER_BYTES + 8 * n, n).set(columns.date);
  let at = HEADER_BYTES + 2 * 8 * n;
  for (const name of UINT32_COLUMNS) {
    new Uint32Array(buffer, at, n).set(columns[name] ?? columns.inbound);
    at += 4 * n;
  }
  new Uint32Array(buffer, at, n * FIELD_COUNT).set(columns.fieldLength);
  at += 4 * n * FIELD_COUNT;
  new Float32Array(buffer, at, n).set(columns.hub);
  new Float32Array(buffer, at + 4 * n, n).set(columns.listing);
  return new Uint8Array(buffer);
}

/** The columns over `bytes` (views, no copy when `bytes` is 8-byte aligned); throws when its length does not fit its count. */
export function decodeDocNumbers(bytes: Uint8Array): DocNumbers {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes); // a copy starts its own buffer
  const { buffer, byteOffset } = aligned;
  const header = new Uint32Array(buffer, byteOffset, 2);
  const n = header[0]!;
  if (aligned.byteLength !== byteLength(n)) throw new RangeError(`doc-numbers.bin has ${aligned.byteLength} bytes, not the ${byteLength(n)} of ${n} documents`);
  const storedOffset = new Float64Array(buffer, byteOffset + HEADER_BYTES, n);
  const date = new Float64Array(buffer, byteOffset + HEADER_BYTES + 8 * n, n);
  let at = byteOffset + HEADER_BYTES + 2 * 8 * n;
  const u32: Partial<Record<(typeof UINT32_COLUMNS)[number], Uint32Array>> = {};
  for (const name of UINT32_COLUMNS) {
    u32[name] = new Uint32Array(buffer, at, n);
    at += 4 * n;
  }
  const fieldLength = new Uint32Array(buffer, at, n * FIELD_COUNT);
  at += 4 * n * FIELD_COUNT;
  const hub = new Float32Array(buffer, at, n);
  const listing = new Float32Array(buffer, at + 4 * n, n);
  return {
    inbound: u32.inbound!,
    inboundHosts: u32.inboundHosts!,
    ...((header[1]! & CONTENT_INBOUND) !== 0 ? { contentInbound: u32.contentInbound! } : {}),
    fieldLength,
    storedOffset,
    storedLength: u32.storedLength!,
    storedHeaderLength: u32.storedHeaderLength!,
    storedBodyLength: u32.storedBodyLength!,
    bodyFrequency: u32.bodyFrequency!,
    hub,
    listing,
    date,
  };
}
