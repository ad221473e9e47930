// Where a term stands in one document: its word positions (shared/index-format positions.ts). Snippets
// (snippet-positions.ts) read its body places; proximity (proximity.ts) its places in the page's own
// text, title, headings and body.

import { decodePositionsInto, FIELD_COUNT, FIELD_SPAN, FIELDS, type IndexGeneration } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

const BODY = FIELDS.indexOf('body');

/** Reused by bodyPositions, firstBodyPosition and textPositions: decoded positions are copied out before the next decode. */
const scratch = { list: new Int32Array(256), range: { bytes: new Uint8Array(0), from: 0, to: 0 }, tfs: new Uint8Array(FIELD_COUNT) };

/** Decodes the positions of `term`'s posting p into scratch.list, stopping after the first past
 * `upTo` (the fields after those asked for are not read); returns how many. */
function decodePosting(gen: IndexGeneration, term: number, p: number, upTo = Infinity): number {
  const { bytes, from, to } = gen.lists.positions(term).locate(p, scratch.range);
  if (scratch.list.length < to - from) scratch.list = new Int32Array(Math.max(to - from, 2 * scratch.list.length));
  return decodePositionsInto(bytes, from, to, scratch.list, upTo);
}

/** The last position of the body field: a decode asked for the page's own text stops after it. */
const BODY_END = (BODY + 1) * FIELD_SPAN - 1;

/** Decodes the positions of `term` in `doc` into scratch.list when the document has it in its body;
 * returns how many, or -1 when it has no body occurrence (the decode is skipped). */
function decodeBodyPosting(gen: IndexGeneration, term: number, doc: number, upTo = BODY_END): number {
  const list = gen.lists.list(term);
  const p = findPosting(list.docs, 0, list.docs.length, doc);
  if (p < 0) return -1;
  list.frequencies(p, scratch.tfs);
  return scratch.tfs[BODY] === 0 ? -1 : decodePosting(gen, term, p, upTo);
}

/** The body places of `term` in `doc`, ascending; undefined when the document has no body occurrence
 * of it, empty when it has some but no positions (an added token). */
export function bodyPositions(gen: IndexGeneration, term: number, doc: number): Int32Array | undefined {
  const count = decodeBodyPosting(gen, term, doc);
  if (count < 0) return undefined;
  // Positions ascend and fields are FIELD_SPAN apart: the body's are one run of the list.
  const list = scratch.list;
  let from = 0;
  while (from < count && Math.floor(list[from]! / FIELD_SPAN) < BODY) from++;
  let to = from;
  while (to < count && Math.floor(list[to]! / FIELD_SPAN) === BODY) to++;
  const body = list.slice(from, to);
  for (let i = 0; i < body.length; i++) body[i]! -= BODY * FIELD_SPAN;
  return body;
}

/** The first body place of `term` in `doc` (lead.ts asks it of a page of results a query: no list is built);
 * -1 when the document has no body position of it. */
export function firstBodyPosition(gen: IndexGeneration, term: number, doc: number): number {
  // Decoded up to the body's first place: a common word stands thousands of times in a long page.
  const count = decodeBodyPosting(gen, term, doc, BODY * FIELD_SPAN - 1);
  for (let i = 0; i < count; i++) {
    const field = Math.floor(scratch.list[i]! / FIELD_SPAN);
    if (field === BODY) return scratch.list[i]! - BODY * FIELD_SPAN;
    if (field > BODY) return -1;
  }
  return -1;
}

// Title, headings and body are the first fields (FIELDS): their positions are the first ones.
if (FIELDS.indexOf('title') !== 0 || FIELDS.indexOf('headings') !== 1 || BODY !== 2) throw new Error('textPositions expects title, headings and body first in FIELDS');

/** Memory a caller keeps for textPositions: its first `length` numbers are the positions last written. */
export interface PositionBuffer {
  list: Int32Array;
  length: number;
}

/** The positions of `term` in `doc`'s title, headings and body (the page's own text: not the anchors
 * of other pages, not its URL), ascending, as encoded: fields FIELD_SPAN apart, so places of two fields
 * are never near. Written to the first `into.length` numbers of `into.list` (valid until its next use)
 * and `into` returned; undefined when it has none there. */
export function textPositions(gen: IndexGeneration, term: number, doc: number, into: PositionBuffer): PositionBuffer | undefined {
  const { docs } = gen.lists.list(term);
  const p = findPosting(docs, 0, docs.length, doc);
  if (p < 0) return undefined;
  const count = decodePosting(gen, term, p, BODY_END);
  let n = 0;
  while (n < count && scratch.list[n]! <= BODY_END) n++;
  if (n === 0) return undefined;
  // Into the caller's memory, kept from one query to the next (proximity asks it of 30 pages a query).
  if (into.list.length < n) into.list = new Int32Array(Math.max(n, 2 * into.list.length));
  for (let i = 0; i < n; i++) into.list[i] = scratch.list[i]!;
  into.length = n;
  return into;
}
