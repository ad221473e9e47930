// What the searcher computes for an index generation, so a query does one multiply-add per posting:
// per document its field norms and link boost, and k1 in this index's units (rank.ts), when the
// generation opens; per term its postings' saturated frequencies and the largest of them, the first
// time a query reads the term (computing them for every posting made opening 106k pages take 0.7-0.9 s).
// Pure over the loaded arrays.

import { FIELD_COUNT, FIELDS } from '../../shared/index-format/index.js';
import type { IndexGeneration, TermList, TermLookup } from '../../shared/index-format/index.js';
import { isDefinedNameToken } from '../../shared/analysis/index.js';
import { bodyFrequencyScale, forIndex, hubFactor, inverseFieldNorm, languageFactor, linkBoost, linkFiguresOf, listingFactor, listingSites, mainLanguages, saturateAll, type RankParams } from './rank.js';

/** A term's postings with what ranking reads of them. */
export interface ScoredList extends TermList {
  /** Per posting, rank.ts saturatedFrequency: the term's score in that document is idf times this. */
  saturated: Float32Array;
  /** The largest of `saturated`: the most the term can add to a score, over its idf. */
  maxSaturated: number;
  /** Per block of `blockPostings` postings, the largest of its `saturated` and of its documents'
   * boosts: bounds on the final score of a document first met in that block (posting-loop.ts). */
  blockMax: Float32Array;
  blockBoost: Float64Array;
  blockPostings: number;
}

export interface Precomputed {
  /** Term string -> term number. */
  termIds: TermLookup;
  /** The ranking parameters with k1 in this index's units (rank.ts forIndex). */
  rank: RankParams;
  /** Term t's postings, saturated frequencies and their largest, computed once per list read. */
  scored(term: number): ScoredList;
  /** Per document, its link boost (rank.ts `linkBoost`) times its hub, listing and language factors
   * (`hubFactor`, `listingFactor`, `languageFactor`), and the largest (at least 1). */
  boost: Float64Array;
  /** Per document, its site's main language (rank.ts mainLanguages), for explanations. */
  mainLanguage: readonly string[];
  /** Per document, 1 when most pages of its site are listings (rank.ts listingSites): none is demoted. */
  listingSite: Uint8Array;
  maxBoost: number;
  /** 1 / norm_f per document and field, for explanations. */
  inverseNorm: Float32Array;
}

export function precompute(gen: IndexGeneration, params: RankParams, blockPostings = 128): Precomputed {
  const { docs } = gen;
  const n = docs.url.length;
  const termIds = gen.termIds;
  const inverseNorm = new Float32Array(n * FIELD_COUNT);
  const weighted = new Float32Array(n * FIELD_COUNT);
  const boost = new Float64Array(n);
  // The body's column of `weighted`, which saturateAll reads alone for a posting only in the body.
  const BODY = FIELDS.indexOf('body');
  const body = { field: BODY, weighted: new Float32Array(n) };
  const siteOf = (d: number): string => docs.site.at(d)!;
  const mainLanguage = mainLanguages(docs.language, siteOf);
  const listingSite = listingSites(docs.listing, params.listingFrom, siteOf);
  // k1's unit: the mean normalised body frequency over all postings (word pairs have no body text),
  // summed per document: sum over d of bodyFrequency[d] / norm_body(d).
  let sumBody = 0;
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const inv = inverseFieldNorm(params, f, docs.fieldLength[d * FIELD_COUNT + f]!, gen.manifest.avgFieldLength[f]!);
      inverseNorm[d * FIELD_COUNT + f] = inv;
      weighted[d * FIELD_COUNT + f] = params.fieldWeight[f]! * inv;
    }
    body.weighted[d] = weighted[d * FIELD_COUNT + BODY]!;
    sumBody += docs.bodyFrequency[d]! * inverseNorm[d * FIELD_COUNT + BODY]!;
    boost[d] = linkBoost(params, linkFiguresOf(docs, d)) * hubFactor(params, docs.hub[d]!) * listingFactor(params, docs.listing[d]!, listingSite[d] === 1) * languageFactor(params, docs.language.at(d)!, mainLanguage[d]!);
  }
  const rank = forIndex(params, bodyFrequencyScale(sumBody, gen.manifest.postingsWithBody));
  // Kept as long as the list is: a list the cache lets go takes its scores with it.
  const scores = new WeakMap<TermList, ScoredList>();
  const scored = (term: number): ScoredList => {
    const list = gen.lists.list(term);
    let done = scores.get(list);
    if (done === undefined) {
      // Float32: seven significant digits per posting is more than ranking can tell apart, half the
      // memory and faster to fill; scores are still summed in doubles.
      const saturated = new Float32Array(list.docs.length);
      // A defined name scores by presence (its idf, as the binary independence model weighs a term):
      // a page defines a name or does not, however long it is.
      if (isDefinedNameToken(gen.terms.terms.at(term)!)) saturated.fill(1);
      else saturateAll(rank, list.tfs, list.docs, weighted, saturated, body);
      done = { ...list, saturated, ...blockBounds(saturated, list.docs, boost, blockPostings), blockPostings };
      scores.set(list, done);
    }
    return done;
  };
  const maxBoost = boost.reduce((a, b) => Math.max(a, b), 1);
  return { termIds, rank, scored, boost, maxBoost, inverseNorm, mainLanguage, listingSite };
}

/**
 * Per block of `blockPostings` postings, the largest saturated frequency and document boost, and the
 * largest of all. Each loop in a function of its own, not inside `scored`: V8 compiled such a loop on
 * the stack and threw the code away on reaching what followed it, for every list read (`node
 * --trace-deopt`, 361 times in one run of bench/query-speed.ts).
 */
function blockBounds(saturated: Float32Array, docs: Uint32Array, boost: Float64Array, blockPostings: number): { maxSaturated: number; blockMax: Float32Array; blockBoost: Float64Array } {
  const blocks = Math.ceil(saturated.length / blockPostings);
  const blockMax = new Float32Array(blocks);
  const blockBoost = new Float64Array(blocks);
  fillBlockBounds(saturated, docs, boost, blockPostings, blockMax, blockBoost);
  return { maxSaturated: largest(blockMax), blockMax, blockBoost };
}

function fillBlockBounds(saturated: Float32Array, docs: Uint32Array, boost: Float64Array, blockPostings: number, blockMax: Float32Array, blockBoost: Float64Array): void {
  for (let p = 0; p < saturated.length; p++) {
    const b = Math.floor(p / blockPostings);
    if (saturated[p]! > blockMax[b]!) blockMax[b] = saturated[p]!;
    if (boost[docs[p]!]! > blockBoost[b]!) blockBoost[b] = boost[docs[p]!]!;
  }
}

/** The largest of `values`, 0 for none. */
function largest(values: Float32Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}
