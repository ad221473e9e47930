// The searcher over one loaded index generation: wires the parts, each in its own file.
// - precompute.ts: what loading computes once (saturated frequencies, norms, link boosts, k1's unit);
// - posting-loop.ts: the query's postings into per-document scores and match masks (term at a time,
//   drivers first, MaxScore pruning for one OR group);
// - every-word.ts: the same for a query of required words only, set against set;
// - match-rules.ts: the per-document verdict from the masks and the site:/lang: filter; here the final
//   scores (rank.ts finalScore) and the top k (top-k.ts);
// - phrase-check.ts: phrases verified on the best candidates' word positions (phrase-positions.ts),
//   and the total estimated;
// - stored-fields.ts: the stored text the snippets read (the only I/O);
// - hits.ts: the snippet and the explanation of each hit shown.
// Read-only: nothing here writes to the index.

import { loadPageTypeahead, openPageTypeahead, type PageSuggestion, type PageTypeahead } from './page-typeahead.js';
import type { TraceStep } from '../../shared/trace.js';
import { docOf, indexSteps } from './trace-index.js';
import { DEFAULT_POSTING_LISTS_OPTIONS, FIELD_COUNT, FIELDS, isPhrasePairToken, type IndexStats } from '../../shared/index-format/index.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';
import type { QueryAtom, ParsedQuery } from '../query/index.js';
import type { IndexSummary, SearchEngine, SearchHit, SearchOptions, SearchResult } from './types.js';
import { analyze, editDistance, foldWord, isDefinedNameToken, isIdentifierToken, PAIR_SEPARATOR } from '../../shared/analysis/index.js';
import { compileQuery, DEFAULT_TOKEN_WEIGHTS, keyDocFreq, spellingVariants, type HasSurface, type QueryPlan } from './compile.js';
import { anyWordQuery, DEFAULT_PARTIAL_OPTIONS, groupPresence, lackingCount, pickPartial, queriesLacking, type PartialCandidate } from './partial.js';
import { HitBuilder, type Candidate } from './hits.js';
import { documentFilter, MATCH, maskVerdict, NO_MATCH } from './match-rules.js';
import { phrasePasses, settlePhrases, type PhraseCheckStop } from './phrase-check.js';
import { PostingScanner } from './posting-loop.js';
import { DEFAULT_BLOCK_POSTINGS, precompute, type Precomputed } from './precompute.js';
import { DEFAULT_RANK_PARAMS, finalScore, idf, type RankParams } from './rank.js';
import { EveryWordScratch, everyWordMatches, everyWordOrder, everyWordTop, type EveryWordGroups, type EveryWordKey } from './every-word.js';
import { DEFAULT_SNIPPET_OPTIONS, type SnippetOptions } from './snippet.js';
import { DEFAULT_BLOCK_CACHE_OPTIONS } from './stored-blocks.js';
import { escapeRegExp } from './regexp.js';
import { DEFAULT_HEADER_CACHE_MIB, StoredFields } from './stored-fields.js';
import { firstBodyPosition, textPositions, type PositionBuffer } from './body-positions.js';
import { DEFAULT_PROXIMITY_OPTIONS, nearFirst, neighbourPairs, type ProximityOptions } from './proximity.js';
import { DEFAULT_LEAD_OPTIONS, openingFirst, type LeadOptions } from './lead.js';
import { DEFAULT_NAME_TITLE_OPTIONS, namesAfterWords, namesOnly, plainQueryTokens, TitleWordsCache, type NameTitleOptions } from './name-title.js';
import { PositionReader } from './phrase-positions.js';
import { topDocuments } from './top-k.js';
import { Vocabulary } from './vocabulary.js';
import { DEFAULT_SPELLING_OPTIONS, shownSpelling } from './shown-spelling.js';
import { contextAffinity, DEFAULT_CONTEXT_OPTIONS } from './complete-in-context.js';

export type { Candidate } from './hits.js';

