// What the searcher computes for an index generation, so a query does one multiply-add per posting:
// per document its field norms and link boost, and k1 in this index's units (rank.ts), when the
// generation opens; per term its postings' saturated frequencies and the largest of them, the first
// time a query reads the term (computing them for every posting made opening 106k pages take 0.7-0.9 s).
// Pure over the loaded arrays.

import { FIELD_COUNT, FIELDS } from '../../shared/index-format/index.js';
import type { IndexGeneration, TermList, TermLookup } from '../../shared/index-format/index.js';
import { isDefinedNameToken } from '../../shared/analysis/index.js';
import { bodyFrequencyScale, forIndex, hubFactor, inverseFieldNorm, languageFactor, linkBoost, linkFiguresOf, listingFactor, listingSites, mainLanguages, saturateAll, saturatedFrequency, type RankParams } from './rank.js';

/** A term's postings with what ranking reads of them. */
export interface ScoredList {
  readonly term: number;
  readonly docs: Uint32Array;
  /** FIELD_COUNT frequencies per posting (TermList.tfs, decoded whole when first read). */
  readonly tfs: Uint8Array;
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

/** Postings whose frequencies a list scored whole has decoded at a time (20 KB): decoded whole, they
 * were FIELD_COUNT bytes a posting of fresh memory, kept as long as the list, when only field-restricted
 * scans read them again. */
const SCORE_SLICE_POSTINGS = 4096;

/** PostingScores works out a list's scores whole once this share of its postings were scored one by one:
 * one posting's score (its frequencies read from their stored form) costs about what a posting of the
 * whole costs in fresh memory and work. */
const RENT_SHARE = 0.5;

/**
 * A term's saturated frequencies worked out posting by posting as a query reaches them, or all at
 * once. An every-word query whose rarest word is on a few hundred pages reads a few hundred postings
 * of its common words' lists; scoring all of a common word's 840,000 postings at a million pages, and
 * their block bounds, wrote 4 to 5 bytes a posting of fresh memory, which this VM makes cost (DESIGN.md
 * "What a term's first read costs"): about a third of such a query's first read of that word.
 */
export class PostingScores {
  private whole: Float32Array | undefined;
  /** Postings scored one by one so far: past half the list (`RENT_SHARE`), the whole is worked out and
   * kept, as a word galloped through by query after query is (rent until renting cost as much as buying:
   * at most twice the work of knowing in advance). */
  private asked = 0;

  constructor(
    readonly docs: Uint32Array,
    /** Posting p's saturated frequency, as a Float32Array holds it. */
    private readonly one: (p: number) => number,
    /** Every posting's, in a fresh array. */
    private readonly all: () => Float32Array,
  ) {}

  /** Posting p's saturated frequency: the same number as complete()[p]. */
  at(p: number): number {
    if (this.whole !== undefined) return this.whole[p]!;
    if (++this.asked > RENT_SHARE * this.docs.length) return this.complete()[p]!;
    return this.one(p);
  }

  /** Every posting's saturated frequency, worked out the first time it is asked for. */
  complete(): Float32Array {
    return (this.whole ??= this.all());
  }
}

export interface Precomputed {
  /** Term string -> term number. */
  termIds: TermLookup;
  /** The ranking parameters with k1 in this index's units (rank.ts forIndex). */
  rank: RankParams;
  /** Term t's postings, saturated frequencies and their largest, computed once per list read. */
  scored(term: number): ScoredList;
  /** Term t's saturated frequencies, computed as they are asked for (the same numbers as `scored`'s). */
  postingScores(term: number): PostingScores;
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

/** Postings per block whose largest score is kept (SearcherOptions.blockPostings, engine.ts). */
export const DEFAULT_BLOCK_POSTINGS = 128;

export function precompute(gen: IndexGeneration, params: RankParams, blockPostings = DEFAULT_BLOCK_POSTINGS, scoreWholeBelowPostings = 0): Precomputed {
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
  const lazy = new WeakMap<TermList, PostingScores>();
  const oneTfs = new Uint8Array(FIELD_COUNT);
  const sliceTfs = new Uint8Array(SCORE_SLICE_POSTINGS * FIELD_COUNT);
  const scores = new WeakMap<TermList, ScoredList>();
  const postingScoresOf = (term: number, list: TermList): PostingScores => {
    let partial = lazy.get(list);
    if (partial === undefined) {
      // A defined name scores by presence (its idf, as the binary independence model weighs a term):
      // a page defines a name or does not, however long it is.
      const presence = isDefinedNameToken(gen.terms.terms.at(term)!);
      const postings = list.docs;
      // saturateAll gives each posting saturatedFrequency to the bit, rounded to Float32 (rank.test.ts);
      // one posting's reads only its own frequencies (TermList.frequencies), not the list's whole.
      const one = presence
        ? () => 1
        : (p: number) => {
            list.frequencies(p, oneTfs);
            return Math.fround(saturatedFrequency(rank, oneTfs, 0, weighted, postings[p]! * FIELD_COUNT));
          };
      const all = (): Float32Array => {
        // Float32: seven significant digits per posting is more than ranking can tell apart, half the
        // memory and faster to fill; scores are still summed in doubles.
        const saturated = new Float32Array(postings.length);
        if (presence) saturated.fill(1);
        else {
          for (let from = 0; from < postings.length; from += SCORE_SLICE_POSTINGS) {
            const to = Math.min(postings.length, from + SCORE_SLICE_POSTINGS);
            list.frequencyRange(from, to - from, sliceTfs);
            saturateAll(rank, sliceTfs, postings.subarray(from, to), weighted, saturated.subarray(from, to), body);
          }
        }
        return saturated;
      };
      partial = new PostingScores(postings, one, all);
      // A short list costs little scored whole, and is then one load a posting for every query after.
      if (postings.length < scoreWholeBelowPostings) partial.complete();
      lazy.set(list, partial);
    }
    return partial;
  };
  const scored = (term: number): ScoredList => {
    const list = gen.lists.list(term);
    let done = scores.get(list);
    if (done === undefined) {
      const saturated = postingScoresOf(term, list).complete();
      // The frequencies whole only when a scan asks (a field-restricted key): most never do.
      done = {
        term,
        docs: list.docs,
        get tfs() {
          return list.tfs;
        },
        saturated,
        ...blockBounds(saturated, list.docs, boost, blockPostings),
        blockPostings,
      };
      scores.set(list, done);
    }
    return done;
  };
  const postingScores = (term: number): PostingScores => postingScoresOf(term, gen.lists.list(term));
  const maxBoost = boost.reduce((a, b) => Math.max(a, b), 1);
  return { termIds, rank, scored, postingScores, boost, maxBoost, inverseNorm, mainLanguage, listingSite };
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
