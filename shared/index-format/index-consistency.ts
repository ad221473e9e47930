// What the tables a generation reads whole must say of each other before a query may trust them. A
// file of the right size with wrong bytes (a disk fault, a copy gone wrong) passes every size check in
// index-read.ts; without these, a garbled offsets.bin entry gave a term more postings than the index
// has documents (billions, when its high byte changed), decoded from a few hundred bytes, and `serve`
// spun at full CPU with a growing heap instead of starting. Pure: each returns the first fault as the
// file and a phrase, or undefined.

/** A fault found: the file to name and what is wrong with it. */
export interface TableFault {
  file: 'offsets.bin' | 'term-offsets.bin' | 'doc-numbers.bin' | 'word-map-offsets.bin';
  why: string;
}

/** Bytes a posting takes at least in postings.bin (a document gap and a field mask, a byte each) and in
 * positions.bin (its length, a byte): term-codec.ts. */
const MIN_POSTING_BYTES = 2;
const MIN_POSITION_BYTES = 1;

/**
 * offsets.bin against term-offsets.bin: every term's postings count up from 0, no term has more than
 * `documents`, and each term's bytes start where the previous term's end, whole bytes, enough for its
 * postings. So a list's decoding is bounded by the bytes it reads.
 */
export function termTableFault(offsets: Uint32Array, termEnds: Float64Array, documents: number): TableFault | undefined {
  const terms = offsets.length - 1;
  if (offsets[0] !== 0) return { file: 'offsets.bin', why: 'it does not start at posting 0' };
  if (termEnds[0] !== 0 || termEnds[terms + 1] !== 0) return { file: 'term-offsets.bin', why: 'a file does not start at byte 0' };
  for (let t = 0; t < terms; t++) {
    const n = offsets[t + 1]! - offsets[t]!;
    if (n < 0 || n > documents) return { file: 'offsets.bin', why: `term ${t} has ${n} postings, of ${documents} documents` };
    if (!Number.isInteger(termEnds[t + 1]) || !Number.isInteger(termEnds[terms + 2 + t])) return { file: 'term-offsets.bin', why: `term ${t}'s bytes do not end at a whole byte` };
    const postingBytes = termEnds[t + 1]! - termEnds[t]!;
    const positionBytes = termEnds[terms + 2 + t]! - termEnds[terms + 1 + t]!;
    if (postingBytes < MIN_POSTING_BYTES * n || positionBytes < MIN_POSITION_BYTES * n) {
      return { file: 'term-offsets.bin', why: `term ${t}'s ${n} postings do not fit in its ${postingBytes} bytes of postings and ${positionBytes} of positions` };
    }
  }
  return undefined;
}

/**
 * doc-numbers.bin's stored.bin columns: each record starts where the one before ends, from 0, and its
 * header and body fit in it. So a snippet never reads another page's bytes, or a range the size of
 * the whole file. (The records' total is checked against stored-chunks.bin in index-read.ts.)
 */
export function storedRecordFault(docs: { storedOffset: Float64Array; storedLength: Uint32Array; storedHeaderLength: Uint32Array; storedBodyLength: Uint32Array }): TableFault | undefined {
  const { storedOffset, storedLength, storedHeaderLength, storedBodyLength } = docs;
  let end = 0;
  for (let d = 0; d < storedOffset.length; d++) {
    if (storedOffset[d] !== end) return { file: 'doc-numbers.bin', why: `document ${d}'s stored record starts at ${storedOffset[d]}, not ${end}` };
    if (storedHeaderLength[d]! + storedBodyLength[d]! > storedLength[d]!) return { file: 'doc-numbers.bin', why: `document ${d}'s stored header and body pass its record` };
    end += storedLength[d]!;
  }
  return undefined;
}

/** word-map-offsets.bin: each document's entries start where the previous document's end, from 0. */
export function wordMapFault(wordMapOffsets: Uint32Array): TableFault | undefined {
  if (wordMapOffsets[0] !== 0) return { file: 'word-map-offsets.bin', why: 'it does not start at entry 0' };
  for (let d = 1; d < wordMapOffsets.length; d++) {
    if (wordMapOffsets[d]! < wordMapOffsets[d - 1]!) return { file: 'word-map-offsets.bin', why: `document ${d - 1}'s entries end before they start` };
  }
  return undefined;
}
