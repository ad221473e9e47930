// The searcher over one loaded index generation. Term-at-a-time: each query key's postings are scanned
// once, adding its BM25F score (precomputed per posting at load) to a per-document accumulator and
// setting its bit in a per-document mask; then the touched documents are checked against the match
// rules (match-rules.ts), filtered, multiplied by their link boost and the best kept (top-k.ts).
// Two shortcuts keep large indexes fast, both exact for the results returned:
// - only the rarest key of each alternative of the most selective required group adds documents
//   (driverKeys); the other keys update documents already found;
// - a query that is one OR group of words stops adding documents that cannot reach the top k
//   (scanPruned, MaxScore-style).
// Hits read the page's stored text for the snippet; phrases are checked on it (phrase.ts).
// Read-only: nothing here writes to the index.

import { closeSync, openSync, readSync } from 'node:fs';
import { FIELD_COUNT, FIELDS, type IndexStats, type StoredDoc, type IndexGeneration } from '../../shared/index-format/index.js';
import type { QueryAtom, ParsedQuery } from '../query/index.js';
import type { Explanation, IndexSummary, SearchEngine, SearchHit, SearchOptions, SearchResult } from './types.js';
import { PAIR_SEPARATOR } from '../../shared/tokenize.js';
import { compileQuery, type AtomPlan, type KeyPlan, type QueryPlan } from './compile.js';
import { containsPhrase } from './phrase.js';
import { atomMatches, compiledAtom, documentFilter, flatten } from './match-rules.js';
import { bodyFrequencyScale, DEFAULT_RANK_PARAMS, forIndex, idf, inverseFieldNorm, linkBoost, saturatedFrequency, termScore, type RankParams } from './rank.js';
import { bestSnippet, DEFAULT_SNIPPET_OPTIONS, type SnippetOptions } from './snippet.js';
import { escapeRegExp } from './regexp.js';
import { topDocuments } from './top-k.js';
import { Vocabulary } from './vocabulary.js';

export interface SearcherOptions {
  rank: RankParams;
  snippet: SnippetOptions;
  /** Phrase matches are checked on the text of the best candidates until the results asked for are
   * settled, at most this many; */
  maxPhraseChecks: number;
  /** for the candidates left, `total` counts the share of a sample of this many that match. */
  phraseSampleSize: number;
  /** A query word in at most this many documents gets a "did you mean" when a word ... */
  rareDocFreq: number;
  /** ... at most two edits away is in this many times as many documents. */
  correctionRatio: number;
  /** A key that only updates documents already found is galloped through, not scanned, when it has
   * this many times more postings than there are such documents. 8: on SciFact x20, min of 25 runs
   * over 12 queries, 8.78 ms in all against 9.20 never galloping and 8.91 at 32 ("microarray results
   * cells" AND 0.38 -> 0.19 ms); OR queries unchanged. */
  gallopRatio: number;
}

export const DEFAULT_SEARCHER_OPTIONS: Readonly<SearcherOptions> = {
  rank: DEFAULT_RANK_PARAMS,
  snippet: DEFAULT_SNIPPET_OPTIONS,
  maxPhraseChecks: 2000,
  phraseSampleSize: 20,
  rareDocFreq: 2,
  correctionRatio: 20,
  gallopRatio: 8,
};

/** A SearchEngine that can also report what /stats shows and be closed. */
export interface GleanerSearchEngine extends SearchEngine {
  stats(): IndexStats;
  /** The ranking alone: URLs and scores of the best `limit` matches, without snippets or explanations. */
  rankedUrls(query: ParsedQuery, limit: number): { url: string; score: number }[];
  close(): void;
}

export interface Candidate {
  doc: number;
  score: number;
  textScore: number;
}

