// everyWordTop against the plain computation it replaces: the documents having one alternative of every
// group, each scored by summing its keys in order, ranked by top-k.ts. Equal to the last bit, with and
// without galloping, with ties, with a filter, with keys that apply in some documents only, for every k.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EveryWordScratch, everyWordTop, type EveryWordGroups, type EveryWordKey } from './every-word.js';
import { finalScore } from './rank.js';
import { topDocuments } from './top-k.js';

const DOCS = 60;

/** A sorted list of distinct documents below DOCS with a saturated frequency each (few distinct
 * values, so scores tie). Each document is in it at one of three densities: lists of a few documents
 * each rarely share one, and the candidates one list drops while narrowing, and the others then
 * score, are what the scan must get right. */
const members = fc.constantFrom(0.1, 0.5, 0.9).chain((density) =>
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: DOCS, maxLength: DOCS }).map((draws) => draws.flatMap((u, d) => (u < density ? [d] : []))),
);
const list = members.chain((docs) =>
  fc.array(fc.constantFrom(0.5, 1, 1.25, 2), { minLength: docs.length, maxLength: docs.length }).map((sat) => {
    const sorted = [...docs].sort((a, b) => a - b);
    return { docs: Uint32Array.from(sorted), saturated: Float32Array.from(sat) };
  }),
);
const key = fc.record({
  list,
  weightedIdf: fc.constantFrom(0, 0.7, 1.3, 2.9),
  onlyIn: fc.option(fc.array(fc.constantFrom(0, 1), { minLength: DOCS, maxLength: DOCS }).map((bits) => Uint8Array.from(bits))),
});
/** Keys, and groups of alternatives of them (a key in no group only scores; one may be in several). */
const query = fc.array(key, { minLength: 1, maxLength: 6 }).chain((ks) =>
  fc
    .array(fc.array(fc.uniqueArray(fc.nat(ks.length - 1), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 })
    .map((groups) => ({ specs: ks, groups })),
);

function plain(keys: readonly EveryWordKey[], groups: EveryWordGroups, k: number, boost: Float64Array, accepts: (d: number) => boolean) {
  const has = (key: EveryWordKey, d: number) => key.docs.includes(d) && (key.onlyIn === undefined || key.onlyIn[d] === 1);
  const text = new Float64Array(DOCS);
  const final = new Float64Array(DOCS);
  const matches: number[] = [];
  for (let d = 0; d < DOCS; d++) {
    if (!groups.every((g) => g.some((alt) => alt.every((i) => has(keys[i]!, d)))) || !accepts(d)) continue;
    for (const key of keys) if (has(key, d)) text[d]! += key.weightedIdf * (key.lazy?.complete() ?? key.saturated)[key.docs.indexOf(d)]!;
    final[d] = finalScore(text[d]!, boost[d]!);
    matches.push(d);
  }
  return { hits: topDocuments(matches, final, k).map((d) => ({ doc: d, final: final[d]!, text: text[d]! })), total: matches.length };
}

describe('everyWordTop', () => {
  it('ranks and counts what the plain computation does, to the last bit (property)', () => {
    const scratch = new EveryWordScratch();
    fc.assert(
      fc.property(
        query,
        fc.array(fc.constantFrom(1, 1.5, 2.25), { minLength: DOCS, maxLength: DOCS }),
        fc.nat(12),
        fc.constantFrom(0, 1, 8, Number.MAX_SAFE_INTEGER),
        fc.option(fc.integer({ min: 2, max: 5 })),
        fc.boolean(),
        ({ specs, groups }, boosts, k, gallopRatio, every, lazily) => {
          // Lazily: the scores only through `lazy` (as the searcher's common words), none in `saturated`.
          const scores = (saturated: Float32Array) => (lazily ? { saturated: new Float32Array(0), lazy: { at: (p: number) => saturated[p]!, complete: () => saturated } } : { saturated });
          const ks: EveryWordKey[] = specs.map((s) => ({ docs: s.list.docs, ...scores(s.list.saturated), weightedIdf: s.weightedIdf, ...(s.onlyIn ? { onlyIn: s.onlyIn } : {}) }));
          const boost = Float64Array.from(boosts);
          const accepts = every === null ? undefined : (d: number) => d % every !== 0;
          expect(everyWordTop(ks, groups, k, boost, scratch, gallopRatio, accepts)).toEqual(plain(ks, groups, k, boost, accepts ?? (() => true)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds a rare word pair\'s few postings among many candidates', () => {
    const many = Uint32Array.from({ length: 10_000 }, (_, i) => i);
    const ks: EveryWordKey[] = [
      { docs: many, saturated: new Float32Array(many.length).fill(1), weightedIdf: 1 },
      { docs: Uint32Array.of(17, 9_999), saturated: Float32Array.of(2, 3), weightedIdf: 1 },
    ];
    const { hits, total } = everyWordTop(ks, [[[0]]], 3, new Float64Array(many.length).fill(1), new EveryWordScratch(), 8);
    expect(total).toBe(10_000);
    expect(hits.map((h) => [h.doc, h.text])).toEqual([
      [9_999, 4],
      [17, 3],
      [0, 1],
    ]);
  });
});
