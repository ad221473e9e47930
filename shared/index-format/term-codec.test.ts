import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIELD_COUNT } from './index-format.js';
import { decodePositionStarts, decodeTermDocs, decodeTermPositions, encodeRecords } from './term-codec.js';

/** Terms as the indexer lays them out: per term ascending documents, FIELD_COUNT frequencies and position bytes per posting. */
const term = fc
  .uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 40 })
  .chain((docs) =>
    fc.record({
      docs: fc.constant(docs.sort((a, b) => a - b)),
      tfs: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 255 })), { minLength: docs.length * FIELD_COUNT, maxLength: docs.length * FIELD_COUNT }),
      positions: fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: docs.length, maxLength: docs.length }),
    }),
  );

/** The files of `terms` given as records a term after another (term i numbered i), each term's documents ascending. */
function encodeLaidOut(terms: readonly { docs: number[]; tfs: number[]; positions: Uint8Array[] }[]): ReturnType<typeof encodeRecords> {
  const all = terms.flatMap((t) => t.positions);
  const positionEnds = new Uint32Array(all.length);
  all.forEach((p, i) => (positionEnds[i] = (i === 0 ? 0 : positionEnds[i - 1]!) + p.length));
  const positions = new Uint8Array(all.length === 0 ? 0 : positionEnds[all.length - 1]!);
  all.forEach((p, i) => positions.set(p, i === 0 ? 0 : positionEnds[i - 1]!));
  const records = {
    count: all.length,
    term: Uint32Array.from(terms.flatMap((t, i) => t.docs.map(() => i))),
    doc: Uint32Array.from(terms.flatMap((t) => t.docs)),
    tfs: Uint8Array.from(terms.flatMap((t) => t.tfs)),
    positionEnds,
    positions,
  };
  return encodeRecords(records, Int32Array.from(terms.keys()), terms.length);
}

describe('term codec', () => {
  it('decodes each term to exactly what was encoded', () => {
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 12 }), (terms) => {
        const encoded = encodeLaidOut(terms);
        const T = terms.length;
        terms.forEach((t, i) => {
          const n = t.docs.length;
          // Documents decoded, frequencies read posting by posting (any order) or whole: what was encoded.
          const stored = decodeTermDocs(encoded.postings.subarray(encoded.termOffsets[i], encoded.termOffsets[i + 1]), n, 2 ** 32);
          expect([...stored.docs]).toEqual(t.docs);
          const one = new Uint8Array(FIELD_COUNT + 2);
          for (const p of [...t.docs.keys()].reverse()) {
            stored.frequencies.read(p, one, 1);
            expect([...one.subarray(1, 1 + FIELD_COUNT)]).toEqual(t.tfs.slice(p * FIELD_COUNT, (p + 1) * FIELD_COUNT));
          }
          expect([...stored.frequencies.decodeAll()]).toEqual(t.tfs);
          // A slice read alone, from any posting (across the blocks of 16 whose starts are kept), into
          // bytes that held something else: the same frequencies.
          for (const from of [0, 1, 15, 16, 17, 33, n - 1].filter((f) => f < n)) {
            for (const count of new Set([1, n - from, Math.min(n - from, 18)])) {
              const slice = new Uint8Array(count * FIELD_COUNT).fill(9);
              stored.frequencies.readRange(from, count, slice);
              expect([...slice]).toEqual(t.tfs.slice(from * FIELD_COUNT, (from + count) * FIELD_COUNT));
            }
          }
          const termPositions = encoded.positions.subarray(encoded.termOffsets[T + 1 + i], encoded.termOffsets[T + 2 + i]);
          const got = decodeTermPositions(termPositions, n);
          t.positions.forEach((p, k) => expect([...got.bytes.subarray(got.offsets[k], got.offsets[k + 1])]).toEqual([...p]));
          // Where each posting's start, worked out a posting at a time (any order): the same bytes.
          const { starts, start } = decodePositionStarts(termPositions, n, termPositions.length);
          for (const k of [...t.docs.keys()].reverse()) {
            const from = start + starts.startOf(k);
            expect([...termPositions.subarray(from, from + starts.lastLength)]).toEqual([...t.positions[k]!]);
          }
        });
      }),
    );
  });

  it('throws on a term whose bytes end early', () => {
    const encoded = encodeLaidOut([{ docs: [5, 900], tfs: [1, 0, 3, 0, 0, 0, 0, 7, 0, 0], positions: [Uint8Array.of(1), Uint8Array.of(2, 3)] }]);
    expect(() => decodeTermDocs(encoded.postings.subarray(0, encoded.postings.length - 1), 2, 1000)).toThrow(/need \d+ bytes/);
    expect(() => decodeTermPositions(encoded.positions.subarray(0, encoded.positions.length - 1), 2)).toThrow(/need \d+ bytes/);
    expect(() => decodePositionStarts(encoded.positions, 2, encoded.positions.length - 1)).toThrow(/need \d+ bytes/);
    expect(() => decodePositionStarts(encoded.positions.subarray(0, 1), 2, encoded.positions.length)).toThrow(/need \d+ bytes/);
    expect([...decodeTermDocs(encoded.postings, 2, 901).docs]).toEqual([5, 900]);
    // Bytes that decode, to a document the generation does not have (damage, not a short read).
    expect(() => decodeTermDocs(encoded.postings, 2, 900)).toThrow(/name document 900, of 900/);
  });

  it('encodes records in document order, terms numbered in any order, to the bytes of the same records a term after another', () => {
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 1000 }), (terms, seed) => {
        const T = terms.length;
        const laidOut = encodeLaidOut(terms);
        // The same postings as records sorted by document (then term), term i numbered 3 + its place in a shuffle.
        const perm = [...terms.keys()].sort((a, b) => ((a * 5 + seed) % 11) - ((b * 5 + seed) % 11) || a - b);
        const rank = new Int32Array(T + 3).fill(-1);
        perm.forEach((i, n) => (rank[n + 3] = i));
        const records = terms
          .flatMap((t, i) => t.docs.map((doc, k) => ({ n: perm.indexOf(i) + 3, doc, tfs: t.tfs.slice(k * FIELD_COUNT, (k + 1) * FIELD_COUNT), positions: t.positions[k]! })))
          .sort((a, b) => a.doc - b.doc || a.n - b.n);
        const ends = new Uint32Array(records.length);
        records.forEach((r, i) => (ends[i] = (i === 0 ? 0 : ends[i - 1]!) + r.positions.length));
        const bytes = new Uint8Array(records.length === 0 ? 0 : ends[records.length - 1]!);
        records.forEach((r, i) => bytes.set(r.positions, i === 0 ? 0 : ends[i - 1]!));
        const encoded = encodeRecords(
          { count: records.length, term: Uint32Array.from(records, (r) => r.n), doc: Uint32Array.from(records, (r) => r.doc), tfs: Uint8Array.from(records.flatMap((r) => r.tfs)), positionEnds: ends, positions: bytes },
          rank,
          T,
        );
        expect([...encoded.termOffsets]).toEqual([...laidOut.termOffsets]);
        expect(Buffer.from(encoded.postings).equals(Buffer.from(laidOut.postings))).toBe(true);
        expect(Buffer.from(encoded.positions).equals(Buffer.from(laidOut.positions))).toBe(true);
      }),
    );
  });
});
