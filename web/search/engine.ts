// The searcher over one loaded index generation. Term-at-a-time: each query key's postings are scanned
// once, adding its BM25F score to a per-document accumulator and setting its bit in a per-document mask;
// then every touched document is checked against the match rules, filtered, boosted by its links and
// the best are kept. Read-only: nothing here writes to the index.

import { closeSync, openSync, readSync } from 'node:fs';
import { FIELD_COUNT, FIELDS, type IndexStats, type StoredDoc } from '../../shared/index-format.js';
import type { IndexGeneration } from '../../shared/index-read.js';
import type { QueryAtom, ParsedQuery } from '../../shared/query.js';
import type { Explanation, IndexSummary, SearchEngine, SearchHit, SearchOptions, SearchResult } from '../../shared/search.js';
import { compileQuery, type AtomPlan, type QueryPlan } from './compile.js';
import { containsPhrase } from './phrase.js';
import { DEFAULT_RANK_PARAMS, idf, inverseFieldNorm, linkBoost, rankScore, termScore, type RankParams } from './rank.js';
import { bestSnippet, DEFAULT_SNIPPET_OPTIONS, type SnippetOptions } from './snippet.js';
import { Vocabulary } from './vocabulary.js';

export interface SearcherOptions {
  rank: RankParams;
  snippet: SnippetOptions;
  /** Phrase matches are checked on the text of at most this many candidates (best first); beyond it `total` is an estimate. */
  maxPhraseChecks: number;
  /** A query word in at most this many documents gets a "did you mean" when a word ... */
  rareDocFreq: number;
  /** ... at most two edits away is in this many times as many documents. */
  correctionRatio: number;
}

export const DEFAULT_SEARCHER_OPTIONS: Readonly<SearcherOptions> = {
  rank: DEFAULT_RANK_PARAMS,
  snippet: DEFAULT_SNIPPET_OPTIONS,
  maxPhraseChecks: 2000,
  rareDocFreq: 2,
  correctionRatio: 20,
};

/** A SearchEngine that can also report what /stats shows and be closed. */
export interface GleanerSearchEngine extends SearchEngine {
  stats(): IndexStats;
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
  private readonly n: number;
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: Vocabulary;
  /** weight_f / norm_f per document, one array per field: the hot loop's per-posting factors. */
  private readonly weightedNorm: Float32Array[];
  /** 1 / norm_f per document and field, for explanations. */
  private readonly inverseNorm: Float32Array;
  private readonly score: Float64Array;
  private readonly stamp: Uint32Array;
  private masks = new Uint32Array(0);
  private epoch = 0;
  private fd: number | undefined;

