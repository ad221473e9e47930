import { describe, expect, it } from 'vitest';
import { FIELD_COUNT } from '../shared/index-format/index.js';
import { TermTranslation } from './term-translation.js';
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
  it('gives a numbered term the id and surface-word counts its string would get, looking it up once', () => {
    // (term, thread number, surface word) per document, two threads numbering differently.
    const docs: [string, number, string, 0 | 1][] = [
      ['partit', 0, 'partitions', 0],
      ['partit', 5, 'partition', 1],
      ['tabl', 1, 'table', 0],
      ['partit', 0, 'partitioning', 0],
      ['partit', -1, 'partition', 1],
      ['tabl', 2, 'tables', 1],
      ['partit', 5, 'partitions', 1],
    ];
    const byString = new PostingsBuilder();
    const byNumber = new PostingsBuilder();
    const threads = [new TermTranslation(), new TermTranslation()];
    const tfs = new Uint8Array(FIELD_COUNT).fill(1);
    docs.forEach(([term, n, word, thread], d) => {
      const a = byString.termId(term, word);
      const b = byNumber.numberedTermId(threads[thread]!, n, term, word);
      expect(b).toBe(a);
      byString.add(a, d, tfs, 0, new Uint8Array(0), 0, 0);
      byNumber.add(b, d, tfs, 0, new Uint8Array(0), 0, 0);
    });
    expect(threads[1]!.get(5)).toBe(threads[0]!.get(0));
    expect(threads[0]!.get(7)).toBe(-1);
    const [x, y] = [byString.finish(), byNumber.finish()];
    expect(y.words).toEqual(x.words);
    expect(y.forms).toEqual(x.forms);
    expect(x.words).toEqual(['partition', 'table']);
    expect(x.forms[0]).toContain('partitions');
  });
});
