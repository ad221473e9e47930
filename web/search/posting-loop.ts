// Term-at-a-time scoring: each query key's postings are read once, adding its BM25F score (idf times
// the saturated frequency computed once per posting, precompute.ts) to a per-document accumulator and
// setting its bit in a per-document mask (compile.ts assigns the bits, match-rules.ts reads them).
// Two shortcuts keep large indexes fast, both exact for the results returned:
// - only the rarest key of each alternative of the most selective required group adds documents
//   (driverKeys); the other keys update documents already found, galloping through their postings
//   when those documents are few;
// - a query that is one OR group of words stops adding documents that cannot reach the top k
//   (scanPruned, MaxScore-style), and within a word's postings skips scoring the new documents of a
//   block whose best cannot reach them (block-max, addKeyPruned).
// Both scans run every key through the one posting loop, `addKey`.

import { FIELD_COUNT } from '../../shared/index-format/index.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';
import { keyDocFreq, type KeyPlan, type QueryPlan } from './compile.js';
import type { Precomputed } from './precompute.js';
import { finalScore, idf } from './rank.js';
import { KthBest } from './top-k.js';

/**
 * How `addKey` treats a document no earlier key touched: ADD scores it and sets its bit; COUNT only
 * counts it (a pruned scan's driver after pruning: it matches but cannot reach the top k); SKIP leaves
 * it (a key that is not a driver cannot bring a match, see driverKeys).
 */
const ADD = 0;
const COUNT = 1;
const SKIP = 2;
type NewDoc = typeof ADD | typeof COUNT | typeof SKIP;

/** The frequencies a key in any field reads: none. */
const NO_FREQUENCIES = new Uint8Array(0);

export class PostingScanner {
  /** Per document, the current query's text score. Valid where `stamp` equals `epoch`. */
  readonly score: Float64Array;
  readonly stamp: Uint32Array;
  /** Final scores of the current query's matches (rank.ts finalScore). */
  readonly finalScore: Float64Array;
  /** Per document, maskWords 32-bit words: the bits of the keys it has. */
  masks = new Uint32Array(0);
  epoch = 0;
  /** Documents counted but not scored by a pruned scan. */
  private readonly counted: Uint32Array;
  /** The documents a scan touched, reused by every query (a 100k-entry array per query is garbage). */
  private readonly touched: Int32Array;
  private count = 0;
  /** Whether touched[0, count) is ascending (sorted once, for the first galloping key). */
  private sorted = false;
  private countedOnly = 0;
  private readonly byLanguage = new Map<string, Uint8Array>();
  private readonly n: number;

  constructor(
    private readonly gen: IndexGeneration,
    private readonly pre: Precomputed,
    /** SearcherOptions.gallopRatio. */
    private readonly gallopRatio: number,
  ) {
    this.n = gen.docs.url.length;
    this.counted = new Uint32Array(this.n);
    this.score = new Float64Array(this.n);
    this.stamp = new Uint32Array(this.n);
    this.finalScore = new Float64Array(this.n);
    this.touched = new Int32Array(this.n);
    this.masks = new Uint32Array(this.n);
    // Written once now: the kernel hands over a page of fresh memory on its first write (about 4 ms
    // a MiB on this VM, 28 MiB of these arrays at a million pages), which fell on the first queries.
    for (const perDocument of [this.counted, this.score, this.stamp, this.finalScore, this.touched, this.masks]) perDocument.fill(0);
  }

  docFreq(term: number): number {
    return this.gen.lists.docFreq(term);
  }

