// The ranking formula: BM25F over the page's fields, then a link-authority boost. Pure functions over
// one parameters object; the searcher's hot loop computes the same arithmetic (a test checks they agree).
//
//   per field f:   norm_f  = 1 - b_f + b_f * len_f / avgLen_f
//   per term t:    tf~     = sum_f  weight_f * tf_f / norm_f
//                  score_t = idf_t * tf~ / (K + tf~),  idf_t = ln(1 + (N - df + 0.5) / (df + 0.5))
//                  K       = k1 * the index's mean normalised body frequency (bodyFrequencyScale)
//   text score   = sum over query terms of score_t
//   link boost   = 1 + contentLinkWeight * ln(1 + content links) + templateLinkWeight * ln(1 + template links)
//                  (1 + linkWeight * ln(1 + inbound links) where the index does not tell them apart)
//   final score  = text score * link boost * hubFactor * listingFactor * languageFactor
//                  (precompute.ts multiplies the boost and factors once per page; proximity.ts,
//                  name-title.ts and lead.ts then reorder only the best few results)
//
// Why K scales with the index: k1 says how many occurrences half-saturate a term, and how often pages
// repeat a word depends on the pages. Abstracts use a word they have 0.95 to 1.8 times (length-normalised
// mean; the IR collections below), the Python docs' long reference pages 4.9 times: with the abstracts'
// best constant (1.5) every word of a long page is saturated by its body alone and what names the page
// (its title, headings, the links to it) barely counts; "abstract base classes" then ranked
// collections.abc above abc, "classes inheritance" the tutorial's "Classes" 4th, on link counts.
// With k1 1 (a page using a word as often as pages of this index typically do gets half the word's
// score) the IR collections stay where the constant 1.5 had them (nDCG@10 .391 / .412 / .525 / .692
// against .388 / .411 / .522 / .698; SciFact's -0.005 is 12 queries better, 13 worse, standard error
// .003) and the Python docs (bench/site-relevance.ts, 105 judged queries) go from success@1 .848 to
// .876, MRR@10 .903 to .919. k1 0.8 / 0.9 / 1.1 / 1.2 gave IR means .5048 / .5060 / .5020 / .5015
// (1: .5050; the constant 1.5: .5048) and Python docs success@1 .867 / .867 / .876 / .867: flat
// around 1, the value that needs no tuning to explain.
//
// Why these values (nDCG@10 by `node dist/bench/relevance.js --tune`, Gleaner's OR queries over
// Cranfield / CISI / CACM / SciFact; mean of the four), measured with k1 as a constant 1.5 (before the
// scaling above). The grid re-run with k1 in index units (0.6 / 0.8 / 1 / 1.2) keeps every value below:
// k1 1 with them is its best mean (0.5050), link weight 0.02 and pair weight 0.1 still the best of theirs.
// - body b 0.6, title weight 3, title b 0.8: the best mean of a 4 x 4 x 3 x 2 grid (k1 0.9-1.8,
//   body b 0.5-0.9, title weight 1-3, title b 0.5/0.8): 0.5025 against 0.4969 for BM25's textbook
//   k1 1.2 / b 0.75 with title weight 2. Gains are small (Cranfield +0.008, the others +0.004 or
//   less) and no collection got worse.
// - Word pairs (shared/analysis/pairs.ts) at 0.1 of a word: mean 0.5050 against 0.5018 without
//   (0.388 / 0.411 / 0.522 / 0.698); 0.25 gave 0.5032, 0.5 0.4922, 1 0.4717. On the Python docs
//   (bench/site-relevance.ts) they lifted success@1 from 0.82 to 0.84, and restricting Spanish query
//   stems to Spanish pages (web/search/compile.ts) to 0.88.
// - Headings 1.5, anchor text 1.5, URL words 1: the collections have only titles and bodies, so these
//   are judgement, not measurement: headings and other pages' link texts name a page almost as well as
//   its title; URL words are often noise (ids, "index"). On the Python docs, heading weight 3, title
//   weight 5, anchor 0.5 or 3 and URL 2 each changed success@1 by at most 0.02, none for the better.
// - The link boost is multiplicative so it scales with the text score whatever the query's length.
//   On CACM (citation counts as links) linkWeight 0.02 measured best: 0.522 against 0.519 without links
//   (52 queries: not significant); 0.05 gave 0.520, 0.1 0.513, 0.2 0.499. It stays at 0.02, where it
//   does no harm on citations; on a crawled site it breaks near-ties in favour of the page others link to.
// - PageRank does not enter the boost, and is no longer computed (issue 13 item 8). Measured against
//   this boost (w = 0.02), each with PageRank as N * PR (1 = an average page) log-scaled like the link
//   count: "pr" 1 + w ln(1 + N PR), "blend" 1 + w (ln(1 + in) + ln(1 + N PR)) / 2, "both" 1 + w
//   (ln(1 + in) + ln(1 + N PR)). Python docs (105 queries; success@1 / MRR@10 / nDCG@10): this boost
//   .876 / .919 / .922, pr .857 / .909 / .918, blend .867 / .914 / .920, both .867 / .914 / .918, no
//   links .810 / .885 / .901; every PageRank variant lost queries and won none. Rust docs
//   (bench/rust-docs-queries.tsv, 80 queries judged before any run): this boost .650 / .764 / .713, pr
//   .700 / .799 / .742, blend .688 / .784 / .736, both .688 / .789 / .744, no links .675 / .767 / .711;
//   pr's MRR gain +0.035 (standard error .019) is 8 queries better and 5 worse (sign test p .58). CACM
//   gives citation counts, not edges, so PageRank cannot be computed there; "pr" drops CACM to its
//   no-link .521 (this boost .525). Better on one site within noise, worse on the other: not worth an
//   index column, an iteration at every build, and a figure in "why this result" that ranks nothing.

