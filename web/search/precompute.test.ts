// Opening a generation no longer reads every posting: k1's unit comes from per-document sums the
// indexer wrote, and saturated frequencies are computed per term when first read. Both must equal
// what reading every posting gives. A common word's scores are worked out posting by posting as a
// query reaches them, and whole once enough of them were asked for: the same numbers either way.

import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureGeneration } from '../../test/support/fixture-generation.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { FIELD_COUNT, FIELDS, PostingLists, type IndexGeneration } from '../../shared/index-format/index.js';
import { PostingScores, precompute } from './precompute.js';
import { bodyFrequencyScale, DEFAULT_RANK_PARAMS, forIndex, inverseFieldNorm, saturatedFrequency } from './rank.js';

const WORDS = ['quartz', 'mica', 'basalt', 'granite', 'shale', 'slate', 'flint', 'chalk', 'gneiss', 'marble', 'the', 'of'];
const random = seededRandom(27112026);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
// Lengths from a few words to hundreds, so norms and frequencies differ from page to page.
const pages = Array.from({ length: 50 }, (_, i) => ({ url: `http://rocks.test/${i}`, title: text(3), headings: [text(2)], text: text(5 + ((i * 37) % 300)) }));

const generation = fixtureGeneration(pages);
let gen: IndexGeneration;
beforeAll(() => {
  gen = generation();
});

describe('precompute', () => {
  it("gives k1 and every posting's saturated frequency as a pass over every posting does", () => {
    const params = { ...DEFAULT_RANK_PARAMS, k1: 1.3 };
    const pre = precompute(gen, params);
    const BODY = FIELDS.indexOf('body');
    const norm = (d: number, f: number) => inverseFieldNorm(params, f, gen.docs.fieldLength[d * FIELD_COUNT + f]!, gen.manifest.avgFieldLength[f]!);
    let sum = 0;
    let withBody = 0;
    for (let t = 0; t < gen.lists.terms; t++) {
      const { docs, tfs } = gen.lists.list(t);
      docs.forEach((d, i) => {
        const tf = tfs[i * FIELD_COUNT + BODY]!;
        if (tf > 0) {
          sum += tf * norm(d, BODY);
          withBody++;
        }
      });
    }
    expect(withBody).toBeGreaterThan(pages.length * 5);
    const rank = forIndex(params, bodyFrequencyScale(sum, withBody));
    // Relative: precompute keeps 1/norm in Float32.
    expect(Math.abs(pre.rank.k1 - rank.k1) / rank.k1).toBeLessThan(1e-6);
    expect(pre.rank.k1).not.toBeCloseTo(params.k1, 3); // the unit is not 1 here: the comparison is not vacuous
    for (let t = 0; t < gen.lists.terms; t++) {
      const scored = pre.scored(t);
      let max = 0;
      scored.docs.forEach((d, i) => {
        const weighted = Array.from({ length: FIELD_COUNT }, (_, f) => params.fieldWeight[f]! * norm(d, f));
        const want = saturatedFrequency(rank, scored.tfs, i * FIELD_COUNT, weighted, 0);
        expect(scored.saturated[i]).toBeCloseTo(want, 5);
        max = Math.max(max, scored.saturated[i]!);
      });
      expect(scored.maxSaturated).toBe(max);
      expect(pre.scored(t)).toBe(scored); // computed once while the list is kept
    }
    // Scored posting by posting first, each from its stored frequencies (lists read anew, none of them
    // decoded whole yet): to the bit what the whole list's scores hold.
    const lists = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents);
    try {
      const lazily = precompute({ ...gen, lists }, params, 128, 0);
      for (let t = 0; t < gen.lists.terms; t++) {
        const one = lazily.postingScores(t);
        const whole = pre.scored(t).saturated;
        for (let p = whole.length - 1; p >= 0; p--) expect(one.at(p)).toBe(whole[p]);
      }
    } finally {
      lists.close();
    }
  });
});

describe('precompute over long lists', () => {
  // More postings than a list is scored a slice at a time in (4,096): slices end inside it.
  const many = Array.from({ length: 4_300 }, (_, i) => ({ url: `http://rocks.test/many/${i}`, title: i % 7 === 0 ? 'quartz' : 'mica', text: `quartz ${text(1 + (i % 9))}` }));
  const long = fixtureGeneration(many);

  it('scores a list longer than a slice to the bit as posting by posting', { timeout: 60_000 }, () => {
    const big = long();
    const t = big.termIds.get('quartz')!;
    expect(big.lists.docFreq(t)).toBe(many.length);
    const params = DEFAULT_RANK_PARAMS;
    const whole = precompute(big, params).postingScores(t).complete();
    const lists = new PostingLists(big.dir, big.offsets, big.lists.termOffsets, big.manifest.documents);
    try {
      const one = precompute({ ...big, lists }, params, 128, 0).postingScores(t);
      for (let p = whole.length - 1; p >= 0; p--) expect(one.at(p)).toBe(whole[p]);
    } finally {
      lists.close();
    }
    // Once a scan has decoded the list's frequencies whole, its slices are taken from those.
    expect(big.lists.list(t).tfs.length).toBe(many.length * FIELD_COUNT);
    expect(precompute(big, params).postingScores(t).complete()).toEqual(whole);
  });
});

describe('PostingScores', () => {
  it('scores postings one by one, then the whole list once half of it was asked for, with the same numbers', () => {
    const docs = Uint32Array.from({ length: 10 }, (_, i) => 3 * i);
    const score = (p: number) => Math.fround(1 / (p + 3));
    let ones = 0;
    let alls = 0;
    const scores = new PostingScores(
      docs,
      (p) => (ones++, score(p)),
      () => (alls++, Float32Array.from(docs, (_, p) => score(p))),
    );
    for (const p of [7, 2, 9, 0, 4]) expect(scores.at(p)).toBe(score(p));
    expect([ones, alls]).toEqual([5, 0]);
    // The sixth of ten: the list is worked out whole, and every later posting read from it.
    expect(scores.at(5)).toBe(score(5));
    expect([ones, alls]).toEqual([5, 1]);
    for (let p = 0; p < docs.length; p++) expect(scores.at(p)).toBe(score(p));
    expect(scores.complete()).toBe(scores.complete());
    expect([ones, alls]).toEqual([5, 1]);
  });

  it('works out the whole at once when a walk asks for it', () => {
    let alls = 0;
    const scores = new PostingScores(Uint32Array.of(1, 2), () => 0.5, () => (alls++, Float32Array.of(0.5, 0.25)));
    expect([...scores.complete()]).toEqual([0.5, 0.25]);
    expect(scores.at(1)).toBe(0.25);
    expect(alls).toBe(1);
  });
});