export interface SearcherOptions {
  rank: RankParams;
  snippet: SnippetOptions;
  /** Phrase matches are checked on the text of the best candidates until the results asked for are
   * settled, at most this many; */
  maxPhraseChecks: number;
  /** for the candidates left, `total` counts the share of a sample of this many that match, spread evenly
   * over all the candidates (the same for every page; 20 gave totals that moved by half from page to page
   * and 100 costs 0.06 ms a phrase at p50 on the Rust docs). */
  phraseSampleSize: number;
  /** A query word in at most this many documents gets a "did you mean" when a word ... */
  rareDocFreq: number;
  /** ... at most two edits away is in this many times as many documents. */
  correctionRatio: number;
  /** A correction is sure (searched at once when the query as typed matches nothing: web/run-search.ts)
   * when each corrected word is one edit away, or on at least this many pages. "stderr", on no page of
   * the Zsh manual, was rewritten to "sigerr", two edits away and on 3 pages, and a search that had
   * partial matches ("Missing: stderr", Redirection first) showed signal lists instead. */
  sureCorrectionDocFreq: number;
  /** A key that only updates documents already found is galloped through, not scanned, when it has
   * this many times more postings than there are such documents. 8: on SciFact x20, min of 25 runs
   * over 12 queries, 8.78 ms in all against 9.20 never galloping and 8.91 at 32 ("microarray results
   * cells" AND 0.38 -> 0.19 ms); OR queries unchanged. */
  gallopRatio: number;
  /** Posting lists read from disk are kept up to this many MiB (shared/index-format posting-lists.ts). */
  postingCacheMiB: number;
  /** A term's positions are read whole when they take at most this many bytes; a longer term's are
   * read posting by posting, through blocks of positions.bin kept up to positionCacheMiB
   * (shared/index-format posting-lists.ts). */
  wholePositionBytes: number;
  /** The blocks of positions.bin read for such terms are kept up to this many MiB. */
  positionCacheMiB: number;
  /** After opening, posting lists are read ahead in the background, most documents first, up to this
   * many MiB (at most postingCacheMiB; 0 reads nothing ahead), as Elasticsearch's `index.store.preload`
   * does: a term's first read costs its decoding, and queries ask for common terms first. */
  preloadMiB: number;
  /** stored.bin, which snippets read, is read in blocks kept up to this many MiB (stored-blocks.ts). */
  storedCacheMiB: number;
  /** Stored headers (a page's language and sections, what its snippet reads) are kept parsed up to
   * this many MiB (stored-fields.ts). */
  headerCacheMiB: number;
  /** Postings per block of a list whose largest score is kept (precompute.ts): an any-word query skips
   * scoring the documents of a block that cannot reach the results asked for (posting-loop.ts). */
  blockPostings: number;
  /** A list of fewer postings is scored whole the first time a query reads it; a longer one, which an
   * every-word query may gallop through, posting by posting as reached (precompute.ts PostingScores).
   * 16,384: a list's whole scores and frequencies were about 9 bytes a posting of fresh memory, 0.65 ms
   * here at that length (now 4: the frequencies are read in slices, precompute.ts), and a warm list
   * scored whole is one load a posting; at 65,536 (2.6 ms) eight slow queries at a million pages, each
   * once in a fresh process, took 277-285 ms against 213-226. */
  scoreWholeBelowPostings: number;
  /** The best results reordered by how near the query's words stand in their text (proximity.ts). */
  proximity: ProximityOptions;
  /** The best results reordered when a title has the query's words only inside code names (name-title.ts). */
  nameTitle: NameTitleOptions;
  /** The best results reordered by whether their body opens with the query's words (lead.ts). */
  lead: LeadOptions;
}

export const DEFAULT_SEARCHER_OPTIONS: Readonly<SearcherOptions> = {
  rank: DEFAULT_RANK_PARAMS,
  snippet: DEFAULT_SNIPPET_OPTIONS,
  maxPhraseChecks: 2000,
  phraseSampleSize: 100,
  rareDocFreq: 2,
  correctionRatio: 20,
  sureCorrectionDocFreq: 10,
  gallopRatio: 8,
  postingCacheMiB: DEFAULT_POSTING_LISTS_OPTIONS.cacheMiB,
  wholePositionBytes: DEFAULT_POSTING_LISTS_OPTIONS.wholePositionBytes,
  positionCacheMiB: DEFAULT_POSTING_LISTS_OPTIONS.positionBlocks.cacheMiB,
  preloadMiB: 256,
  storedCacheMiB: DEFAULT_BLOCK_CACHE_OPTIONS.cacheMiB,
  headerCacheMiB: DEFAULT_HEADER_CACHE_MIB,
  blockPostings: DEFAULT_BLOCK_POSTINGS,
  scoreWholeBelowPostings: 16_384,
  proximity: DEFAULT_PROXIMITY_OPTIONS,
  nameTitle: DEFAULT_NAME_TITLE_OPTIONS,
  lead: DEFAULT_LEAD_OPTIONS,
};

/** How long the read-ahead works before letting a query in. */
const PRELOAD_SLICE_MS = 2;
/** Terms in fewer documents are not read ahead: their first read takes microseconds, about what
 * reading them ahead costs (on the Rust docs the 3,132 terms in 64 documents or more hold 88% of the
 * postings; reading all 89,031 ahead took 3.7 s). */
const PRELOAD_MIN_DOC_FREQ = 64;

/** A SearchEngine that can also report what /stats shows and be closed. */
export interface GleanerSearchEngine extends SearchEngine {
  stats(): IndexStats;
  /** The ranking alone: URLs and scores of the best `limit` matches, without snippets or explanations. */
  rankedUrls(query: ParsedQuery, limit: number): { url: string; score: number }[];
  /** The index-side steps of the page's trace (trace-index.ts); undefined when the page is not indexed. */
  trace(url: string): TraceStep[] | undefined;
  pagesAsResults(urls: readonly string[], query: ParsedQuery): SearchHit[];
  suggestPages(text: string, limit: number): PageSuggestion[];
  pagesReady(): Promise<void>;
  /** Reads posting lists ahead (IndexSearcher.preload); opening starts it with SearcherOptions.preloadMiB. */
  preload(maxMiB?: number, minDocFreq?: number): Promise<{ terms: number; mib: number }>;
  close(): void;
}

