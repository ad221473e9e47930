import { describe, expect, it } from 'vitest';
import { FIELD_COUNT } from '../shared/index-format/index.js';
import { PostingsBuilder } from './postings.js';

/** Adds one posting of `term` in `doc` with body frequency `tf` and positions bytes `positions`. */
function add(builder: PostingsBuilder, term: string, doc: number, tf: number, positions: number[]): void {
  const tfs = new Uint8Array(FIELD_COUNT);
  tfs[0] = tf;
  builder.add(builder.termId(term, term), doc, tfs, 0, Uint8Array.from(positions), 0, positions.length);
}

describe('PostingsBuilder', () => {
  it('lays postings out term by term, terms in order and documents ascending, each with its positions', () => {
    const builder = new PostingsBuilder();
    add(builder, 'zebra', 0, 2, [1, 2]);
    add(builder, 'apple', 0, 1, [3]);
    add(builder, 'zebra', 1, 1, [4]);
    const layout = builder.finish();
    expect(layout.terms).toEqual(['apple', 'zebra']);
    expect([...layout.offsets]).toEqual([0, 1, 3]);
    expect([...layout.postings]).toEqual([0, 0, 1]);
    expect([0, 1, 2].map((p) => layout.tfs[p * FIELD_COUNT])).toEqual([1, 2, 1]);
    expect([0, 1, 2].map((p) => [...layout.positions.subarray(layout.positionOffsets[p], layout.positionOffsets[p + 1])])).toEqual([[3], [1, 2], [4]]);
  });
  it('lets go of its postings once laid out: a build keeps its builder while it writes the index', () => {
    const builder = new PostingsBuilder();
    add(builder, 'apple', 0, 1, [3]);
    expect(builder.finish().postings.length).toBe(1);
    const again = builder.finish();
    expect([again.postings.length, again.positions.length, again.terms.length]).toEqual([0, 0, 0]);
  });
});
