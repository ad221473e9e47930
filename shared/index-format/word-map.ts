// The word map of a document's body: where every WORD_MAP_STEP-th body word starts (as a UTF-16 offset
// into the stored body and as a UTF-8 byte offset into its bytes in stored.bin), and the place of the
// first word of each of its sections. With the query words' positions (positions.ts) it lets a
// snippet be cut from a few hundred bytes of the body read at the right spot, instead of searching
// the first 50,000 characters of every result for the query's words.
//
// On disk: word-map.bin, Uint32 LE, per document [checkpoints C, sections S, then C pairs (char, byte),
// then S places]; word-map-offsets.bin, Uint32 LE, documents + 1 entries: document d's entries are
// [wo[d], wo[d+1]).

/** Body words from one checkpoint to the next. */
export const WORD_MAP_STEP = 64;

/** One document's word map, encoded as it is stored. */
export function encodeWordMap(chars: readonly number[], bytes: readonly number[], sectionPlaces: readonly number[]): number[] {
  const out = [chars.length, sectionPlaces.length];
  for (let k = 0; k < chars.length; k++) out.push(chars[k]!, bytes[k]!);
  out.push(...sectionPlaces);
  return out;
}

/** A view of document `doc`'s word map in the generation's word-map.bin. */
export class WordMap {
  readonly checkpoints: number;
  readonly sections: number;
  private readonly at: number;

  constructor(
    private readonly map: Uint32Array,
    offsets: Uint32Array,
    doc: number,
  ) {
    this.at = offsets[doc]!;
    const empty = offsets[doc + 1] === this.at;
    this.checkpoints = empty ? 0 : map[this.at]!;
    this.sections = empty ? 0 : map[this.at + 1]!;
  }

  /** UTF-16 offset in the body of word k * WORD_MAP_STEP. */
  char(k: number): number {
    return this.map[this.at + 2 + 2 * k]!;
  }

  /** UTF-8 byte offset in the body of word k * WORD_MAP_STEP. */
  byte(k: number): number {
    return this.map[this.at + 3 + 2 * k]!;
  }

  /** Place of the first body word of section i (the body's word count when it has none). */
  sectionPlace(i: number): number {
    return this.map[this.at + 2 + 2 * this.checkpoints + i]!;
  }
}
