// Where a term stands in one document: its word positions (shared/index-format positions.ts). Snippets
// (snippet-positions.ts) read its body places; proximity (proximity.ts) its places in the page's own
// text, title, headings and body.

import { decodePositionsInto, FIELD_COUNT, FIELD_SPAN, FIELDS, type IndexGeneration } from '../../shared/index-format/index.js';
import { findPosting } from './find-posting.js';

const BODY = FIELDS.indexOf('body');

/** Reused by bodyPositions, firstBodyPosition and textPositions: decoded positions are copied out before the next decode. */
const scratch = { list: new Int32Array(256), range: { bytes: new Uint8Array(0), from: 0, to: 0 } };

/** Decodes the positions of `term`'s posting p into scratch.list; returns how many. */
function decodePosting(gen: IndexGeneration, term: number, p: number): number {
  const { bytes, from, to } = gen.lists.positions(term).locate(p, scratch.range);
  if (scratch.list.length < to - from) scratch.list = new Int32Array(Math.max(to - from, 2 * scratch.list.length));
  return decodePositionsInto(bytes, from, to, scratch.list);
}

/** Decodes the positions of `term` in `doc` into scratch.list when the document has it in its body;
 * returns how many, or -1 when it has no body occurrence (the decode is skipped). */
function decodeBodyPosting(gen: IndexGeneration, term: number, doc: number): number {
  const { docs, tfs } = gen.lists.list(term);
  const p = findPosting(docs, 0, docs.length, doc);
  return p < 0 || tfs[p * FIELD_COUNT + BODY] === 0 ? -1 : decodePosting(gen, term, p);
}

/** The body places of `term` in `doc`, ascending; undefined when the document has no body occurrence
 * of it, empty when it has some but no positions (an added token). */
export function bodyPositions(gen: IndexGeneration, term: number, doc: number): Int32Array | undefined {
  const count = decodeBodyPosting(gen, term, doc);
  if (count < 0) return undefined;
  const body: number[] = [];
  for (let i = 0; i < count; i++) {
    const position = scratch.list[i]!;
    if (Math.floor(position / FIELD_SPAN) === BODY) body.push(position - BODY * FIELD_SPAN);
  }
  return Int32Array.from(body);
}

/** The first body place of `term` in `doc` (lead.ts asks it of a page of results a query: no list is built);
 * -1 when the document has no body position of it. */
export function firstBodyPosition(gen: IndexGeneration, term: number, doc: number): number {
  const count = decodeBodyPosting(gen, term, doc);
  for (let i = 0; i < count; i++) {
    const field = Math.floor(scratch.list[i]! / FIELD_SPAN);
    if (field === BODY) return scratch.list[i]! - BODY * FIELD_SPAN;
    if (field > BODY) return -1;
  }
  return -1;
}

// Title, headings and body are the first fields (FIELDS): their positions are the first ones.
if (FIELDS.indexOf('title') !== 0 || FIELDS.indexOf('headings') !== 1 || BODY !== 2) throw new Error('textPositions expects title, headings and body first in FIELDS');

/** The positions of `term` in `doc`'s title, headings and body (the page's own text: not the anchors
 * of other pages, not its URL), ascending, as encoded: fields FIELD_SPAN apart, so places of two fields
 * are never near; undefined when it has none there. */
export function textPositions(gen: IndexGeneration, term: number, doc: number): Int32Array | undefined {
  const { docs } = gen.lists.list(term);
  const p = findPosting(docs, 0, docs.length, doc);
  if (p < 0) return undefined;
  const count = decodePosting(gen, term, p);
  let n = 0;
  while (n < count && Math.floor(scratch.list[n]! / FIELD_SPAN) <= BODY) n++;
  return n === 0 ? undefined : scratch.list.slice(0, n);
}
