import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePositions, FIELD_SPAN, positionOf } from '../shared/index-format/index.js';
import { commonPairs, type PositionedRecords } from './phrase-pairs.js';

/** Records from (term, doc, positions) triples, in the order given. */
function records(list: readonly { term: number; doc: number; positions: number[] }[]): PositionedRecords {
  const out = { bytes: new Uint8Array(16) };
  let at = 0;
  const positionEnds = new Uint32Array(list.length);
  list.forEach((r, i) => (positionEnds[i] = at = encodePositions(r.positions, out, at)));
  return {
    count: list.length,
    term: Uint32Array.from(list, (r) => r.term),
    doc: Uint32Array.from(list, (r) => r.doc),
    positionEnds,
    positions: out.bytes,
  };
}

function collect(recs: PositionedRecords, common: number[], documents: number, terms: number): string[] {
  const flags = new Uint8Array(terms);
  for (const t of common) flags[t] = 1;
  const out: string[] = [];
  commonPairs(recs, flags, documents, (doc, _pair, a, b, n) => out.push(`${doc}:${a}-${b}x${n}`));
  return out.sort();
}

describe('commonPairs', () => {
  it('finds the common words side by side in one field, counted, and nothing across fields or with a rare word', () => {
    const body = (p: number) => positionOf(2, p);
    const recs = records([
      // Document 1 first: an incremental build copies reused pages' postings term by term.
      { term: 0, doc: 1, positions: [body(4)] },
      { term: 0, doc: 0, positions: [body(0), body(2)] },
      { term: 1, doc: 0, positions: [body(1), body(3)] },
      // A rare word between two common ones: no pair through it.
      { term: 2, doc: 0, positions: [body(5)] },
      { term: 0, doc: 0, positions: [] },
      { term: 1, doc: 1, positions: [body(5), positionOf(0, 0)] },
      // Words of two fields are never neighbours, whatever their places.
      { term: 3, doc: 1, positions: [positionOf(1, 0)] },
    ]);
    // "0 1 0 1 . 2" in document 0 (a term's positions in one record); document 1: "0 1" in the body.
    expect(collect(recs, [0, 1, 3], 2, 4)).toEqual(['0:0-1x2', '0:1-0x1', '1:0-1x1'].sort());
  });

  it('keeps both words of a place two terms share', () => {
    const recs = records([
      { term: 0, doc: 0, positions: [positionOf(2, 0)] },
      { term: 1, doc: 0, positions: [positionOf(2, 1)] },
      { term: 2, doc: 0, positions: [positionOf(2, 1)] },
      { term: 3, doc: 0, positions: [positionOf(2, 2)] },
    ]);
    expect(collect(recs, [0, 1, 2, 3], 1, 4)).toEqual(['0:0-1x1', '0:0-2x1', '0:1-3x1', '0:2-3x1']);
  });

  it('agrees with reading every pair of places, whatever the records', () => {
    const record = fc.record({
      term: fc.integer({ min: 0, max: 5 }),
      doc: fc.integer({ min: 0, max: 3 }),
      places: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 12 })), { maxLength: 6, selector: ([f, p]) => f * 100 + p }),
    });
    fc.assert(
      // One record per term and document, as a build has.
      fc.property(fc.uniqueArray(record, { maxLength: 20, selector: (r) => `${r.term}:${r.doc}` }), fc.uniqueArray(fc.integer({ min: 0, max: 5 })), (list, common) => {
        const triples = list.map((r) => ({ term: r.term, doc: r.doc, positions: r.places.map(([f, p]) => f * FIELD_SPAN + p).sort((a, b) => a - b) }));
        const expected = new Map<string, number>();
        for (const x of triples) {
          for (const y of triples) {
            if (x.doc !== y.doc || !common.includes(x.term) || !common.includes(y.term)) continue;
            for (const p of x.positions) {
              const n = y.positions.filter((q) => q === p + 1).length;
              const key = `${x.doc}:${x.term}-${y.term}`;
              if (n > 0) expected.set(key, (expected.get(key) ?? 0) + n);
            }
          }
        }
        expect(collect(records(triples), common, 4, 6)).toEqual([...expected].map(([k, n]) => `${k}x${n}`).sort());
      }),
    );
  });
});