  /** Starts a query with `words` mask words per document; returns its epoch. Call before anything holds `masks`. */
  begin(words: number): number {
    if (this.masks.length < this.n * words) this.masks = new Uint32Array(this.n * words).fill(0);
    if (++this.epoch === 0xffffffff) {
      this.stamp.fill(0);
      this.counted.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** Scans the keys' postings (drivers first, see driverKeys); returns the documents touched. */
  scan(plan: QueryPlan): Int32Array {
    const drivers = this.driverKeys(plan);
    const keys = drivers === undefined ? plan.keys : [...drivers, ...plan.keys.filter((k) => !drivers.has(k))];
    this.count = 0;
    this.sorted = false;
    for (const key of keys) {
      const drives = drivers === undefined || drivers.has(key);
      const weightedIdf = key.scored ? key.weight * idf(this.n, keyDocFreq(key, (t) => this.docFreq(t))) : 0;
      this.addKey(key, weightedIdf, plan.maskWords, drives, drives ? ADD : SKIP, false, 0);
    }
    return this.touched.subarray(0, this.count);
  }

  /**
   * `scan` for a query whose matches are simply the documents having any key (one OR group of words),
   * with MaxScore-style pruning: keys go by the most they can add (idf times their largest saturated
   * tf, rarest words first); once the keys left could not lift a document not yet seen above the
   * current k-th best match, documents first met from then on are only counted, never scored. Exact
   * for the top k. `countedOnly` is exact when every alternative is one word; with multi-word atoms
   * ("e-mail") a document met only after pruning counts as a match if it has any of their words.
   */
  scanPruned(plan: QueryPlan, k: number, matches: (doc: number) => boolean, everyKeyMatches = false): { touched: Int32Array; countedOnly: number } {
    const { score } = this;
    const { boost, maxBoost } = this.pre;
    const drivers = this.driverKeys(plan);
    const keys = plan.keys.map((key) => {
      const weightedIdf = key.weight * idf(this.n, keyDocFreq(key, (t) => this.docFreq(t)));
      return { key, weightedIdf, most: weightedIdf * this.pre.scored(key.term).maxSaturated, drives: drivers === undefined || drivers.has(key) };
    });
    // Drivers first (only they add documents), each part by the most it can add.
    keys.sort((a, b) => Number(b.drives) - Number(a.drives) || b.most - a.most);
    const left = new Float64Array(keys.length + 1);
    for (let i = keys.length - 1; i >= 0; i--) left[i] = left[i + 1]! + keys[i]!.most;
    this.count = 0;
    this.sorted = false;
    this.countedOnly = 0;
    let adding = true;
    let best = 0;
    // With every key a match on its own, the final scores of the documents added so far (each once)
    // are a floor under the k-th best: the block-max floor (addKeyPruned).
    let floor = everyKeyMatches && k > 0 ? new KthBest(k) : undefined;
    for (let i = 0; i < keys.length; i++) {
      const { key, weightedIdf, drives } = keys[i]!;
      if (!drives) adding = false;
      const ceiling = finalScore(left[i]!, maxBoost);
      if (adding && i > 0 && this.count >= k && ceiling < best && floor?.full === true && ceiling < floor.kth) {
        // The block-max floor already says so: no pass over every document touched (a third of a
        // million pages for one common word at a million pages, 80 ms).
        adding = false;
      } else if (adding && i > 0 && this.count >= k && ceiling < best) {
        // Documents matching so far keep matching (bits are only added): the k-th best of them is a floor.
        // One pass of plain number comparisons (no array of the matches, no sort by closures): 98,000
        // documents touched by "enumerate OR data" at a million pages, 25 ms that way, 2 ms this.
        const kthBest = kthOfTouched(this.touched, this.count, score, boost, everyKeyMatches ? undefined : matches, new KthBest(k));
        if (kthBest.full && ceiling < kthBest.kth) adding = false;
        // The exact k-th best of the documents scored so far is a higher floor for block-max than the
        // first scores it was offered (a replicated page's copies tie at the top and keep it low).
        if (floor !== undefined && kthBest.full && kthBest.kth > floor.kth) floor = kthBest;
      }
      // Only a driver's document can be a match (see driverKeys).
      const newDoc = adding ? ADD : drives ? COUNT : SKIP;
      if (floor !== undefined && adding && drives && key.field < 0) best = this.addKeyPruned(key, weightedIdf, plan.maskWords, left[i + 1]!, floor, best);
      else best = this.addKey(key, weightedIdf, plan.maskWords, drives, newDoc, adding, best);
    }
    return { touched: this.touched.subarray(0, this.count), countedOnly: this.countedOnly };
  }

  /**
   * The posting loop: adds `key` to the accumulators. A key that is not a driver, with many times
   * more postings than there are touched documents, looks up only those (ascending after the first
   * such key sorts them; drivers come first, so no document is added after) by galloping through its postings: a common word next to a rare one costs
   * about the rare word's documents times a few steps, not its own postings. With `trackBest`,
   * returns the larger of `best` and the best final score it left; otherwise `best`.
   */
  private addKey(key: KeyPlan, weightedIdf: number, W: number, drives: boolean, newDoc: NewDoc, trackBest: boolean, best: number): number {
    const list = this.pre.scored(key.term);
    const { docs: postings, saturated } = list;
    // The frequencies decoded whole only for a key restricted to a field, the one reader of them.
    const tfs = key.field >= 0 ? list.tfs : NO_FREQUENCIES;
    const { score, stamp, masks, counted, touched, epoch } = this;
    const { boost } = this.pre;
    let count = this.count;
    const gallop = !drives && count * this.gallopRatio < this.docFreq(key.term);
    if (gallop && !this.sorted) {
      touched.subarray(0, count).sort();
      this.sorted = true;
    }
    const word = key.bit < 0 ? 0 : key.bit >>> 5;
    const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
    const field = key.field;
    const onlyIn = key.language === undefined ? undefined : this.languageDocs(key.language);
    const end = postings.length;
    let next = 0; // galloping: the next touched document to look up
    for (let p = 0; p < end; p++) {
      if (gallop) {
        if (next === count) break;
        const want = touched[next++]!;
        if (postings[p]! < want) p = firstAtLeast(postings, p + 1, end, want);
        if (p === end) break;
        if (postings[p] !== want) {
          p--; // postings[p] may be the next touched document: look at it again
          continue;
        }
      }
      if (field >= 0 && tfs[p * FIELD_COUNT + field] === 0) continue;
      const d = postings[p]!;
      if (onlyIn !== undefined && onlyIn[d] === 0) continue;
      if (stamp[d] !== epoch) {
        if (newDoc !== ADD) {
          if (newDoc === COUNT && counted[d] !== epoch) {
            counted[d] = epoch;
            this.countedOnly++;
          }
          continue;
        }
        // Counted, not scored, by block-max (addKeyPruned): it cannot reach the top k.
        if (counted[d] === epoch) continue;
        stamp[d] = epoch;
        score[d] = 0;
        for (let w = 0; w < W; w++) masks[d * W + w] = 0;
        touched[count++] = d;
      }
      masks[d * W + word]! |= bit;
      const s = (score[d]! += weightedIdf * saturated[p]!);
      if (trackBest) {
        const f = finalScore(s, boost[d]!);
        if (f > best) best = f;
      }
    }
    this.count = count;
    return best;
  }

  /**
   * `addKey` for a driver of a pruned scan whose every key is a match on its own (block-max): a
   * document first met in a block whose bound, (idf x the block's largest saturated frequency + the
   * most the keys after this one can add) x the block's largest boost, is below `floor`'s k-th best,
   * is only counted: it matches but cannot reach the top k, since `floor` holds the scores of k other
   * documents already found, and scores only grow. Such a document is never scored later either (it
   * stays counted), so its partial score cannot stand for its whole one. Returns the best final score
   * left, as addKey with trackBest.
   */
  private addKeyPruned(key: KeyPlan, weightedIdf: number, W: number, leftAfter: number, floor: KthBest, best: number): number {
    const { docs: postings, saturated, blockMax, blockBoost, blockPostings } = this.pre.scored(key.term);
    const { score, stamp, masks, counted, touched, epoch } = this;
    const { boost } = this.pre;
    let count = this.count;
    const word = key.bit < 0 ? 0 : key.bit >>> 5;
    const bit = key.bit < 0 ? 0 : 1 << (key.bit & 31);
    const onlyIn = key.language === undefined ? undefined : this.languageDocs(key.language);
    const end = postings.length;
    let skipNew = false;
    for (let p = 0; p < end; p++) {
      if (p % blockPostings === 0) {
        const b = p / blockPostings;
        skipNew = floor.full && finalScore(weightedIdf * blockMax[b]! + leftAfter, blockBoost[b]!) < floor.kth;
      }
      const d = postings[p]!;
      if (onlyIn !== undefined && onlyIn[d] === 0) continue;
      if (stamp[d] !== epoch) {
        if (counted[d] === epoch) continue;
        if (skipNew) {
          counted[d] = epoch;
          this.countedOnly++;
          continue;
        }
        stamp[d] = epoch;
        score[d] = 0;
        for (let w = 0; w < W; w++) masks[d * W + w] = 0;
        touched[count++] = d;
        masks[d * W + word]! |= bit;
        const s = (score[d] = weightedIdf * saturated[p]!);
        const f = finalScore(s, boost[d]!);
        floor.offer(f);
        if (f > best) best = f;
        continue;
      }
      masks[d * W + word]! |= bit;
      const f = finalScore((score[d]! += weightedIdf * saturated[p]!), boost[d]!);
      if (f > best) best = f;
    }
    this.count = count;
    return best;
  }

  private driverKeys(plan: QueryPlan): Set<KeyPlan> | undefined {
    return driverKeys(plan, (term) => this.docFreq(term));
  }

  /** 1 for the documents in `language`, per document (built once per language asked). */
  languageDocs(language: string): Uint8Array {
    let docs = this.byLanguage.get(language);
    if (!docs) {
      docs = new Uint8Array(this.n);
      const { values, codes } = this.gen.docs.language;
      const code = values.indexOf(language);
      if (code >= 0) for (let d = 0; d < this.n; d++) if (codes[d] === code) docs[d] = 1;
      this.byLanguage.set(language, docs);
    }
    return docs;
  }
}

/**
 * The keys whose postings may add documents. Every match has, for every required group, all the keys
 * of one of its alternatives, so it has that alternative's rarest key: for the group where those
 * rarest keys have the fewest postings, they are the drivers, and other keys only update documents
 * the drivers found. "rare common common" then costs about the rare word's postings.
 */
export function driverKeys(plan: QueryPlan, docFreq: (term: number) => number): Set<KeyPlan> | undefined {
  const byBit = new Map(plan.keys.filter((k) => k.bit >= 0).map((k) => [k.bit, k]));
  let best: Set<KeyPlan> | undefined;
  let bestCost = Infinity;
  for (const group of plan.groups) {
    const set = new Set<KeyPlan>();
    let cost = 0;
    for (const atom of group) {
      for (const alt of atom.alternatives) {
        const rarest = alt.bits.map((b) => byBit.get(b)!).reduce((a, b) => (docFreq(b.term) < docFreq(a.term) ? b : a));
        if (!set.has(rarest)) cost += docFreq(rarest.term);
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

/** Offers `kth` the final score of each of touched[0, count) that `matches` (each, when undefined);
 * returns it. A loop of its own, as everywhere here: inside the scan V8 compiled it mid-loop and threw
 * the code away after it. */
function kthOfTouched(touched: Int32Array, count: number, score: Float64Array, boost: Float64Array, matches: ((doc: number) => boolean) | undefined, kth: KthBest): KthBest {
  for (let t = 0; t < count; t++) {
    const d = touched[t]!;
    if (matches === undefined || matches(d)) kth.offer(finalScore(score[d]!, boost[d]!));
  }
  return kth;
}

/** The first p in [lo, end) with postings[p] >= doc (end if none): steps doubling from lo, then a binary search in the last step. */
function firstAtLeast(postings: Uint32Array, lo: number, end: number, doc: number): number {
  let hi = lo;
  let step = 1;
  while (hi < end && postings[hi]! < doc) {
    lo = hi + 1;
    hi = lo + step;
    step *= 2;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