import type { TextColumn } from '../../shared/index-format/index.js';

export interface RankParams {
  /** BM25's saturation constant, in units of the index's mean normalised body frequency (see the header). */
  k1: number;
  /** Per field, in FIELDS order (title, headings, body, url, anchor). */
  fieldWeight: readonly number[];
  fieldB: readonly number[];
  /** Multiplier on ln(1 + inbound links) in the link boost, for an index that does not know which links are template. */
  linkWeight: number;
  /** Where template links are known (DocColumns.contentInbound): the multiplier on ln(1 + content links)... */
  contentLinkWeight: number;
  /** ...and on ln(1 + template links), the links a site repeats on many pages (see linkBoost). */
  templateLinkWeight: number;
  /** Weight of a query word pair found as neighbours in a title, heading or anchor text, relative to a word. */
  pairWeight: number;
  /** Hub demotion (hubFactor): a page whose hub share (indexer/hub.ts) is above `hubFrom` loses up to
   * `hubWeight` of its score, in proportion to how far above it is. */
  hubWeight: number;
  hubFrom: number;
  /** Listing demotion (listingFactor): a page whose listing share (indexer/listing.ts) is above
   * `listingFrom` loses up to `listingWeight` of its score, in proportion to how far above it is. */
  listingWeight: number;
  listingFrom: number;
  /** The multiplier on a page whose language is known and is not its site's main language
   * (languageFactor): a translation, or a page in a language the site seldom uses. 1 turns it off. */
  otherLanguageFactor: number;
}

export const DEFAULT_RANK_PARAMS: Readonly<RankParams> = {
  k1: 1,
  fieldWeight: [3, 1.5, 1, 1, 1.5],
  fieldB: [0.8, 0.5, 0.6, 0.3, 0.5],
  linkWeight: 0.02,
  contentLinkWeight: 0.02,
  templateLinkWeight: 0.02,
  pairWeight: 0.1,
  hubWeight: 0.5,
  hubFrom: 0.5,
  listingWeight: 0.5,
  listingFrom: 0.8,
  otherLanguageFactor: 0.5,
};

