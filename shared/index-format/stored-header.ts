// The head of a stored.bin record (format 18): what a snippet reads first, the page's language, its
// sections and its context. A small UTF-8 JSON object comes first (language, context, and how many
// sections and bytes follow); a page with sections then has a newline, every heading in one UTF-8 string,
// every id in another, and the numbers (lengths, starts, definition terms) as variable-length integers.
//
// Why not all JSON: a long reference page has thousands of sections. As an array of objects its header
// was a JSON object per section to parse; as JSON columns (format 17) the numbers were still decimal text
// and the headings a JSON string, scanned for escapes. Cold, reading result headers was half of a page
// of ten for queries whose results are such pages (DESIGN.md "Sections stored as columns"); the Rust
// docs x5's 430 heads above 20 KB took JSON.parse 65-89 ms, and this decoding 14-18 (DESIGN.md "A
// record's head in binary").

import type { StoredDoc } from './index-format.js';

type PageSection = NonNullable<StoredDoc['sections']>[number];

/** A page's sections as a stored header holds them. */
export interface PackedSections {
  /** The headings, each followed by '\n' but the last; heading i is headingLengths[i] characters. */
  headings: string;
  headingLengths: ArrayLike<number>;
  /** The ids back to back; id i is idLengths[i] characters. */
  ids: string;
  idLengths: ArrayLike<number>;
  /** Each section's start in the body (PageSection.start). */
  starts: ArrayLike<number>;
  /** The sections that are definition terms (PageSection.term), ascending. */
  terms: ArrayLike<number>;
}

/** A stored record's head as decoded. */
export interface StoredHeader {
  language: string;
  sections?: PackedSections;
  context?: string;
}

/** The JSON that opens a head: with sections, how many, and the UTF-8 bytes of their headings and ids. */
interface HeadJson {
  language: string;
  context?: string;
  sections?: { count: number; headingBytes: number; idBytes: number };
}

const NEWLINE = 0x0a;
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** The sections again, as the page's record had them. */
export function unpackSections(packed: PackedSections): PageSection[] {
  const out: PageSection[] = [];
  let heading = 0;
  let id = 0;
  let term = 0;
  for (let i = 0; i < packed.starts.length; i++) {
    const section: PageSection = {
      id: packed.ids.slice(id, (id += packed.idLengths[i]!)),
      heading: packed.headings.slice(heading, heading + packed.headingLengths[i]!),
      start: packed.starts[i]!,
    };
    heading += packed.headingLengths[i]! + 1;
    if (packed.terms[term] === i) {
      section.term = true;
      term++;
    }
    out.push(section);
  }
  return out;
}

/** The head of a record, as stored.bin holds it. */
export function encodeStoredHeader(language: string, sections: readonly PageSection[] | undefined, context: string | undefined): Uint8Array {
  if (sections === undefined) return encoder.encode(JSON.stringify({ language, ...(context !== undefined ? { context } : {}) } satisfies HeadJson));
  const headings = encoder.encode(sections.map((s) => s.heading).join('\n'));
  const ids = encoder.encode(sections.map((s) => s.id).join(''));
  const numbers: number[] = [];
  for (const s of sections) pushVarint(numbers, s.heading.length);
  for (const s of sections) pushVarint(numbers, s.id.length);
  // Starts as differences (a section starts where or after the one before, so they are small), zigzag
  // coded in case one does not.
  let previous = 0;
  for (const s of sections) {
    const gap = s.start - previous;
    pushVarint(numbers, gap >= 0 ? 2 * gap : -2 * gap - 1);
    previous = s.start;
  }
  const terms = sections.flatMap((s, i) => (s.term === true ? [i] : []));
  pushVarint(numbers, terms.length);
  previous = 0;
  for (const i of terms) {
    pushVarint(numbers, i - previous);
    previous = i;
  }
  const json = encoder.encode(JSON.stringify({ language, ...(context !== undefined ? { context } : {}), sections: { count: sections.length, headingBytes: headings.length, idBytes: ids.length } } satisfies HeadJson));
  const out = new Uint8Array(json.length + 1 + headings.length + ids.length + numbers.length);
  out.set(json, 0);
  // JSON.stringify writes a newline inside a string as \n, so the first newline byte ends the JSON.
  out[json.length] = NEWLINE;
  out.set(headings, json.length + 1);
  out.set(ids, json.length + 1 + headings.length);
  out.set(numbers, json.length + 1 + headings.length + ids.length);
  return out;
}

/** A record's head from its bytes (encodeStoredHeader). Throws on bytes it did not write: a SyntaxError
 * when the JSON is damaged, a RangeError when the numbers do not end where the bytes do. */
export function decodeStoredHeader(bytes: Uint8Array): StoredHeader {
  const end = bytes.indexOf(NEWLINE);
  const head = JSON.parse(utf8.decode(end < 0 ? bytes : bytes.subarray(0, end))) as HeadJson;
  const { language, context } = head;
  const out: StoredHeader = { language, ...(context !== undefined ? { context } : {}) };
  if (head.sections === undefined) return out;
  const { count, headingBytes, idBytes } = head.sections;
  let at = end + 1;
  const headings = utf8.decode(bytes.subarray(at, (at += headingBytes)));
  const ids = utf8.decode(bytes.subarray(at, (at += idBytes)));
  const reader = { bytes, at };
  const headingLengths = new Uint32Array(count);
  for (let i = 0; i < count; i++) headingLengths[i] = readVarint(reader);
  const idLengths = new Uint32Array(count);
  for (let i = 0; i < count; i++) idLengths[i] = readVarint(reader);
  const starts = new Float64Array(count);
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const zig = readVarint(reader);
    starts[i] = previous += zig % 2 === 0 ? zig / 2 : -(zig + 1) / 2;
  }
  const terms = new Uint32Array(readVarint(reader));
  previous = 0;
  for (let i = 0; i < terms.length; i++) terms[i] = previous += readVarint(reader);
  if (reader.at !== bytes.length) throw new RangeError(`a stored header of ${bytes.length} bytes ends at ${reader.at}`);
  out.sections = { headings, headingLengths, ids, idLengths, starts, terms };
  return out;
}

/** Appends n (a whole number, 0 or more) in 7-bit groups, least significant first. */
function pushVarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

function readVarint(reader: { bytes: Uint8Array; at: number }): number {
  let n = 0;
  let scale = 1;
  for (;;) {
    const byte = reader.bytes[reader.at++];
    if (byte === undefined) throw new RangeError('a stored header ends inside a number');
    n += (byte & 0x7f) * scale;
    if (byte < 0x80) return n;
    scale *= 0x80;
  }
}
