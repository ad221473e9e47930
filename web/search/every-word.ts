// The commonest query, every word required and nothing else (no phrase, exclusion or field), scanned
// set against set: the rarest list's documents narrowed by each other required list, then scored key
// by key, then offered to a heap of the best k. Exact: the same matches, scores (summed in the
// term-at-a-time scan's key order, so equal to the last bit), order and total as posting-loop.ts with
// match-rules.ts and top-k.ts. What it saves is their bookkeeping: no per-document accumulator, stamp
// or mask, and no second pass over every document touched. "and target feature" at 106,170 pages (two
// lists of 85,000) took 7.0 ms, 2.3 ms this way. Pure over the lists it is given.

import type { KeyPlan, QueryPlan } from './compile.js';
import { driverKeys } from './posting-loop.js';
import { finalScore } from './rank.js';

/**
 * The plan's keys in the order the term-at-a-time scan sums them (drivers first, then the others in
 * plan order), when the plan is every word required and nothing else: each group one atom (not a
 * phrase, unless `phrases`: then every match is still a candidate, its phrases checked after) with one
 * alternative; no exclusions; every key in any field and any language, each bit set
 * by one key. Otherwise undefined: the general scan (posting-loop.ts) answers.
 */
export function everyWordOrder(plan: QueryPlan, docFreq: (term: number) => number, phrases = false): KeyPlan[] | undefined {
  if (plan.groups.length === 0 || plan.excluded.length > 0) return undefined;
  if (!plan.groups.every((g) => g.length === 1 && (phrases || !g[0]!.phrase) && g[0]!.alternatives.length === 1)) return undefined;
  if (!plan.keys.every((k) => k.field < 0 && k.language === undefined)) return undefined;
  const bits = plan.keys.filter((k) => k.bit >= 0).map((k) => k.bit);
  if (new Set(bits).size !== bits.length) return undefined;
  const drivers = driverKeys(plan, docFreq);
  if (drivers === undefined) return undefined;
  return [...drivers, ...plan.keys.filter((k) => !drivers.has(k))];
}

/** One list of the query: its documents (ascending), its saturated frequencies and its weight. */
export interface EveryWordKey {
  docs: Uint32Array;
  saturated: Float32Array;
  /** The query weight times idf: the key adds weightedIdf x saturated[p] to a document's text score. */
  weightedIdf: number;
  /** Every match has it; an optional key (a word pair) only adds to the score of matches it is on. */
  required: boolean;
}

export interface EveryWordHit {
  doc: number;
  /** finalScore(text, boost[doc]). */
  final: number;
  text: number;
}

/**
 * Scratch arrays reused by every query (a 100k-entry array per query is garbage), grown to the rarest
 * required list's length: the candidates' documents and text scores.
 */
export class EveryWordScratch {
  docs = new Uint32Array(0);
  text = new Float64Array(0);

  grow(size: number): void {
    if (this.docs.length >= size) return;
    this.docs = new Uint32Array(size);
    this.text = new Float64Array(size);
  }
}

/**
 * The best `k` documents having every required key, best first (ties: lower document number first,
 * as top-k.ts), and how many documents match in all. `keys` are in the order their scores are summed;
 * at least one is required. A document's final score is rank.ts finalScore(text, boost[doc]);
 * `accepts`, when given, is the site:/lang: filter a match must pass to count.
 *
 * Set against set, in tight loops over two arrays at a time (V8 keeps those in registers; a loop over
 * every list per document measured three to five times slower): the rarest list's documents are
 * narrowed by each other required list, rarest first; then each key, in summing order, adds its score
 * to the documents left; then the final scores go through the heap. A list many times longer than the
 * documents left is galloped through, not walked (`gallopRatio`).
 */
export function everyWordTop(
  keys: readonly EveryWordKey[],
  k: number,
  boost: Float64Array,
  scratch: EveryWordScratch,
  gallopRatio: number,
  accepts?: (doc: number) => boolean,
): { hits: EveryWordHit[]; total: number } {
  const count = everyWordMatches(keys, scratch, gallopRatio);
  const heap = new TopHeap(k);
  const total = offerAll(scratch.docs, scratch.text, count, boost, heap, accepts);
  return { hits: heap.sorted(), total };
}

/**
 * The documents having every required key, ascending, in scratch.docs[0, count), each one's text score
 * in scratch.text; returns count. The first steps of everyWordTop, for a caller that ranks them
 * otherwise (phrases, checked best first: engine.ts).
 */
export function everyWordMatches(keys: readonly EveryWordKey[], scratch: EveryWordScratch, gallopRatio: number): number {
  const required = keys.filter((key) => key.required).sort((a, b) => a.docs.length - b.docs.length);
  if (required.length === 0) throw new Error('everyWordMatches needs a required key');
  const lead = required[0]!.docs;
  scratch.grow(lead.length);
  const { docs, text } = scratch;
  docs.set(lead);
  let count = lead.length;
  for (let i = 1; i < required.length && count > 0; i++) count = narrow(docs, count, required[i]!.docs, gallopRatio);
  text.fill(0, 0, count);
  for (const key of keys) addScores(docs, text, count, key, gallopRatio);
  return count;
}