/** Robertson-Sparck Jones idf as Lucene computes it (never negative). */
export function idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** 1 / norm_f for one field of one document: what the searcher precomputes per document. */
export function inverseFieldNorm(params: RankParams, field: number, length: number, avgLength: number): number {
  const b = params.fieldB[field]!;
  const norm = 1 - b + (avgLength > 0 ? (b * length) / avgLength : 0);
  return 1 / norm;
}

/**
 * The mean normalised body frequency of an index (tf_body / norm_body over the postings whose page
 * has the word in its body): the unit of k1. 1 for an index without body text.
 */
export function bodyFrequencyScale(sumNormalisedTf: number, postingsWithBody: number): number {
  return postingsWithBody > 0 && sumNormalisedTf > 0 ? sumNormalisedTf / postingsWithBody : 1;
}

/** The parameters with k1 in absolute units for an index whose bodyFrequencyScale is `scale`. */
export function forIndex(params: RankParams, scale: number): RankParams {
  return { ...params, k1: params.k1 * scale };
}

/**
 * A term's score in one document over its idf: tf~ / (k1 + tf~), with `params` absolute (forIndex).
 * `tfs` and `weightedNorms` (weight_f / norm_f) are read from `tfAt` and `normAt`, FIELD_COUNT entries
 * each, so the searcher calls this on its flat arrays without copying.
 */
export function saturatedFrequency(params: RankParams, tfs: ArrayLike<number>, tfAt: number, weightedNorms: ArrayLike<number>, normAt: number): number {
  let tfTilde = 0;
  for (let f = 0; f < params.fieldWeight.length; f++) tfTilde += tfs[tfAt + f]! * weightedNorms[normAt + f]!;
  return tfTilde > 0 ? tfTilde / (params.k1 + tfTilde) : 0;
}

/** weightedNorms' column of one field: weight_f / norm_f per document, for saturateAll. */
export interface FieldColumn {
  field: number;
  weighted: Float32Array;
}

/**
 * saturatedFrequency for every posting at once, into `out` (postings[p] is the document of posting p,
 * `tfs` FIELD_COUNT per posting): the same formula, unrolled for the five fields, as loading a
 * generation computes it for millions of postings. With `body` (the body field's column, the third of
 * five), a posting in the body alone reads that one number, not its document's five: most of a common
 * word's postings (82% over the 200 terms after the 200 most common at a million pages), whose
 * documents' norms are spread over 20 MB; 17 -> 12 ns a posting there, the same scores.
 */
export function saturateAll(params: RankParams, tfs: Uint8Array, postings: Uint32Array, weightedNorms: Float32Array, out: Float32Array, body?: FieldColumn): void {
  if (params.fieldWeight.length !== 5) {
    for (let p = 0; p < postings.length; p++) out[p] = saturatedFrequency(params, tfs, p * 5, weightedNorms, postings[p]! * params.fieldWeight.length);
    return;
  }
  if (body !== undefined && body.field === 2) {
    saturateBodyFirst(params.k1, tfs, postings, weightedNorms, body.weighted, out);
    return;
  }
  const k1 = params.k1;
  for (let p = 0, at = 0; p < postings.length; p++, at += 5) {
    const n = postings[p]! * 5;
    const tfTilde = tfs[at]! * weightedNorms[n]! + tfs[at + 1]! * weightedNorms[n + 1]! + tfs[at + 2]! * weightedNorms[n + 2]! + tfs[at + 3]! * weightedNorms[n + 3]! + tfs[at + 4]! * weightedNorms[n + 4]!;
    out[p] = tfTilde > 0 ? tfTilde / (k1 + tfTilde) : 0;
  }
}

/** saturateAll over five fields with the body third, a posting only in the body by `bodyWeighted`:
 * tf * w is the five products' sum exactly when the other four frequencies are 0. */
