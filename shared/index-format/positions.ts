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

/** Appends ascending `positions` as variable-byte deltas to `out` from `at`, growing it; returns the end. */
export function encodePositions(positions: readonly number[], out: { bytes: Uint8Array }, at: number): number {
  let previous = 0;
  for (const position of positions) {
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
 * entries (a position takes at least a byte); returns how many. The phrase check's form: no allocation. */
export function decodePositionsInto(bytes: Uint8Array, start: number, end: number, out: Int32Array): number {
  let n = 0;
  let position = 0;
  let i = start;
  while (i < end) {
    let b = bytes[i++]!;
    let delta = b & 0x7f;
    let shift = 7;
    while (b & 0x80) {
      b = bytes[i++]!;
      delta += (b & 0x7f) * 2 ** shift;
      shift += 7;
    }
    position += delta;
    out[n++] = position;
  }
  return n;
}

/** Decodes the positions in bytes[start, end) into `out` (cleared first); returns how many. */
export function decodePositions(bytes: Uint8Array, start: number, end: number, out: number[]): number {
  out.length = 0;
  let position = 0;
  let i = start;
  while (i < end) {
    let delta = 0;
    let scale = 1;
    let b: number;
    do {
      b = bytes[i++]!;
      delta += (b & 0x7f) * scale;
      scale *= 0x80;
    } while (b & 0x80);
    position += delta;
    out.push(position);
  }
  return out.length;
}

/**
 * Whether the position lists hold a run: some p in lists[0] with p + k in lists[k] for every k, in
 * `field` when it is not negative. Each list ascending, lists[k] of lengths[k] entries; a merge, linear
 * in their total length.
 */
export function hasRun(lists: readonly ArrayLike<number>[], field = -1, lengths: readonly number[] = lists.map((l) => l.length)): boolean {
  const n = lists.length;
  if (n === 0) return false;
  const cursor = new Array<number>(n).fill(0);
  const first = lists[0]!;
  outer: for (let i = 0; i < lengths[0]!; i++) {
    const p = first[i]!;
    if (field >= 0 && fieldOfPosition(p) !== field) continue;
    for (let k = 1; k < n; k++) {
      const list = lists[k]!;
      const length = lengths[k]!;
      let c = cursor[k]!;
      while (c < length && list[c]! < p + k) c++;
      cursor[k] = c;
      if (c === length) return false; // no later p can find its k-th word either
      if (list[c] !== p + k) continue outer;
    }
    return true;
  }
  return false;
}
