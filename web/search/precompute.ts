// What the searcher computes once when it loads an index generation, so a query does one multiply-add
// per posting: per posting its saturated frequency, per term the largest of them, per document its
// field norms and link boost, and k1 in this index's units (rank.ts). Pure over the loaded arrays.

import { FIELD_COUNT, FIELDS } from '../../shared/index-format/index.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';
import { bodyFrequencyScale, forIndex, hubFactor, inverseFieldNorm, linkBoost, linkFiguresOf, saturateAll, type RankParams } from './rank.js';

export interface Precomputed {
  /** Term string -> term number. */
  termIds: Map<string, number>;
  /** The ranking parameters with k1 in this index's units (rank.ts forIndex). */
  rank: RankParams;
  /** Per posting, rank.ts saturatedFrequency: a term's score in a document is idf times this. */
  saturated: Float32Array;
  /** Per term, the largest `saturated` of its postings: the most it can add to a score, over its idf. */
  maxSaturated: Float32Array;
  /** Per document, its link boost (rank.ts `linkBoost`) times its hub factor (`hubFactor`), and the largest (at least 1). */
  boost: Float64Array;
  maxBoost: number;
  /** 1 / norm_f per document and field, for explanations. */
  inverseNorm: Float32Array;
}

export function precompute(gen: IndexGeneration, params: RankParams): Precomputed {
  const { docs, offsets, postings, tfs } = gen;
  const n = docs.url.length;
  const termIds = new Map<string, number>();
  gen.terms.terms.forEach((t, i) => termIds.set(t, i));
  const inverseNorm = new Float32Array(n * FIELD_COUNT);
  const weighted = new Float32Array(n * FIELD_COUNT);
  const boost = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const inv = inverseFieldNorm(params, f, docs.fieldLength[d * FIELD_COUNT + f]!, gen.manifest.avgFieldLength[f]!);
      inverseNorm[d * FIELD_COUNT + f] = inv;
      weighted[d * FIELD_COUNT + f] = params.fieldWeight[f]! * inv;
    }
    boost[d] = linkBoost(params, linkFiguresOf(docs, d)) * hubFactor(params, docs.hub?.[d] ?? 0);
  }
  // k1's unit: the mean normalised body frequency over all postings (word pairs have no body text).
  const BODY = FIELDS.indexOf('body');
  let sumBody = 0;
  let withBody = 0;
  for (let p = 0; p < postings.length; p++) {
    const tf = tfs[p * FIELD_COUNT + BODY]!;
    if (tf === 0) continue;
    sumBody += tf * inverseNorm[postings[p]! * FIELD_COUNT + BODY]!;
    withBody++;
  }
  const rank = forIndex(params, bodyFrequencyScale(sumBody, withBody));
  // Float32: seven significant digits per posting is more than ranking can tell apart, half the memory
  // (52 MB at 13 million postings) and faster to fill; scores are still summed in doubles.
  const saturated = new Float32Array(postings.length);
  saturateAll(rank, tfs, postings, weighted, saturated);
  const maxSaturated = new Float32Array(gen.terms.terms.length);
  for (let t = 0; t < maxSaturated.length; t++) {
    let max = 0;
    for (let p = offsets[t]!; p < offsets[t + 1]!; p++) if (saturated[p]! > max) max = saturated[p]!;
    maxSaturated[t] = max;
  }
  const maxBoost = boost.reduce((a, b) => Math.max(a, b), 1);
  return { termIds, rank, saturated, maxSaturated, boost, maxBoost, inverseNorm };
}