function saturateBodyFirst(k1: number, tfs: Uint8Array, postings: Uint32Array, weightedNorms: Float32Array, bodyWeighted: Float32Array, out: Float32Array): void {
  for (let p = 0, at = 0; p < postings.length; p++, at += 5) {
    const d = postings[p]!;
    let tfTilde: number;
    if ((tfs[at]! | tfs[at + 1]! | tfs[at + 3]! | tfs[at + 4]!) === 0) tfTilde = tfs[at + 2]! * bodyWeighted[d]!;
    else {
      const n = d * 5;
      tfTilde = tfs[at]! * weightedNorms[n]! + tfs[at + 1]! * weightedNorms[n + 1]! + tfs[at + 2]! * weightedNorms[n + 2]! + tfs[at + 3]! * weightedNorms[n + 3]! + tfs[at + 4]! * weightedNorms[n + 4]!;
    }
    out[p] = tfTilde > 0 ? tfTilde / (k1 + tfTilde) : 0;
  }
}

/**
 * One term's BM25F score in one document (`params` absolute: forIndex), and each field's share of it
 * (shares sum to the score). `tfs` and `inverseNorms` are read from `tfAt` and `normAt`, as
 * saturatedFrequency reads them. Loops, not array methods: "why this result" calls this for every
 * query key of every hit shown, and each closure and view was garbage (about 2 KB a hit).
 */
export function termScore(params: RankParams, termIdf: number, tfs: ArrayLike<number>, inverseNorms: ArrayLike<number>, tfAt = 0, normAt = 0): { score: number; byField: number[] } {
  const fields = params.fieldWeight.length;
  const weighted = new Array<number>(fields);
  for (let f = 0; f < fields; f++) weighted[f] = params.fieldWeight[f]! * inverseNorms[normAt + f]!;
  const score = termIdf * saturatedFrequency(params, tfs, tfAt, weighted, 0);
  let tfTilde = 0;
  for (let f = 0; f < fields; f++) tfTilde += weighted[f]! * tfs[tfAt + f]!;
  // The weighted frequencies become the shares in place: the array is ours.
  for (let f = 0; f < fields; f++) weighted[f] = tfTilde > 0 ? (score * weighted[f]! * tfs[tfAt + f]!) / tfTilde : 0;
  return { score, byField: weighted };
}

/** What link authority is computed from: the only figure "why this result" shows for it. */
export interface LinkFigures {
  /** Distinct pages linking here (self-links and nofollow excluded). */
  inbound: number;
  /** Of those, the pages linking here from their content rather than their template; absent when not known. */
  contentInbound?: number;
}

/** The multiplier link authority puts on the text score (1 = no boost). */
export function linkBoost(params: RankParams, links: LinkFigures): number {
  if (links.contentInbound === undefined) return 1 + params.linkWeight * Math.log(1 + links.inbound);
  const template = Math.max(0, links.inbound - links.contentInbound);
  return 1 + params.contentLinkWeight * Math.log(1 + links.contentInbound) + params.templateLinkWeight * Math.log(1 + template);
}

/** A document's link figures from the index's columns (contentInbound only where the index has it). */
export function linkFiguresOf(docs: { inbound: ArrayLike<number>; contentInbound?: ArrayLike<number> }, d: number): LinkFigures {
  const content = docs.contentInbound?.[d];
  return content === undefined ? { inbound: docs.inbound[d]! } : { inbound: docs.inbound[d]!, contentInbound: content };
}

/** The final score of a document from its link figures alone (no hub, listing or language factor). */
export function rankScore(params: RankParams, textScore: number, links: LinkFigures): number {
  return finalScore(textScore, linkBoost(params, links));
}

/**
 * The final score from a text score and a page's link boost (linkBoost, which the searcher computes
 * once per page at load): every result's score, and every bound the pruned scan compares with one, is
 * this. A query without words (only site: or lang:) passes text score 1: pages rank by links alone.
 */
export function finalScore(textScore: number, boost: number): number {
  return textScore * boost;
}

/**
 * The multiplier a page's hub share puts on its score (1 = not a hub): 1 - hubWeight * (share - hubFrom)
 * / (1 - hubFrom) above hubFrom. A table of contents, an index or a listing names the answers; it is not
 * one (issue 14 item 3; the rule is in DESIGN.md).
 */
export function hubFactor(params: RankParams, hubShare: number): number {
  return demotion(params.hubWeight, params.hubFrom, hubShare);
}