  constructor(gen: IndexGeneration, stats: IndexStats, options: SearcherOptions = DEFAULT_SEARCHER_OPTIONS) {
    this.gen = gen;
    this.statsData = stats;
    this.options = options;
    this.n = gen.docs.url.length;
    gen.terms.terms.forEach((t, i) => this.termIds.set(t, i));
    this.vocabulary = new Vocabulary(gen.terms.words, (i) => gen.offsets[i + 1]! - gen.offsets[i]!);
    const { rank } = options;
    this.inverseNorm = new Float32Array(this.n * FIELD_COUNT);
    this.weightedNorm = FIELDS.map(() => new Float32Array(this.n));
    for (let d = 0; d < this.n; d++) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const inv = inverseFieldNorm(rank, f, gen.docs.fieldLength[d * FIELD_COUNT + f]!, gen.manifest.avgFieldLength[f]!);
        this.inverseNorm[d * FIELD_COUNT + f] = inv;
        this.weightedNorm[f]![d] = rank.fieldWeight[f]! * inv;
      }
    }
    this.score = new Float64Array(this.n);
    this.stamp = new Uint32Array(this.n);
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
    const plan = compileQuery(query, (t) => this.termIds.get(t));
    const { candidates, total } = this.match(query, plan, options.offset + options.limit);
    const hits = candidates.slice(options.offset, options.offset + options.limit).map((c) => this.hit(c, plan));
    const didYouMean = this.didYouMean(query);
    return { total, hits, ...(didYouMean ? { didYouMean } : {}), tookMs: performance.now() - started };
  }

  /** The ranked candidates up to `wanted`, and how many documents match in all. */
  private match(query: ParsedQuery, plan: QueryPlan, wanted: number): { candidates: Candidate[]; total: number } {
    if (plan.groups.length === 0 && query.sites.length === 0 && query.languages.length === 0) return { candidates: [], total: 0 };
    if (plan.groups.some((g) => g.every((a) => a.alternatives.length === 0))) return { candidates: [], total: 0 };
    const scanned = this.scan(plan);
    const touched = plan.groups.length === 0 ? this.allDocuments() : scanned;
    const W = plan.maskWords;
    const epoch = this.epoch;
    const siteOk = siteFilter(query.sites, query.excludedSites);
    const languages = new Set(query.languages.map((l) => l.toLowerCase()));
    const { docs } = this.gen;

    const sure: Candidate[] = [];
    const unsure: { c: Candidate; phraseGroups: AtomPlan[][]; phraseExcluded: AtomPlan[] }[] = [];
    const mask = (d: number, bit: number) => this.stamp[d] === epoch && (this.masks[d * W + (bit >>> 5)]! & (1 << (bit & 31))) !== 0;
    const atomBitsMatch = (d: number, atom: AtomPlan) => atom.alternatives.some((alt) => alt.bits.every((b) => mask(d, b)));

    for (const d of touched) {
      if (!siteOk(docs.host[d]!)) continue;
      if (languages.size > 0 && !languages.has(docs.language[d]!)) continue;
      const phraseGroups: AtomPlan[][] = [];
      let ok = true;
      for (const group of plan.groups) {
        const matching = group.filter((a) => atomBitsMatch(d, a));
        if (matching.length === 0) {
          ok = false;
          break;
        }
        if (matching.every((a) => a.phrase)) phraseGroups.push(matching);
      }
      if (!ok) continue;
      const phraseExcluded: AtomPlan[] = [];
      for (const atom of plan.excluded) {
        if (!atomBitsMatch(d, atom)) continue;
        if (!atom.phrase) {
          ok = false;
          break;
        }
        phraseExcluded.push(atom);
      }
      if (!ok) continue;
      const textScore = plan.groups.length === 0 ? 0 : this.score[d]!;
      const links = { inbound: docs.inbound[d]!, inboundHosts: docs.inboundHosts[d]!, pageRank: docs.pageRank[d]! };
      // Without words to match (only site: or lang:), pages are ordered by their links alone.
      const score = plan.groups.length === 0 ? linkBoost(this.options.rank, links) : rankScore(this.options.rank, textScore, links);
      const c = { doc: d, score, textScore };
      if (phraseGroups.length === 0 && phraseExcluded.length === 0) sure.push(c);
      else unsure.push({ c, phraseGroups, phraseExcluded });
    }
    if (unsure.length === 0) return { candidates: topK(sure, wanted), total: sure.length };

    // Phrase checks read the page's text: check the best candidates only.
    unsure.sort((a, b) => b.c.score - a.c.score || a.c.doc - b.c.doc);
    const limit = Math.min(unsure.length, this.options.maxPhraseChecks);
    let passed = 0;
    for (let i = 0; i < limit; i++) {
      const u = unsure[i]!;
      const stored = this.storedDoc(u.c.doc);
      const phraseOk = (atom: AtomPlan) => atom.alternatives.some((alt) => containsPhrase(stored, alt.tokens, atom.atom.field));
      if (u.phraseGroups.every((g) => g.some(phraseOk)) && !u.phraseExcluded.some(phraseOk)) {
        sure.push(u.c);
        passed++;
      }
    }
    // Beyond the checked ones, assume the same pass rate.
    const estimate = limit < unsure.length ? Math.round(((unsure.length - limit) * passed) / limit) : 0;
    return { candidates: topK(sure, wanted), total: sure.length + estimate };
  }

  private allDocuments(): number[] {
    return Array.from({ length: this.n }, (_, i) => i);
  }

  /** Scans every key's postings; returns the documents touched. */
  private scan(plan: QueryPlan): number[] {
    const W = plan.maskWords;
    if (this.masks.length < this.n * W) this.masks = new Uint32Array(this.n * W);
    const epoch = ++this.epoch;
    if (epoch === 0xffffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    const { offsets, postings, tfs } = this.gen;
    const { k1 } = this.options.rank;
    const [w0, w1, w2, w3, w4] = this.weightedNorm as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const score = this.score;
    const stamp = this.stamp;
    const masks = this.masks;
    const touched: number[] = [];
    for (const key of plan.keys) {
      const termIdf = key.weight * idf(this.n, this.docFreq(key.term));
      const word = key.bit >>> 5;
      const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
      const end = offsets[key.term + 1]!;
      for (let p = offsets[key.term]!; p < end; p++) {
        const base = p * FIELD_COUNT;
        if (key.field >= 0 && tfs[base + key.field] === 0) continue;
        const d = postings[p]!;
        if (stamp[d] !== epoch) {
          stamp[d] = epoch;
          score[d] = 0;
          for (let w = 0; w < W; w++) masks[d * W + w] = 0;
          touched.push(d);
        }
        masks[d * W + word]! |= bit;
        if (key.scored) {
          const tf =
            tfs[base]! * w0[d]! + tfs[base + 1]! * w1[d]! + tfs[base + 2]! * w2[d]! + tfs[base + 3]! * w3[d]! + tfs[base + 4]! * w4[d]!;
          score[d]! += (termIdf * tf) / (k1 + tf);
        }
      }
    }
    return touched;
  }

  private storedDoc(doc: number): StoredDoc {
    if (this.fd === undefined) throw new Error('search engine closed');
    const length = this.gen.docs.storedLength[doc]!;
    const buf = Buffer.allocUnsafe(length);
    readSync(this.fd, buf, 0, length, this.gen.docs.storedOffset[doc]!);
    return JSON.parse(buf.toString('utf8')) as StoredDoc;
  }

  private hit(c: Candidate, plan: QueryPlan): SearchHit {
    const { docs } = this.gen;
    const stored = this.storedDoc(c.doc);
    const snippetTokens = plan.scoredTokens.size > 0 ? plan.scoredTokens : new Set(plan.keys.map((k) => k.token));
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
      if (!key.scored) continue;
      const p = findPosting(postings, offsets[key.term]!, offsets[key.term + 1]!, d);
      if (p < 0) continue;
      const fieldTfs = tfs.subarray(p * FIELD_COUNT, (p + 1) * FIELD_COUNT);
      const { byField } = termScore(this.options.rank, key.weight * idf(this.n, this.docFreq(key.term)), fieldTfs, norms);
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
      linkBoost: linkBoost(this.options.rank, links),
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

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

/** `site:` keeps a host equal to or under one of the sites; `-site:` removes them. */
function siteFilter(sites: readonly string[], excluded: readonly string[]): (host: string) => boolean {
  const norm = (s: string) => s.toLowerCase().replace(/^\.+|\.+$/g, '');
  const under = (host: string, site: string) => host === site || host.endsWith('.' + site);
  const inc = sites.map(norm);
  const exc = excluded.map(norm);
  return (host) => (inc.length === 0 || inc.some((s) => under(host, s))) && !exc.some((s) => under(host, s));
}

/** The `k` best candidates, score descending, ties by document number (stable across runs). */
export function topK(items: Candidate[], k: number): Candidate[] {
  const better = (a: Candidate, b: Candidate) => a.score > b.score || (a.score === b.score && a.doc < b.doc);
  if (k <= 0) return [];
  if (items.length <= k * 4) return items.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).slice(0, k);
  // A min-heap of the best k so far (its root is the worst of them).
  const heap: Candidate[] = [];
  const worse = (i: number, j: number) => better(heap[j]!, heap[i]!);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (better(item, heap[0]!)) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(l, m)) m = l;
        if (r < heap.length && worse(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