/** URLs whose documents are remembered (pagesAsResults) before the memo starts over. */
const MAX_REMEMBERED_URLS = 10_000;
/** Shown spellings remembered before the memo starts over: a few MB at most. */
const MAX_SPELLINGS = 20_000;
/** An every-word key's `saturated` when its `lazy` scores are given instead. */
const NO_SCORES = new Float32Array(0);
const TITLE_FIELD = FIELDS.indexOf('title');
const HEADINGS_FIELD = FIELDS.indexOf('headings');

export class IndexSearcher implements GleanerSearchEngine {
  private readonly gen: IndexGeneration;
  private readonly statsData: IndexStats;
  private readonly options: SearcherOptions;
  private readonly pre: Precomputed;
  /** Built on first use (completions and "did you mean"): 0.1-0.15 s for the Rust docs' 89k terms,
   * which a search that corrects nothing never needs. */
  private words: Vocabulary | undefined;
  /** Shown spellings of suggested words, by term and folded word. */
  private readonly spellings = new Map<string, string>();
  private readonly scanner: PostingScanner;
  private readonly everyWordScratch = new EveryWordScratch();
  private readonly stored: StoredFields;
  private readonly positions: PositionReader;
  /** Loaded on first use: the typeahead is most of a generation's load time (flexsearch's import: 0.6 s
   * of 1.0 s for the Rust docs) and searching needs none of it. */
  private pages: PageTypeahead | undefined;
  private pagesLoading: Promise<void> | undefined;
  /** Titles' words in names and as words, for the names-in-title rule (name-title.ts). */
  private readonly titles: TitleWordsCache;
  /** Memory proximity decodes a page's places of a query word into, one per word, kept between queries. */
  private readonly placeBuffers: PositionBuffer[] = [];
  private readonly hits: HitBuilder;
  private readonly docsByUrl = new Map<string, number | undefined>();
  private unknownLanguage: number | undefined;
  private undated: number | undefined;
  /** The languages the index's pages are in (compile.ts hasLanguage). */
  private readonly languages: ReadonlySet<string>;
  /** The current query's sure matches (match()), one array for every query: thousands of entries each. */
  /** Per query, the matches found sure and those whose phrases are still to check, reused by every query. */
  private readonly sureDocs: Int32Array;
  private readonly unsureDocs: Int32Array;

  constructor(gen: IndexGeneration, stats: IndexStats, options: SearcherOptions = DEFAULT_SEARCHER_OPTIONS) {
    this.gen = gen;
    this.statsData = stats;
    this.options = options;
    this.pre = precompute(gen, options.rank, options.blockPostings, options.scoreWholeBelowPostings);
    this.scanner = new PostingScanner(gen, this.pre, options.gallopRatio);
    this.stored = new StoredFields(gen, { cacheMiB: options.storedCacheMiB }, options.headerCacheMiB);
    this.languages = new Set(gen.docs.language.values);
    // Written once now, as the scanner's arrays (posting-loop.ts): a fresh page costs its first write.
    this.sureDocs = new Int32Array(gen.docs.url.length).fill(0);
    this.unsureDocs = new Int32Array(gen.docs.url.length).fill(0);
    this.positions = new PositionReader(gen, (t) => this.pre.termIds.get(t));
    this.titles = new TitleWordsCache((d) => ({ title: gen.docs.title.at(d)!, language: gen.docs.language.at(d)! }));
    this.hits = new HitBuilder(gen, this.pre, this.stored, options.snippet, (t) => this.pre.termIds.get(t), (d) => this.titles.get(d).all);
  }

  /** Whether `term` was seen on a page as `surface` (or a word starting with it): compile.ts HasSurface. */
  private readonly hasSurface: HasSurface = (term, surface, prefix) => {
    const { words, forms } = this.gen.terms;
    const seen = (w: string) => (prefix ? w.startsWith(surface) : w === surface);
    return seen(words.at(term) ?? '') || (forms?.at(term) ?? '').split(' ').some((w) => w !== '' && seen(w));
  };

  private vocabulary(): Vocabulary {
    const gen = this.gen;
    // Word-pair and defined-name terms are for scoring, phrase pairs for matching, not words to suggest.
    return (this.words ??= new Vocabulary(
      [...gen.terms.words],
      (i) => (gen.terms.terms.at(i)!.includes(PAIR_SEPARATOR) || isPhrasePairToken(gen.terms.terms.at(i)!) || isDefinedNameToken(gen.terms.terms.at(i)!) ? 0 : gen.offsets[i + 1]! - gen.offsets[i]!),
      (i) => gen.terms.forms?.at(i),
      (term, word) => this.spelling(term, word),
    ));
  }

