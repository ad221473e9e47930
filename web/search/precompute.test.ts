// Opening a generation no longer reads every posting: k1's unit comes from per-document sums the
// indexer wrote, and saturated frequencies are computed per term when first read. Both must equal
// what reading every posting gives.

import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureGeneration } from '../../test/support/fixture-generation.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { FIELD_COUNT, FIELDS, type IndexGeneration } from '../../shared/index-format/index.js';
import { precompute } from './precompute.js';
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
  });
});