/**
 * The multiplier a page's listing share puts on its score (1 = not a listing): 1 - listingWeight *
 * (share - listingFrom) / (1 - listingFrom) above listingFrom. A source listing (Sphinx's `_modules/`,
 * a grammar, a raw file shown as HTML) holds every name and word of the code, and answers none of them
 * as the page that documents the code does. Sphinx's own search leaves these pages out; a demotion
 * keeps them findable (DESIGN.md "A source listing is not an answer").
 */
export function listingFactor(params: RankParams, listingShare: number, siteOfListings = false): number {
  return siteOfListings ? 1 : demotion(params.listingWeight, params.listingFrom, listingShare);
}

/**
 * Per document, 1 when most pages of its site (host and port) are listings (share above `from`), else 0:
 * then a listing is the site's norm, not an exception, and none of its pages is demoted (listingFactor).
 * A site of plain text set in `<pre>` (Postfix's manual pages, rendered by man2html, 76 of 136 pages;
 * every page of Vim's help) is prose in a fixed font: demoted as listings, Postfix's postmap.1.html ranked
 * 7th for "postmap" under the guides that use it. A site that has its source beside its documentation
 * (Sphinx's `_modules/`: 232 of Django's 690 pages) keeps the demotion.
 */
export function listingSites(listing: ArrayLike<number>, from: number, siteOf: (doc: number) => string): Uint8Array {
  const counts = new Map<string, { pages: number; listings: number }>();
  for (let d = 0; d < listing.length; d++) {
    const site = siteOf(d);
    let c = counts.get(site);
    if (c === undefined) counts.set(site, (c = { pages: 0, listings: 0 }));
    c.pages++;
    if (listing[d]! > from) c.listings++;
  }
  const out = new Uint8Array(listing.length);
  for (let d = 0; d < listing.length; d++) {
    const c = counts.get(siteOf(d))!;
    out[d] = c.listings * 2 > c.pages ? 1 : 0;
  }
  return out;
}

/**
 * The multiplier a page's language puts on its score: `otherLanguageFactor` when the page's language
 * and its site's main language (mainLanguages) are both known and differ, else 1. A manual published
 * in several languages (Apache httpd's: English, with French, Japanese, Korean, Turkish... translations
 * of the same pages) has each answer in every language, and names, code and quoted messages are the
 * same in all of them, so a translation outscored the original for an English query as often as not
 * ("KeepAliveTimeout" found tr/ first; DESIGN.md "A translation ranks below its site's own language").
 * A page of unknown language ('') is left alone, as is every page of a site in one language.
 */
export function languageFactor(params: RankParams, language: string, mainLanguage: string): number {
  return language !== '' && mainLanguage !== '' && language !== mainLanguage ? params.otherLanguageFactor : 1;
}

/**
 * Per document, its site's main language: the language most of the site's pages (same `siteOf`, host
 * and port) are in, among those whose language is known; '' when none is known or two languages tie.
 */
export function mainLanguages(languages: TextColumn, siteOf: (doc: number) => string): string[] {
  const counts = new Map<string, Map<string, number>>();
  for (let d = 0; d < languages.length; d++) {
    const language = languages.at(d)!;
    if (language === '') continue;
    const site = siteOf(d);
    let bySite = counts.get(site);
    if (bySite === undefined) counts.set(site, (bySite = new Map<string, number>()));
    bySite.set(language, (bySite.get(language) ?? 0) + 1);
  }
  const main = new Map<string, string>();
  for (const [site, bySite] of counts) {
    let best = '';
    let most = 0;
    let tied = false;
    for (const [language, count] of bySite) {
      if (count > most) [best, most, tied] = [language, count, false];
      else if (count === most) tied = true;
    }
    main.set(site, tied ? '' : best);
  }
  return Array.from({ length: languages.length }, (_, d) => main.get(siteOf(d)) ?? '');
}

/** 1 up to `from`, then down linearly to 1 - weight at a share of 1. */
function demotion(weight: number, from: number, share: number): number {
  if (share <= from || from >= 1) return 1;
  return 1 - (weight * (Math.min(1, share) - from)) / (1 - from);
}