  /** A suggested word as the first pages holding it in their title or headings write it there (titles
   * and section headings, what the stored header keeps: shown-spelling.ts); remembered, as completions
   * ask again at every key typed. */
  private spelling(term: number, word: string): string {
    const key = `${term} ${word}`;
    let shown = this.spellings.get(key);
    if (shown === undefined) {
      const gen = this.gen;
      const list = gen.lists.list(term);
      const { docs } = list;
      const tfs = new Uint8Array(FIELD_COUNT);
      // The first pages that have the word in their title or headings, where names are written whole;
      // each posting's frequencies read alone (a common word's, decoded whole, were 5 bytes a posting).
      const texts = function* (stored: StoredFields): Generator<string> {
        let looked = 0;
        for (let p = 0; p < docs.length && looked < DEFAULT_SPELLING_OPTIONS.maxDocs; p++) {
          list.frequencies(p, tfs);
          if (tfs[TITLE_FIELD]! === 0 && tfs[HEADINGS_FIELD]! === 0) continue;
          looked++;
          yield gen.docs.title.at(docs[p]!)!;
          yield stored.joinedHeadings(docs[p]!).text;
        }
      };
      shown = shownSpelling(word, texts(this.stored));
      if (this.spellings.size >= MAX_SPELLINGS) this.spellings.clear();
      this.spellings.set(key, shown);
    }
    return shown;
  }

  summary(): IndexSummary {
    const m = this.gen.manifest;
    const unknownLanguage = (this.unknownLanguage ??= this.gen.docs.language.count(''));
    const undated = (this.undated ??= this.gen.docs.date.reduce((n, at) => (Number.isNaN(at) ? n + 1 : n), 0));
    return { formatVersion: m.formatVersion, builtAt: m.builtAt, documents: m.documents, terms: m.terms, bytesOnDisk: m.bytesOnDisk, unknownLanguage, undated };
  }

  stats(): IndexStats {
    return this.statsData;
  }

  suggestPages(text: string, limit: number): PageSuggestion[] {
    this.pages ??= loadPageTypeahead(this.gen);
    return this.pages(text, limit);
  }

  pagesReady(): Promise<void> {
    this.pagesLoading ??= openPageTypeahead(this.gen).then((pages) => {
      this.pages ??= pages;
    });
    return this.pagesLoading;
  }

  trace(url: string): TraceStep[] | undefined {
    const doc = docOf(this.gen, url);
    return doc === undefined ? undefined : indexSteps(this.gen, doc, this.stored.read(doc));
  }

  pagesAsResults(urls: readonly string[], query: ParsedQuery): SearchHit[] {
    const plan = this.plan(query);
    const hits: SearchHit[] = [];
    for (const url of urls) {
      const doc = this.docOfUrl(url);
      if (doc !== undefined) hits.push(this.hits.hit({ doc, score: 0, textScore: 0 }, plan, false));
    }
    return hits;
  }

  /** A URL's document, remembered: docOf scans every URL (the promoted pages are a site's few). */
  private docOfUrl(url: string): number | undefined {
    if (this.docsByUrl.has(url)) return this.docsByUrl.get(url);
    if (this.docsByUrl.size >= MAX_REMEMBERED_URLS) this.docsByUrl.clear();
    const doc = docOf(this.gen, url);
    this.docsByUrl.set(url, doc);
    return doc;
  }

  close(): void {
    this.stored.close();
    this.gen.lists.close();
  }

