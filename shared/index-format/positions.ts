// Word positions in the index: where each term stands in each field of each document, so phrases and
// word proximity are answered from the index instead of by re-reading a page's text.
//
// A position is one number: field * FIELD_SPAN + the word's place in the field. Headings and anchor
// texts are numbered one after another with a gap of one between them, so a phrase never runs from one
// heading into the next. Only a word's own token has positions (not the identifier, accent-fold or CJK
// bigram tokens added beside it at the same place), as phrase matching reads words.
//
// On disk (positions.bin) each posting's positions are ascending deltas in variable-byte form (7 bits a
// byte, low bits first, the high bit set on every byte but the last): most deltas fit one byte.
// position-offsets.bin holds, per posting and one more, where its bytes start (Uint32 LE).

/** Positions a field may use: a field's words past this are not positioned (no real page has them). */
export const FIELD_SPAN = 2 ** 28;

export const positionOf = (field: number, place: number): number => field * FIELD_SPAN + place;
export const fieldOfPosition = (position: number): number => Math.floor(position / FIELD_SPAN);

/** Appends ascending `positions` [from, to) as variable-byte deltas to `out` from `at`, growing it;
 * returns the end. */
export function encodePositions(positions: ArrayLike<number>, out: { bytes: Uint8Array }, at: number, from = 0, to = positions.length): number {
  let previous = 0;
  for (let i = from; i < to; i++) {
    const position = positions[i]!;
    let delta = position - previous;
    previous = position;
    if (at + 5 > out.bytes.length) {
      const bigger = new Uint8Array(Math.max(out.bytes.length * 2, at + 64));
      bigger.set(out.bytes.subarray(0, at));
      out.bytes = bigger;
    }
    while (delta >= 0x80) {
      out.bytes[at++] = (delta & 0x7f) | 0x80;
      delta = Math.floor(delta / 0x80);
    }
    out.bytes[at++] = delta;
  }
  return at;
}

/** Decodes the positions in bytes[start, end) into `out` from index 0, which must hold end - start
 * entries (a position takes at least a byte); returns how many. Stops after the first position
 * above `upTo`, when given. The searcher's form: no allocation. */
export function decodePositionsInto(bytes: Uint8Array, start: number, end: number, out: Int32Array, upTo = Infinity): number {
  let n = 0;
  let position = 0;
  let i = start;
  while (i < end && position <= upTo) {
    let b = bytes[i++]!;
    let delta = b & 0x7f;
    // A scale multiplied on, not `2 ** shift`: Node 20's V8 computed the power each time, and this
    // loop was 4% of serve's CPU there (1.6% on Node 24); 3-9 times faster on a /tmp benchmark.
    let scale = 0x80;
    while (b & 0x80) {
      b = bytes[i++]!;
      delta += (b & 0x7f) * scale;
      scale *= 0x80;
    }
    position += delta;
    out[n++] = position;
  }
  return n;
}

/** Reusable memory for hasEncodedRun: grown as needed, so a query's checks allocate nothing. */
export interface RunScratch {
  starts: Int32Array;
  list: Int32Array;
  order: Int32Array;
}

export const newRunScratch = (): RunScratch => ({ starts: new Int32Array(64), list: new Int32Array(64), order: new Int32Array(8) });

/**
 * Whether encoded position lists hold a run: some p with p + k in the k-th list for every k < n (in
 * `field` when not negative), list k being bytes[k][from[k], to[k]), each ascending. Reads as little as
 * it can, as a phrase's common words ("pub", "type") have hundreds of positions a page: the list with
 * the fewest bytes gives the starts it allows; each other list, fewest bytes first, is decoded only
 * as far as the last start left needs, and the starts it lacks are dropped; no start left answers
 * false before the remaining lists are read.
 */
export function hasEncodedRun(bytes: readonly Uint8Array[], from: ArrayLike<number>, to: ArrayLike<number>, field: number, scratch: RunScratch, n = from.length): boolean {
  if (n === 0) return false;
  if (scratch.order.length < n) scratch.order = new Int32Array(n);
  const { order } = scratch;
  let longest = 0;
  for (let k = 0; k < n; k++) {
    longest = Math.max(longest, to[k]! - from[k]!);
    let i = k;
    while (i > 0 && to[order[i - 1]!]! - from[order[i - 1]!]! > to[k]! - from[k]!) {
      order[i] = order[i - 1]!;
      i--;
    }
    order[i] = k;
  }
  if (scratch.starts.length < longest) {
    scratch.starts = new Int32Array(longest);
    scratch.list = new Int32Array(longest);
  }
  const { starts, list } = scratch;
  const first = order[0]!;
  let m = 0;
  const count = decodePositionsInto(bytes[first]!, from[first]!, to[first]!, list);
  for (let i = 0; i < count; i++) if (field < 0 || fieldOfPosition(list[i]!) === field) starts[m++] = list[i]! - first;
  for (let o = 1; o < n && m > 0; o++) {
    const k = order[o]!;
    const length = decodePositionsInto(bytes[k]!, from[k]!, to[k]!, list, starts[m - 1]! + k);
    // Keep a start s when s + k is in list k (both ascending: one merge).
    let kept = 0;
    for (let s = 0, j = 0; s < m && j < length; ) {
      const want = starts[s]! + k;
      if (list[j]! < want) j++;
      else if (list[j]! > want) s++;
      else {
        starts[kept++] = starts[s++]!;
        j++;
      }
    }
    m = kept;
  }
  return m > 0;
}