export class IndexSearcher implements GleanerSearchEngine {
  private readonly gen: IndexGeneration;
  private readonly statsData: IndexStats;
  private readonly options: SearcherOptions;
  /** options.rank with k1 in this index's units (rank.ts forIndex). */
  private readonly rank: RankParams;
  private readonly n: number;
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: Vocabulary;
  /** Per posting, rank.ts saturatedFrequency: a term's score in a document is idf times this. Computed
   * once at load so a query reads its postings in order and does one multiply-add per posting. */
  private readonly saturated: Float64Array;
  /** Per term, the largest `saturated` of its postings: the most it can add to a score, over its idf. */
  private readonly maxSaturated: Float32Array;
  /** Per document, its link boost (rank.ts `linkBoost`), and the largest. */
  private readonly boost: Float64Array;
  private readonly maxBoost: number;
  /** Documents counted but not scored by a pruned scan (see scanPruned). */
  private readonly counted: Uint32Array;
  /** 1 / norm_f per document and field, for explanations. */
  private readonly inverseNorm: Float32Array;
  private readonly score: Float64Array;
  private readonly stamp: Uint32Array;
  /** Final scores of the current query's matches. */
  private readonly finalScore: Float64Array;
  private masks = new Uint32Array(0);
  private readonly byLanguage = new Map<string, Uint8Array>();
  /** The documents a scan touched, reused by every query (a 100k-entry array per query is garbage). */
  private readonly touchedBuffer: Int32Array;
  private epoch = 0;
  private fd: number | undefined;