  /**
   * Reads posting lists, their scores and positions ahead, most documents first, until the cache holds
   * `maxMiB` (or every term in `minDocFreq` documents or more is read), in slices of a few
   * milliseconds between which queries are answered; stops when the engine is closed. Then makes the
   * vocabulary (corrections and completions). Resolves with what it read.
   */
  async preload(maxMiB = this.options.preloadMiB, minDocFreq = PRELOAD_MIN_DOC_FREQ): Promise<{ terms: number; mib: number }> {
    const { lists } = this.gen;
    const budget = Math.min(maxMiB, this.options.postingCacheMiB);
    const order = Int32Array.from(lists.offsets.subarray(1).keys())
      .filter((t) => lists.docFreq(t) >= minDocFreq)
      .sort((a, b) => lists.docFreq(b) - lists.docFreq(a));
    let done = 0;
    while (done < order.length && !lists.closed && lists.cachedMiB < budget) {
      const until = performance.now() + PRELOAD_SLICE_MS;
      while (done < order.length && lists.cachedMiB < budget && performance.now() < until) {
        const term = order[done++]!;
        this.pre.scored(term);
        lists.positions(term);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The word list that corrections and completions read is made by the first query that needs it:
    // made here instead, while the server is new, no user waits for it (Rust docs: 150-240 ms, paid
    // by the first query with few results or the first keystroke in the search box).
    if (!lists.closed) this.vocabulary();
    return { terms: done, mib: lists.cachedMiB };
  }

  suggest(prefix: string, limit: number, context = ''): string[] {
    // The earlier words: those the caller passes and those before the last word of `prefix`.
    const words = `${context} ${/^(.*?)\S*$/su.exec(prefix.trimStart())?.[1] ?? ''}`;
    const { gen } = this;
    const source = { termId: (t: string) => this.pre.termIds.get(t), postings: (t: number) => gen.lists.list(t).docs, documents: gen.docs.url.length };
    const affinity = contextAffinity(words, source);
    return this.vocabulary().complete(prefix, limit, affinity, DEFAULT_CONTEXT_OPTIONS.maxCandidates);
  }

  search(query: ParsedQuery, options: SearchOptions): SearchResult {
    const started = performance.now();
    const plan = this.plan(query);
    // In an index where no page has a date, newest first is the order of relevance: ranked so, the best
    // matches only, not every match in full (on the Rust docs, all undated: "function" 6-9 -> 0.3-0.5 ms).
    const byDate = options.sort === 'date' && (this.summary().undated ?? 0) < this.gen.docs.url.length;
    const matched = byDate ? this.newestFirst(query, plan) : this.ranked(query, plan, options.offset + options.limit);
    const { total, estimated, reachable, stopped, candidates } = matched;
    const explain = options.explain !== false;
    const hits = candidates.slice(options.offset, options.offset + options.limit).map((c) => this.hits.hit(c, plan, explain));
    if (options.sort !== 'date' && options.offset === 0 && total < options.limit) hits.push(...this.partialHits(query, plan, candidates, options.limit - hits.length, explain));
    const didYouMean = this.didYouMean(query);
    return { total, ...(estimated ? { totalIsEstimate: true as const } : {}), ...(reachable !== undefined ? { reachable } : {}), ...(stopped ? { phraseCheckStopped: stopped } : {}), hits, ...(didYouMean ? { didYouMean } : {}), tookMs: performance.now() - started };
  }

  rankedUrls(query: ParsedQuery, limit: number): { url: string; score: number }[] {
    const plan = this.plan(query);
    return this.ranked(query, plan, limit)
      .candidates.slice(0, limit)
      .map((c) => ({ url: this.gen.docs.url.at(c.doc)!, score: c.score }));
  }

  /**
   * The matches, best first after the reorderings (name-title.ts, lead.ts, then proximity.ts), enough for
   * a page of results ending at `shown`. Proximity and the opening rule raise scores within a pool of
   * the best (30 and 10), so with word pairs or plain words that pool is asked for, whatever page is
   * shown: pages of results then agree. The names-in-title rule only lowers scores: while none of the
   * first `shown` is lowered they stay the first `shown`, whatever lies below, so its pool is asked for
   * only when one is (asking for 30 at every query doubled the ranking time of one-word queries).
   */
  private ranked(query: ParsedQuery, plan: QueryPlan, shown: number): Matched {
    const { proximity, nameTitle, lead } = this.options;
    const pairs = neighbourPairs(plan);
    const plainWords = plainQueryTokens(plan);
    const leadWords = lead.weight === 0 ? undefined : plainWords;
    const first = Math.max(shown, pairs.length > 0 ? proximity.poolSize : 0, leadWords !== undefined ? lead.poolSize : 0);
    let matched = this.match(query, plan, first);
    const words = nameTitle.factor === 1 ? undefined : plainWords;
    const lowered = (c: Candidate) => words !== undefined && namesOnly(this.titles.get(c.doc), words);
    if (words !== undefined && first < nameTitle.poolSize && matched.candidates.slice(0, shown).some(lowered)) matched = this.match(query, plan, nameTitle.poolSize);
    let candidates = words === undefined ? matched.candidates : namesAfterWords(matched.candidates, (c) => this.titles.get(c.doc), words, nameTitle);
    if (leadWords !== undefined) {
      candidates = openingFirst(candidates, leadWords, (c, token) => {
        const term = this.pre.termIds.get(token);
        return term === undefined ? -1 : firstBodyPosition(this.gen, term, c.doc);
      }, lead);
    }
    if (pairs.length > 0) {
      // nearFirst asks one page at a time, each token once: a buffer per token serves every page.
      const buffers = new Map<string, PositionBuffer>();
      candidates = nearFirst(candidates, pairs, (c, token) => {
        const term = this.pre.termIds.get(token);
        if (term === undefined) return undefined;
        let into = buffers.get(token);
        if (into === undefined) buffers.set(token, (into = (this.placeBuffers[buffers.size] ??= { list: new Int32Array(256), length: 0 })));
        return textPositions(this.gen, term, c.doc, into);
      }, proximity);
    }
    return { ...matched, candidates };
  }

  /**
   * Every match, newest first (DocNumbers.date), those without a date after those with one, and each
   * run of the same date in the order of relevance. Every match is ranked and then sorted, as
   * Elasticsearch sorts by a field: the pruning that skips pages which cannot reach a top 10 by score
   * says nothing of their dates. The reorderings of `ranked` only move pages within the best few by
   * score, which the date order then sets aside; they are not run.
   */
  private newestFirst(query: ParsedQuery, plan: QueryPlan): Matched {
    const matched = this.match(query, plan, this.gen.docs.url.length);
    const { date } = this.gen.docs;
    // An undated page sorts after every dated one; Array.prototype.sort is stable, so a tie (one date,
    // or two undated pages) keeps the order of relevance. `match` made the array: sorted in place.
    const at = (c: Candidate) => {
      const d = date[c.doc]!;
      return Number.isNaN(d) ? -Infinity : d;
    };
    matched.candidates.sort((a, b) => {
      const x = at(a);
      const y = at(b);
      return x === y ? 0 : x < y ? 1 : -1;
    });
    return matched;
  }

  private plan(query: ParsedQuery): QueryPlan {
    return compileQuery(query, (t) => this.pre.termIds.get(t), this.options.rank.pairWeight, DEFAULT_TOKEN_WEIGHTS, this.hasSurface, (t) => this.scanner.docFreq(t), this.hasLanguage, this.gen.manifest.phrasePairMinDocs);
  }

  private readonly hasLanguage = (language: string): boolean => this.languages.has(language);

  /** The ranked candidates up to `wanted`, and how many documents match in all. */
  private match(query: ParsedQuery, plan: QueryPlan, wanted: number): Matched {
    if (plan.groups.length === 0 && query.sites.length === 0 && query.languages.length === 0 && query.after === undefined && query.before === undefined) return { candidates: [], total: 0 };
    if (plan.groups.some((g) => g.every((a) => a.alternatives.length === 0))) return { candidates: [], total: 0 };
    const accepts = documentFilter(query, this.gen.docs.host, this.gen.docs.language, this.gen.docs.site, this.gen.docs.date);
    const { scanner } = this;
    const { boost } = this.pre;
    const everyWord = everyWordOrder(plan, (t) => scanner.docFreq(t), true);
    if (everyWord !== undefined) {
      const n = this.gen.docs.url.length;
      const keys = everyWord.map((key): EveryWordKey => {
        const lazy = this.pre.postingScores(key.term);
        const weightedIdf = key.scored ? key.weight * idf(n, keyDocFreq(key, (t) => scanner.docFreq(t))) : 0;
        return { docs: lazy.docs, saturated: NO_SCORES, lazy, weightedIdf, ...(key.language === undefined ? {} : { onlyIn: scanner.languageDocs(key.language) }) };
      });
      const keyOfBit = new Map(everyWord.map((key, i) => [key.bit, i]));
      const groups = plan.groups.map((g) => g[0]!.alternatives.map((alt) => alt.bits.map((bit) => keyOfBit.get(bit)!)));
      if (plan.groups.some((g) => g[0]!.phrase)) return this.phraseMatches(plan, keys, groups, wanted, accepts);
      const { hits, total } = everyWordTop(keys, groups, wanted, boost, this.everyWordScratch, this.options.gallopRatio, accepts);
      return { candidates: hits.map((h) => ({ doc: h.doc, score: h.final, textScore: h.text })), total };
    }
    const epoch = scanner.begin(plan.maskWords);
    const { score, finalScore: final } = scanner;
    const verdict = maskVerdict(plan, scanner.masks, scanner.stamp, epoch);
    // One OR group of words (no phrases, exclusions, filters or field restrictions): the scan may stop
    // adding documents that cannot reach the top `wanted`.
    const orOfWords =
      accepts === undefined &&
      plan.excluded.length === 0 &&
      plan.groups.length === 1 &&
      plan.groups[0]!.every((a) => !a.phrase) &&
      plan.keys.every((k) => k.scored && k.field < 0);
    // Every alternative one word: a document with any key is a match (block-max may then skip scoring some).
    const everyKeyMatches = orOfWords && plan.groups[0]!.every((a) => a.alternatives.every((alt) => alt.bits.length === 1));
    const pruned = orOfWords ? scanner.scanPruned(plan, wanted, (d) => verdict(d) === MATCH, everyKeyMatches) : undefined;
    const scanned = pruned?.touched ?? scanner.scan(plan);
    // Without words to match (only site: or lang:) every page is a candidate, ranked by its links alone.
    const textless = plan.groups.length === 0;
    const touched = textless ? Int32Array.from({ length: this.gen.docs.url.length }, (_, i) => i) : scanned;
    let sure: ArrayLike<number> = [];
    let unsure = this.unsureDocs.subarray(0, 0);
    if (everyKeyMatches) {
      // Any key is a match: every touched document is one.
      sure = touched;
      finalScores(touched, score, boost, final);
    } else {
      const sorted = sortByVerdict(touched, accepts, verdict, textless, score, boost, final, this.sureDocs, this.unsureDocs);
      sure = this.sureDocs.subarray(0, sorted.sure);
      unsure = this.unsureDocs.subarray(0, sorted.unsure);
    }
    const candidate = (d: number): Candidate => ({ doc: d, score: final[d]!, textScore: textless ? 0 : score[d]! });
    if (unsure.length === 0) return { candidates: topDocuments(sure, final, wanted).map(candidate), total: sure.length + (pruned?.countedOnly ?? 0) };
    // In document order, as the set-against-set path has them: the sample that estimates the total
    // is taken from this order (touched order has several drivers' documents one list after another).
    if (!ascending(unsure)) unsure.sort();
    const passes = phrasePasses(plan, scanner.masks, this.positions, (d) => this.stored.read(d));
    const { docs, total, estimated, reachable, stopped } = settlePhrases(sure, unsure, final, wanted, passes, this.options);
    return { candidates: docs.map(candidate), total, estimated, reachable, stopped };
  }

  /**
   * `match` for every word required where some are phrases (everyWordOrder with phrases): the
   * documents having every word, found set against set, are the candidates; their phrases are checked
   * best first. The same candidates, scores and checks as the general scan, without its per-document
   * bookkeeping: "the result" at a million pages (384,000 candidates) 44 ms that way, 14 ms this.
   */
  private phraseMatches(plan: QueryPlan, keys: EveryWordKey[], groups: EveryWordGroups, wanted: number, accepts: ((doc: number) => boolean) | undefined): Matched {
    const { scanner } = this;
    const scratch = this.everyWordScratch;
    const count = everyWordMatches(keys, groups, scratch, this.options.gallopRatio, accepts);
    scanner.begin(plan.maskWords);
    // Ranked by their place among the candidates, whose order is the documents' (so ties go the same
    // way): their scores sit side by side, where by document each was a write and a read in arrays of
    // every page (three of 8 MB at a million pages) for each of 200,000 candidates ("the results").
    const found = phraseCandidates(scratch, count, this.pre.boost, this.unsureDocs);
    const { docs: candidate, text, final } = scratch;
    const W = plan.maskWords;
    const { masks } = scanner;
    const docPasses = phrasePasses(plan, masks, this.positions, (d) => this.stored.read(d));
    const passes = (r: number): boolean => {
      // Only its phrases are left to check: it has every word.
      const d = candidate[r]!;
      for (let w = 0; w < W; w++) masks[d * W + w] = 0xffffffff;
      return docPasses(d);
    };
    const { docs, total, estimated, reachable, stopped } = settlePhrases([], this.unsureDocs.subarray(0, found), final, wanted, passes, this.options);
    return { candidates: docs.map((r) => ({ doc: candidate[r]!, score: final[r]!, textScore: text[r]! })), total, estimated, reachable, stopped };
  }

  /**
   * Up to `limit` partial matches (partial.ts) to follow the full matches `full` of `query`, planned as
   * `plan` (read only). The pages lacking one group come first and are found as every-word matches of
   * the query without it, one query a group, then those lacking two and more, each level while it
   * takes few queries (maxLackingQueries): taking them from the best of the any-word query instead
   * scanned every word's postings (SciFact x20, short queries with partial matches: p50 1.1-1.2 ms against 0.8
   * this way), and could miss a page lacking one word behind fifty lacking two. That any-word pool is read
   * only when they are too few. Each page is shown and explained by the plan that found it, so its
   * score is what "why this result" sums.
   */
  private partialHits(query: ParsedQuery, plan: QueryPlan, full: readonly Candidate[], limit: number, explain: boolean): SearchHit[] {
    const loose = anyWordQuery(query);
    if (loose === undefined || limit <= 0) return [];
    const fullDocs = new Set(full.map((c) => c.doc));
    const present = groupPresence(this.gen, plan);
    const planOf = new Map<number, QueryPlan>();
    const pool: Candidate[] = [];
    const gather = (candidates: readonly Candidate[], by: QueryPlan): void => {
      for (const c of candidates) {
        if (fullDocs.has(c.doc) || planOf.has(c.doc)) continue;
        planOf.set(c.doc, by);
        pool.push(c);
      }
    };
    const k = query.required.length;
    const { maxLackingQueries, poolPerResult } = DEFAULT_PARTIAL_OPTIONS;
    let picked: PartialCandidate[] = [];
    let lacking = 1;
    for (; lacking < k && picked.length < limit && lackingCount(k, lacking) <= maxLackingQueries; lacking++) {
      // A query's best include the pages found before and the full matches: enough past them.
      const wanted = full.length + pool.length + limit;
      for (const sub of queriesLacking(query, lacking)) {
        const subPlan = this.plan(sub);
        gather(this.match(sub, subPlan, wanted).candidates, subPlan);
      }
      picked = pickPartial(pool, fullDocs, plan, present, limit);
    }
    // Every level asked (down to the pages with one group): the any-word query has no other page.
    if (picked.length < limit && lacking < k) {
      const loosePlan = this.plan(loose);
      gather(this.match(loose, loosePlan, full.length + limit * poolPerResult).candidates, loosePlan);
      picked = pickPartial(pool, fullDocs, plan, present, limit);
    }
    return picked.map((c) => ({ ...this.hits.hit(c, planOf.get(c.doc)!, explain), missing: c.missing }));
  }

  /** Corrections for query words unknown to the index or rare in it. */
  private didYouMean(query: ParsedQuery): SearchResult['didYouMean'] {
    const replacements: Record<string, string> = {};
    let sure = true;
    const tokenDocFreq = (t: string) => {
      const term = this.pre.termIds.get(t);
      return term === undefined ? 0 : this.scanner.docFreq(term);
    };
    // A word with an alternative the pages have ("fts OR full text search", a site's synonyms added so)
    // is answered by it: no misspelling to correct.
    const answered = (group: readonly QueryAtom[]) => group.length > 1 && group.some((a) => a.tokens.length > 0 && a.tokens.every((t) => tokenDocFreq(t) > this.options.rareDocFreq));
    for (const { text, token, others } of correctableWords(query.required.filter((g) => !answered(g)).flat())) {
      // A word the index holds in its other spelling ("behaviour" where pages write "behavior") is
      // searched in both (compile.ts spellingVariants): no misspelling to correct.
      const df = Math.max(...[token, ...others].map(tokenDocFreq));
      if (df > this.options.rareDocFreq) continue;
      const better = this.vocabulary().correct(text, df, this.options.correctionRatio);
      if (better === undefined) continue;
      replacements[text] = better;
      if (editDistance(foldWord(text), foldWord(better), 2) > 1 && this.docFreqOf(better) < this.options.sureCorrectionDocFreq) sure = false;
    }
    if (Object.keys(replacements).length === 0) return undefined;
    let corrected = query.understood;
    for (const [from, to] of Object.entries(replacements)) {
      corrected = corrected.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(from)}(?![\\p{L}\\p{N}])`, 'giu'), to);
    }
    return { query: corrected, replacements, ...(sure ? { sure: true as const } : {}) };
  }

  /** Pages holding a word (its first token), 0 when the index has none. */
  private docFreqOf(word: string): number {
    const token = analyze(word).find((s) => s.extra !== true)?.token;
    const term = token === undefined ? undefined : this.pre.termIds.get(token);
    return term === undefined ? 0 : this.scanner.docFreq(term);
  }
}

// The two loops over every document a query touched, each in its own function: inside `match`, V8
// compiled the loop on the stack mid-run and threw that code away on reaching the code after it, on
// every query (`node --trace-deopt`: "insufficient type feedback for generic named access", 1,153
// times in 8 s of "target OR feature"), which doubled the query's time.

/** final[d] for each touched document. */
function finalScores(touched: Int32Array, score: Float64Array, boost: Float64Array, final: Float64Array): void {
  for (let i = 0; i < touched.length; i++) final[touched[i]!] = finalScore(score[touched[i]!]!, boost[touched[i]!]!);
}

/** The touched documents that pass the filter, by verdict: matches into `sure`, matches if their
 * phrases are found into `unsure`, each with its final score; returns how many of each. */
function sortByVerdict(
  touched: Int32Array,
  accepts: ((doc: number) => boolean) | undefined,
  verdict: (doc: number) => number,
  textless: boolean,
  score: Float64Array,
  boost: Float64Array,
  final: Float64Array,
  sure: Int32Array,
  unsure: Int32Array,
): { sure: number; unsure: number } {
  let sureCount = 0;
  let unsureCount = 0;
  for (let i = 0; i < touched.length; i++) {
    const d = touched[i]!;
    if (accepts !== undefined && !accepts(d)) continue;
    const v = verdict(d);
    if (v === NO_MATCH) continue;
    final[d] = finalScore(textless ? 1 : score[d]!, boost[d]!);
    if (v === MATCH) sure[sureCount++] = d;
    else unsure[unsureCount++] = d;
  }
  return { sure: sureCount, unsure: unsureCount };
}

/** What `match` found: the ranked candidates, how many match in all, whether that is estimated, and
 * whether phrase checks stopped before the page was settled (phrase-check.ts). */
interface Matched {
  candidates: Candidate[];
  total: number;
  estimated?: boolean;
  /** The most matches any page can show when the total counts more (settlePhrases). */
  reachable?: number | undefined;
  stopped?: PhraseCheckStop | undefined;
}

function ascending(docs: Int32Array): boolean {
  for (let i = 1; i < docs.length; i++) if (docs[i - 1]! > docs[i]!) return false;
  return true;
}

/** Writes the final score of each candidate of scratch.docs[0, count) to scratch.final and its place to
 * `places`; returns count. */
function phraseCandidates(scratch: EveryWordScratch, count: number, boost: Float64Array, places: Int32Array): number {
  const { docs, text, final } = scratch;
  for (let r = 0; r < count; r++) {
    final[r] = finalScore(text[r]!, boost[docs[r]!]!);
    places[r] = r;
  }
  return count;
}

/**
 * The words of a query that "did you mean" may correct, as typed, with their tokens: each one-word
 * term, and each part of an identifier ("json_extrct": "extrct", so the query becomes json_extract;
 * the whole name is no word of the vocabulary). Phrases are taken as typed. `others`: the tokens of a
 * word's other spellings (compile.ts spellingVariants), which the index may hold instead.
 */
function correctableWords(atoms: readonly QueryAtom[]): { text: string; token: string; others: readonly string[] }[] {
  const words: { text: string; token: string; others: readonly string[] }[] = [];
  for (const atom of atoms) {
    if (atom.kind !== 'term') continue;
    if (atom.tokens.length === 1) words.push({ text: atom.text, token: atom.tokens[0]!, others: spellingVariants(atom) });
    else if (atom.tokens.some(isIdentifierToken)) {
      for (const span of analyze(atom.text)) if (!span.extra) words.push({ text: atom.text.slice(span.start, span.end), token: span.token, others: [] });
    }
  }
  return words;
}