/** Offers each candidate that `accepts` to the heap; returns how many it accepts. Its own function:
 * a loop inside everyWordTop was compiled on the stack mid-loop and thrown away on reaching the code
 * after it, on every query (`node --trace-deopt`: "insufficient type feedback"), doubling its time. */
function offerAll(docs: Uint32Array, text: Float64Array, count: number, boost: Float64Array, heap: TopHeap, accepts?: (doc: number) => boolean): number {
  let total = 0;
  for (let r = 0; r < count; r++) {
    const d = docs[r]!;
    if (accepts !== undefined && !accepts(d)) continue;
    total++;
    const f = finalScore(text[r]!, boost[d]!);
    heap.offer(d, f, text[r]!);
  }
  return total;
}

/** Keeps the documents of docs[0, count) that `list` has, in order; returns how many. */
function narrow(docs: Uint32Array, count: number, list: Uint32Array, gallopRatio: number): number {
  const end = list.length;
  let kept = 0;
  let p = 0;
  if (end > count * gallopRatio) {
    for (let r = 0; r < count; r++) {
      const d = docs[r]!;
      p = firstAtLeast(list, p, d);
      if (p === end) break;
      if (list[p] === d) docs[kept++] = d;
    }
    return kept;
  }
  for (let r = 0; r < count; r++) {
    const d = docs[r]!;
    while (p < end && list[p]! < d) p++;
    if (p === end) break;
    if (list[p] === d) docs[kept++] = d;
  }
  return kept;
}

/** Adds key's score to text[r] for each of docs[0, count) the key's list has. */
function addScores(docs: Uint32Array, text: Float64Array, count: number, key: EveryWordKey, gallopRatio: number): void {
  const { docs: list, saturated, weightedIdf } = key;
  const end = list.length;
  let p = 0;
  if (end > count * gallopRatio) {
    for (let r = 0; r < count; r++) {
      const d = docs[r]!;
      p = firstAtLeast(list, p, d);
      if (p === end) return;
      if (list[p] === d) text[r]! += weightedIdf * saturated[p]!;
    }
    return;
  }
  if (count > end * gallopRatio) {
    // A rare optional key (a word pair): its postings look up the documents instead.
    let r = 0;
    for (p = 0; p < end; p++) {
      r = firstAtLeast(docs, r, list[p]!, count);
      if (r === count) return;
      if (docs[r] === list[p]) text[r]! += weightedIdf * saturated[p]!;
    }
    return;
  }
  for (let r = 0; r < count; r++) {
    const d = docs[r]!;
    while (p < end && list[p]! < d) p++;
    if (p === end) return;
    if (list[p] === d) text[r]! += weightedIdf * saturated[p]!;
  }
}

/** The k best (final, doc) offered in ascending document order: a later document with an equal score
 * ranks below, so it enters only with a strictly higher score. */
class TopHeap {
  private readonly doc: Int32Array;
  private readonly final: Float64Array;
  private readonly text: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.doc = new Int32Array(k);
    this.final = new Float64Array(k);
    this.text = new Float64Array(k);
  }

  offer(d: number, f: number, t: number): void {
    const { doc, final, k } = this;
    if (this.size < k) {
      // Sift up: the root is the worst (lowest score; among equal scores the highest document).
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(f, d, final[parent]!, doc[parent]!)) break;
        this.move(parent, i);
        i = parent;
      }
      this.put(i, d, f, t);
      return;
    }
    if (!(f > final[0]!)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      const c = l + 1 < k && worse(final[l + 1]!, doc[l + 1]!, final[l]!, doc[l]!) ? l + 1 : l;
      if (!worse(final[c]!, doc[c]!, f, d)) break;
      this.move(c, i);
      i = c;
    }
    this.put(i, d, f, t);
  }

  private move(from: number, to: number): void {
    this.put(to, this.doc[from]!, this.final[from]!, this.text[from]!);
  }

  private put(i: number, d: number, f: number, t: number): void {
    this.doc[i] = d;
    this.final[i] = f;
    this.text[i] = t;
  }

  sorted(): EveryWordHit[] {
    const hits: EveryWordHit[] = [];
    for (let i = 0; i < this.size; i++) hits.push({ doc: this.doc[i]!, final: this.final[i]!, text: this.text[i]! });
    return hits.sort((a, b) => (worse(a.final, a.doc, b.final, b.doc) ? 1 : worse(b.final, b.doc, a.final, a.doc) ? -1 : 0));
  }
}

/** Whether (fa, da) ranks below (fb, db): a lower score, or the same score and a higher document. */
function worse(fa: number, da: number, fb: number, db: number): boolean {
  return fa < fb || (fa === fb && da > db);
}

/** The first p in [lo, end) with list[p] >= doc (end if none): one step, then doubling steps, then a
 * binary search in the last; a dense list's next match is usually the very next posting. */
function firstAtLeast(list: Uint32Array, lo: number, doc: number, end = list.length): number {
  if (lo >= end || list[lo]! >= doc) return lo;
  let step = 1;
  let hi = lo + 1;
  while (hi < end && list[hi]! < doc) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  // list[lo] < doc, and list[hi] >= doc or hi === end.
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
