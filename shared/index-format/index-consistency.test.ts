// The tables a generation reads whole must agree with each other: a fault is named, a whole table is not.

import { describe, expect, it } from 'vitest';
import { storedRecordFault, termTableFault, wordMapFault } from './index-consistency.js';

// Two terms over 3 documents: term 0 in 2 of them (4 bytes of postings, 2 of positions), term 1 in 1.
const offsets = () => Uint32Array.of(0, 2, 3);
const termEnds = () => Float64Array.of(0, 4, 6, 0, 2, 5);

describe('term tables', () => {
  it('agree when each term has its postings and the bytes they need', () => {
    expect(termTableFault(offsets(), termEnds(), 3)).toBeUndefined();
    expect(termTableFault(Uint32Array.of(0), Float64Array.of(0, 0), 0)).toBeUndefined();
  });

  it('name the first term whose entries are wrong', () => {
    const backwards = offsets();
    backwards[1] = 4; // term 1 would have 3 - 4 postings
    expect(termTableFault(backwards, termEnds(), 3)).toEqual({ file: 'offsets.bin', why: 'term 0 has 4 postings, of 3 documents' });
    expect(termTableFault(Uint32Array.of(0, 2, 1), termEnds(), 3)).toEqual({ file: 'offsets.bin', why: 'term 1 has -1 postings, of 3 documents' });
    expect(termTableFault(Uint32Array.of(1, 2, 3), termEnds(), 3)?.why).toBe('it does not start at posting 0');
    const fraction = termEnds();
    fraction[1] = 3.5;
    expect(termTableFault(offsets(), fraction, 3)).toEqual({ file: 'term-offsets.bin', why: "term 0's bytes do not end at a whole byte" });
    const short = termEnds();
    short[1] = 3; // 2 postings need 4 bytes at least
    expect(termTableFault(offsets(), short, 3)?.why).toBe("term 0's 2 postings do not fit in its 3 bytes of postings and 2 of positions");
    const noPositions = termEnds();
    noPositions[4] = 1;
    expect(termTableFault(offsets(), noPositions, 3)?.why).toBe("term 0's 2 postings do not fit in its 4 bytes of postings and 1 of positions");
    const late = termEnds();
    late[3] = 1;
    expect(termTableFault(offsets(), late, 3)?.why).toBe('a file does not start at byte 0');
  });
});

describe('stored records', () => {
  const docs = () => ({ storedOffset: Float64Array.of(0, 10, 25), storedLength: Uint32Array.of(10, 15, 5), storedHeaderLength: Uint32Array.of(2, 3, 1), storedBodyLength: Uint32Array.of(8, 10, 0) });

  it('agree when each record starts where the previous one ends and holds its header and body', () => {
    expect(storedRecordFault(docs())).toBeUndefined();
  });

  it('name the first record out of place or too short', () => {
    const gap = docs();
    gap.storedOffset[2] = 26;
    expect(storedRecordFault(gap)).toEqual({ file: 'doc-numbers.bin', why: "document 2's stored record starts at 26, not 25" });
    const long = docs();
    long.storedBodyLength[1] = 13;
    expect(storedRecordFault(long)?.why).toBe("document 1's stored header and body pass its record");
  });
});

describe('word map offsets', () => {
  it('agree when they never go back, from 0', () => {
    expect(wordMapFault(Uint32Array.of(0, 0, 4, 4, 9))).toBeUndefined();
    expect(wordMapFault(Uint32Array.of(0, 5, 4))).toEqual({ file: 'word-map-offsets.bin', why: "document 1's entries end before they start" });
    expect(wordMapFault(Uint32Array.of(2, 5))?.why).toBe('it does not start at entry 0');
  });
});