  constructor(gen: IndexGeneration, stats: IndexStats, options: SearcherOptions = DEFAULT_SEARCHER_OPTIONS) {
    this.gen = gen;
    this.statsData = stats;
    this.options = options;
    this.n = gen.docs.url.length;
    gen.terms.terms.forEach((t, i) => this.termIds.set(t, i));
    // Word-pair terms are for scoring, not words to suggest.
    this.vocabulary = new Vocabulary(gen.terms.words, (i) => (gen.terms.terms[i]!.includes(PAIR_SEPARATOR) ? 0 : gen.offsets[i + 1]! - gen.offsets[i]!));
    const { docs, offsets, postings, tfs } = gen;
    this.inverseNorm = new Float32Array(this.n * FIELD_COUNT);
    const weighted = new Float32Array(this.n * FIELD_COUNT);
    this.boost = new Float64Array(this.n);
    for (let d = 0; d < this.n; d++) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const inv = inverseFieldNorm(options.rank, f, docs.fieldLength[d * FIELD_COUNT + f]!, gen.manifest.avgFieldLength[f]!);
        this.inverseNorm[d * FIELD_COUNT + f] = inv;
        weighted[d * FIELD_COUNT + f] = options.rank.fieldWeight[f]! * inv;
      }
      this.boost[d] = linkBoost(options.rank, { inbound: docs.inbound[d]!, inboundHosts: docs.inboundHosts[d]!, pageRank: docs.pageRank[d]! });
    }
    // k1's unit: the mean normalised body frequency over all postings (word pairs have no body text).
    const BODY = FIELDS.indexOf('body');
    let sumBody = 0;
    let withBody = 0;
    for (let p = 0; p < postings.length; p++) {
      const tf = tfs[p * FIELD_COUNT + BODY]!;
      if (tf === 0) continue;
      sumBody += tf * this.inverseNorm[postings[p]! * FIELD_COUNT + BODY]!;
      withBody++;
    }
    const rank = (this.rank = forIndex(options.rank, bodyFrequencyScale(sumBody, withBody)));
    this.saturated = new Float64Array(postings.length);
    this.maxSaturated = new Float32Array(gen.terms.terms.length);
    for (let t = 0; t < this.maxSaturated.length; t++) {
      let max = 0;
      for (let p = offsets[t]!; p < offsets[t + 1]!; p++) {
        const sat = saturatedFrequency(rank, tfs, p * FIELD_COUNT, weighted, postings[p]! * FIELD_COUNT);
        this.saturated[p] = sat;
        if (sat > max) max = sat;
      }
      this.maxSaturated[t] = max;
    }
    this.maxBoost = this.boost.reduce((a, b) => Math.max(a, b), 1);
    this.counted = new Uint32Array(this.n);
    this.score = new Float64Array(this.n);
    this.stamp = new Uint32Array(this.n);
    this.finalScore = new Float64Array(this.n);
    this.touchedBuffer = new Int32Array(this.n);
    this.fd = openSync(gen.storedPath, 'r');
  }

  summary(): IndexSummary {
    const m = this.gen.manifest;
    return { formatVersion: m.formatVersion, builtAt: m.builtAt, documents: m.documents, terms: m.terms, bytesOnDisk: m.bytesOnDisk };
  }

  stats(): IndexStats {
    return this.statsData;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  suggest(prefix: string, limit: number): string[] {
    return this.vocabulary.complete(prefix, limit);
  }

  private docFreq(term: number): number {
    return this.gen.offsets[term + 1]! - this.gen.offsets[term]!;
  }

  search(query: ParsedQuery, options: SearchOptions): SearchResult {
    const started = performance.now();
    const plan = compileQuery(query, (t) => this.termIds.get(t), this.options.rank.pairWeight);
    const { candidates, total } = this.match(query, plan, options.offset + options.limit);
    const hits = candidates.slice(options.offset, options.offset + options.limit).map((c) => this.hit(c, plan));
    const didYouMean = this.didYouMean(query);
    return { total, hits, ...(didYouMean ? { didYouMean } : {}), tookMs: performance.now() - started };
  }

  rankedUrls(query: ParsedQuery, limit: number): { url: string; score: number }[] {
    const plan = compileQuery(query, (t) => this.termIds.get(t), this.options.rank.pairWeight);
    return this.match(query, plan, limit).candidates.map((c) => ({ url: this.gen.docs.url[c.doc]!, score: c.score }));
  }

  /** The ranked candidates up to `wanted`, and how many documents match in all. */
  private match(query: ParsedQuery, plan: QueryPlan, wanted: number): { candidates: Candidate[]; total: number } {
    if (plan.groups.length === 0 && query.sites.length === 0 && query.languages.length === 0) return { candidates: [], total: 0 };
    if (plan.groups.some((g) => g.every((a) => a.alternatives.length === 0))) return { candidates: [], total: 0 };
    const accepts = documentFilter(query, this.gen.docs.host, this.gen.docs.language);
    const W = plan.maskWords;
    // Sized before anything below holds the array (a scan must not replace it).
    if (this.masks.length < this.n * W) this.masks = new Uint32Array(this.n * W);
    const epoch = this.nextEpoch();
    const groups = plan.groups.map((g) => g.map((a) => compiledAtom(a, W)));
    const excluded = plan.excluded.map((a) => compiledAtom(a, W));
    const { stamp, masks, score } = this;
    const req = flatten(groups, W);
    const exc = flatten(excluded.map((a) => [a]), W);
    const matchesAlt = (base: number, need: Uint32Array, at: number): boolean => {
      for (let w = 0; w < W; w++) {
        const n = need[at + w]!;
        if ((masks[base + w]! & n) !== n) return false;
      }
      return true;
    };
    // 0: no match, 1: match, 2: match if a phrase is found in the text.
    const verdict = (d: number): number => {
      if (stamp[d] !== epoch) return req.groupEnd.length === 0 ? 1 : 0;
      const base = d * W;
      let needsText = false;
      let alt = 0;
      for (let g = 0; g < req.groupEnd.length; g++) {
        let found = 0;
        const end = req.groupEnd[g]!;
        for (; alt < end; alt++) {
          if (!matchesAlt(base, req.need, alt * W)) continue;
          found = req.phrase[alt] ? 2 : 1;
          if (found === 1) break;
        }
        if (found === 0) return 0;
        if (found === 2) needsText = true;
        alt = end;
      }
      for (let a = 0; a < exc.phrase.length; a++) {
        if (!matchesAlt(base, exc.need, a * W)) continue;
        if (!exc.phrase[a]) return 0;
        needsText = true;
      }
      return needsText ? 2 : 1;
    };
    // One OR group of words (no phrases, exclusions, filters or field restrictions): the scan may stop
    // adding documents that cannot reach the top `wanted`.
    const orOfWords =
      accepts === undefined &&
      plan.excluded.length === 0 &&
      plan.groups.length === 1 &&
      plan.groups[0]!.every((a) => !a.phrase) &&
      plan.keys.every((k) => k.scored && k.field < 0);
    const pruned = orOfWords ? this.scanPruned(plan, wanted, (d) => verdict(d) === 1) : undefined;
    const scanned = pruned?.touched ?? this.scan(plan);
    const touched = plan.groups.length === 0 ? this.allDocuments() : scanned;
    const textless = plan.groups.length === 0;
    const { finalScore, boost } = this;
    let sure: ArrayLike<number> = [];
    const sureList: number[] = [];
    const unsure: number[] = [];
    if (orOfWords && plan.groups[0]!.every((a) => a.alternatives.every((alt) => alt.bits.length === 1))) {
      // Any key is a match: every touched document is one.
      sure = touched;
      for (let i = 0; i < touched.length; i++) finalScore[touched[i]!] = score[touched[i]!]! * boost[touched[i]!]!;
    } else {
      for (let i = 0; i < touched.length; i++) {
        const d = touched[i]!;
        if (accepts !== undefined && !accepts(d)) continue;
        const v = verdict(d);
        if (v === 0) continue;
        // rank.ts rankScore; without words to match (only site: or lang:) pages are ordered by their links alone.
        finalScore[d] = textless ? boost[d]! : score[d]! * boost[d]!;
        (v === 1 ? sureList : unsure).push(d);
      }
      sure = sureList;
    }
    const candidate = (d: number): Candidate => ({ doc: d, score: finalScore[d]!, textScore: textless ? 0 : score[d]! });
    if (unsure.length === 0) return { candidates: topDocuments(sure, finalScore, wanted).map(candidate), total: sure.length + (pruned?.countedOnly ?? 0) };

    // Phrase checks read the page's text: check candidates best first and stop once the page asked for
    // is settled (no unchecked candidate could enter it); estimate how many of the rest pass from an
    // evenly spread sample of them (the best ones pass more often than the rest).
    const passes = (d: number): boolean => {
      const stored = this.storedDoc(d);
      const phraseOk = (atom: AtomPlan) => atom.alternatives.some((alt) => containsPhrase(stored, alt.phraseTokens, atom.atom.field, atom.atom.text));
      const bitsMatch = (atom: AtomPlan) => atomMatches(masks, d * W, compiledAtom(atom, W));
      const groupsOk = plan.groups.every((g) => g.some((a) => bitsMatch(a) && (!a.phrase || phraseOk(a))));
      return groupsOk && !plan.excluded.some((a) => bitsMatch(a) && (!a.phrase || phraseOk(a)));
    };
    const ordered = topDocuments(unsure, finalScore, this.options.maxPhraseChecks);
    const sureTop = topDocuments(sure, finalScore, wanted);
    const passedDocs: number[] = [];
    const checked = new Set<number>();
    for (const d of ordered) {
      if (passedDocs.length + sureTop.length >= wanted) {
        const floor = topDocuments([...sureTop, ...passedDocs], finalScore, wanted)[wanted - 1]!;
        if (finalScore[d]! < finalScore[floor]!) break;
      }
      checked.add(d);
      if (passes(d)) passedDocs.push(d);
    }
    const rest = unsure.filter((d) => !checked.has(d));
    let estimate = 0;
    if (rest.length > 0) {
      const size = Math.min(rest.length, this.options.phraseSampleSize);
      let sampled = 0;
      for (let i = 0; i < size; i++) if (passes(rest[Math.floor((i * rest.length) / size)]!)) sampled++;
      estimate = Math.round((rest.length * sampled) / size);
    }
    return { candidates: topDocuments([...sureTop, ...passedDocs], finalScore, wanted).map(candidate), total: sure.length + passedDocs.length + estimate };
  }

  private allDocuments(): Int32Array {
    return Int32Array.from({ length: this.n }, (_, i) => i);
  }

  /**
   * The keys whose postings may add documents. Every match has, for every required group, all the keys
   * of one of its alternatives, so it has that alternative's rarest key: for the group where those
   * rarest keys have the fewest postings, they are the drivers, and other keys only update documents
   * the drivers found. "rare common common" then costs about the rare word's postings.
   */
  private driverKeys(plan: QueryPlan): Set<KeyPlan> | undefined {
    const byBit = new Map(plan.keys.filter((k) => k.bit >= 0).map((k) => [k.bit, k]));
    let best: Set<KeyPlan> | undefined;
    let bestCost = Infinity;
    for (const group of plan.groups) {
      const set = new Set<KeyPlan>();
      let cost = 0;
      for (const atom of group) {
        for (const alt of atom.alternatives) {
          const rarest = alt.bits.map((b) => byBit.get(b)!).reduce((a, b) => (this.docFreq(b.term) < this.docFreq(a.term) ? b : a));
          if (!set.has(rarest)) cost += this.docFreq(rarest.term);
          set.add(rarest);
        }
      }
      if (cost < bestCost) {
        best = set;
        bestCost = cost;
      }
    }
    return best;
  }

  /** 1 for the documents in `language`, per document (built once per language asked). */
  private languageDocs(language: string): Uint8Array {
    let docs = this.byLanguage.get(language);
    if (!docs) {
      docs = new Uint8Array(this.n);
      this.gen.docs.language.forEach((l, d) => {
        if (l === language) docs![d] = 1;
      });
      this.byLanguage.set(language, docs);
    }
    return docs;
  }

  /** A new stamp for the query under way: a document is in this query's accumulators when its stamp equals it. */
  private nextEpoch(): number {
    if (++this.epoch === 0xffffffff) {
      this.stamp.fill(0);
      this.counted.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** Scans the keys' postings (drivers first, see driverKeys); returns the documents touched. */
  private scan(plan: QueryPlan): Int32Array {
    const W = plan.maskWords;
    const epoch = this.epoch;
    const { offsets, postings, tfs } = this.gen;
    const { score, stamp, masks, saturated } = this;
    const drivers = this.driverKeys(plan);
    const keys = drivers === undefined ? plan.keys : [...drivers, ...plan.keys.filter((k) => !drivers.has(k))];
    const touched = this.touchedBuffer;
    let count = 0;
    let sorted = false;
    for (const key of keys) {
      const adds = drivers === undefined || drivers.has(key);
      const weightedIdf = key.scored ? key.weight * idf(this.n, this.docFreq(key.term)) : 0;
      if (!adds && count * this.options.gallopRatio < this.docFreq(key.term)) {
        if (!sorted) touched.subarray(0, count).sort();
        sorted = true;
        this.updateTouched(key, weightedIdf, touched, count, W);
        continue;
      }
      const word = key.bit < 0 ? 0 : key.bit >>> 5;
      const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
      const field = key.field;
      const onlyIn = key.language === undefined ? undefined : this.languageDocs(key.language);
      const end = offsets[key.term + 1]!;
      for (let p = offsets[key.term]!; p < end; p++) {
        if (field >= 0 && tfs[p * FIELD_COUNT + field] === 0) continue;
        const d = postings[p]!;
        if (onlyIn !== undefined && onlyIn[d] === 0) continue;
        if (stamp[d] !== epoch) {
          if (!adds) continue;
          stamp[d] = epoch;
          score[d] = 0;
          for (let w = 0; w < W; w++) masks[d * W + w] = 0;
          touched[count++] = d;
        }
        masks[d * W + word]! |= bit;
        score[d]! += weightedIdf * saturated[p]!;
      }
    }
    return touched.subarray(0, count);
  }

  /**
   * `scan` for a query whose matches are simply the documents having any key (one OR group of words),
   * with MaxScore-style pruning: keys go by the most they can add (idf times their largest saturated
   * tf, rarest words first); once the keys left could not lift a document not yet seen above the
   * current k-th best match, documents first met from then on are only counted, never scored. Exact
   * for the top k. `total` is exact when every alternative is one word; with multi-word atoms
   * ("e-mail") a document met only after pruning counts as a match if it has any of their words.
   */
  private scanPruned(plan: QueryPlan, k: number, matches: (doc: number) => boolean): { touched: Int32Array; countedOnly: number } {
    const W = plan.maskWords;
    const epoch = this.epoch;
    const { offsets, postings } = this.gen;
    const { score, stamp, masks, saturated, boost, counted, finalScore } = this;
    const drivers = this.driverKeys(plan);
    const keys = plan.keys.map((key) => {
      const weightedIdf = key.weight * idf(this.n, this.docFreq(key.term));
      return { key, weightedIdf, most: weightedIdf * this.maxSaturated[key.term]!, drives: drivers === undefined || drivers.has(key) };
    });
    // Drivers first (only they add documents), each part by the most it can add.
    keys.sort((a, b) => Number(b.drives) - Number(a.drives) || b.most - a.most);
    const left = new Float64Array(keys.length + 1);
    for (let i = keys.length - 1; i >= 0; i--) left[i] = left[i + 1]! + keys[i]!.most;
    const touched = this.touchedBuffer;
    let count = 0;
    let sorted = false;
    let adding = true;
    let best = 0;
    let countedOnly = 0;
    for (let i = 0; i < keys.length; i++) {
      const { key, weightedIdf, drives } = keys[i]!;
      if (!drives) adding = false;
      if (!drives && count * this.options.gallopRatio < this.docFreq(key.term)) {
        if (!sorted) touched.subarray(0, count).sort();
        sorted = true;
        this.updateTouched(key, weightedIdf, touched, count, W);
        continue;
      }
      const ceiling = left[i]! * this.maxBoost;
      if (adding && i > 0 && count >= k && ceiling < best) {
        // Documents matching so far keep matching (bits are only added): the k-th best of them is a floor.
        const matching = touched.subarray(0, count).filter(matches);
        for (const d of matching) finalScore[d] = score[d]! * boost[d]!;
        const kth = matching.length >= k ? topDocuments(matching, finalScore, k)[k - 1] : undefined;
        if (kth !== undefined && ceiling < finalScore[kth]!) adding = false;
      }
      const word = key.bit < 0 ? 0 : key.bit >>> 5;
      const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
      const onlyIn = key.language === undefined ? undefined : this.languageDocs(key.language);
      const end = offsets[key.term + 1]!;
      for (let p = offsets[key.term]!; p < end; p++) {
        const d = postings[p]!;
        if (onlyIn !== undefined && onlyIn[d] === 0) continue;
        if (stamp[d] !== epoch) {
          if (!adding) {
            // Only a driver's document can be a match (see driverKeys).
            if (drives && counted[d] !== epoch) {
              counted[d] = epoch;
              countedOnly++;
            }
            continue;
          }
          stamp[d] = epoch;
          score[d] = 0;
          for (let w = 0; w < W; w++) masks[d * W + w] = 0;
          touched[count++] = d;
        }
        masks[d * W + word]! |= bit;
        const s = (score[d]! += weightedIdf * saturated[p]!);
        if (adding && s * boost[d]! > best) best = s * boost[d]!;
      }
    }
    return { touched: touched.subarray(0, count), countedOnly };
  }

  /**
   * Adds an update-only key to the documents touched so far (`touched[0, count)`, ascending) by
   * galloping through its postings: a common word next to a rare one costs about the rare word's
   * documents times a few steps, not its own postings.
   */
  private updateTouched(key: KeyPlan, weightedIdf: number, touched: Int32Array, count: number, W: number): void {
    const { offsets, postings, tfs } = this.gen;
    const { score, masks, saturated } = this;
    const word = key.bit < 0 ? 0 : key.bit >>> 5;
    const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
    const onlyIn = key.language === undefined ? undefined : this.languageDocs(key.language);
    const end = offsets[key.term + 1]!;
    let p = offsets[key.term]!;
    for (let i = 0; i < count && p < end; i++) {
      const d = touched[i]!;
      if (postings[p]! < d) {
        // The first posting >= d: steps doubling from p, then a binary search in the last step.
        let lo = p + 1;
        let hi = lo;
        let step = 1;
        while (hi < end && postings[hi]! < d) {
          lo = hi + 1;
          hi = lo + step;
          step *= 2;
        }
        if (hi > end) hi = end;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (postings[mid]! < d) lo = mid + 1;
          else hi = mid;
        }
        p = lo;
        if (p >= end) break;
      }
      if (postings[p] !== d) continue;
      if (key.field >= 0 && tfs[p * FIELD_COUNT + key.field] === 0) continue;
      if (onlyIn !== undefined && onlyIn[d] === 0) continue;
      masks[d * W + word]! |= bit;
      score[d]! += weightedIdf * saturated[p]!;
    }
  }

  /** A document's stored text; with `maxBodyChars`, only about that much of the body is read. */
  private storedDoc(doc: number, maxBodyChars = Infinity): StoredDoc {
    if (this.fd === undefined) throw new Error('search engine closed');
    const { storedOffset, storedLength, storedHeaderLength } = this.gen.docs;
    const headerLength = storedHeaderLength[doc]!;
    // A character is at most 3 UTF-8 bytes in the BMP (4 outside it, counted as 2 UTF-16 units).
    const length = Math.min(storedLength[doc]!, headerLength + maxBodyChars * 3);
    const buf = Buffer.allocUnsafe(length);
    readSync(this.fd, buf, 0, length, storedOffset[doc]!);
    const header = JSON.parse(buf.toString('utf8', 0, headerLength)) as Omit<StoredDoc, 'body'>;
    // A cut through a multi-byte character decodes to U+FFFD at the very end: harmless in a snippet.
    return { ...header, body: buf.toString('utf8', headerLength, length) };
  }

  private hit(c: Candidate, plan: QueryPlan): SearchHit {
    const { docs } = this.gen;
    const stored = this.storedDoc(c.doc, this.options.snippet.scanChars);
    // Words, not word pairs (shared/tokenize.ts wordPairs), are highlighted.
    const tokens = plan.scoredTokens.size > 0 ? [...plan.scoredTokens] : plan.keys.map((k) => k.token);
    const snippetTokens = new Set(tokens.filter((t) => !t.includes(PAIR_SEPARATOR)));
    const snippet = bestSnippet(stored.body, stored.language, snippetTokens, this.options.snippet);
    return {
      url: docs.url[c.doc]!,
      title: docs.title[c.doc]!,
      snippet: snippet.text,
      highlights: snippet.highlights,
      language: docs.language[c.doc]!,
      score: c.score,
      explain: this.explain(c, plan),
    };
  }

  private explain(c: Candidate, plan: QueryPlan): Explanation {
    const { docs, offsets, postings, tfs } = this.gen;
    const d = c.doc;
    const norms = this.inverseNorm.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT);
    const terms: Explanation['terms'] = [];
    for (const key of plan.keys) {
      if (!key.scored || (key.language !== undefined && key.language !== docs.language[d])) continue;
      const p = findPosting(postings, offsets[key.term]!, offsets[key.term + 1]!, d);
      if (p < 0) continue;
      const fieldTfs = tfs.subarray(p * FIELD_COUNT, (p + 1) * FIELD_COUNT);
      const { byField } = termScore(this.rank, key.weight * idf(this.n, this.docFreq(key.term)), fieldTfs, norms);
      byField.forEach((contribution, f) => {
        if (fieldTfs[f]! > 0) terms.push({ token: key.token, field: FIELDS[f]!, tf: fieldTfs[f]!, contribution });
      });
    }
    const links = { inbound: docs.inbound[d]!, inboundHosts: docs.inboundHosts[d]!, pageRank: docs.pageRank[d]! };
    return {
      textScore: c.textScore,
      terms,
      inboundLinks: links.inbound,
      inboundHosts: links.inboundHosts,
      pageRank: links.pageRank,
      linkBoost: linkBoost(this.rank, links),
      score: c.score,
    };
  }

  /** Corrections for query words unknown to the index or rare in it. */
  private didYouMean(query: ParsedQuery): SearchResult['didYouMean'] {
    const replacements: Record<string, string> = {};
    const atoms: QueryAtom[] = query.required.flat().filter((a) => a.kind === 'term' && a.tokens.length === 1);
    for (const atom of atoms) {
      const term = this.termIds.get(atom.tokens[0]!);
      const df = term === undefined ? 0 : this.docFreq(term);
      if (df > this.options.rareDocFreq) continue;
      const better = this.vocabulary.correct(atom.text, df, this.options.correctionRatio);
      if (better !== undefined) replacements[atom.text] = better;
    }
    if (Object.keys(replacements).length === 0) return undefined;
    let corrected = query.understood;
    for (const [from, to] of Object.entries(replacements)) {
      corrected = corrected.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(from)}(?![\\p{L}\\p{N}])`, 'giu'), to);
    }
    return { query: corrected, replacements };
  }
}


/** Binary search for `doc` in postings[lo, hi); -1 when absent. */
function findPosting(postings: Uint32Array, lo: number, hi: number, doc: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = postings[mid]!;
    if (v === doc) return mid;
    if (v < doc) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
