// The commonest query, every word required and nothing else (no exclusion or field), scanned set
// against set: the rarest list's documents narrowed by each other required list, then scored key by
// key, then offered to a heap of the best k (or, with phrases, checked best first: engine.ts). Exact:
// the same matches, scores (summed in the term-at-a-time scan's key order, so equal to the last bit),
// order and total as posting-loop.ts with match-rules.ts and top-k.ts. What it saves is their
// bookkeeping: no per-document accumulator, stamp or mask, and no second pass over every document
// touched. "and target feature" at 106,170 pages (two lists of 85,000) took 7.0 ms, 2.3 ms this way.
// Pure over the lists it is given.

import type { KeyPlan, QueryPlan } from './compile.js';
import { driverKeys } from './posting-loop.js';
import { finalScore } from './rank.js';
import { BestPairs } from './top-k.js';

/**
 * The plan's keys in the order the term-at-a-time scan sums them (drivers first, then the others in
 * plan order), when the plan is every word required and nothing else: each group one atom (not a
 * phrase, unless `phrases`: then every match is still a candidate, its phrases checked after); no
 * exclusions; every key in any field, each bit set by one key. An atom may have several alternatives
 * (a word's stems in other languages, each looked for in pages of its language) when the plan has
 * several groups or a phrase; one group of words alone is the pruned scan's (MaxScore and block-max,
 * posting-loop.ts), which needs no list of every match. Otherwise undefined: the general scan answers.
 */
export function everyWordOrder(plan: QueryPlan, docFreq: (term: number) => number, phrases = false): KeyPlan[] | undefined {
  if (plan.groups.length === 0 || plan.excluded.length > 0) return undefined;
  if (!plan.groups.every((g) => g.length === 1 && (phrases || !g[0]!.phrase) && g[0]!.alternatives.length >= 1)) return undefined;
  // An alternative without a key would match every page: the general scan's rules say so, not this.
  if (plan.groups.some((g) => g[0]!.alternatives.some((a) => a.bits.length === 0))) return undefined;
  const several = plan.groups.length > 1 || plan.groups.some((g) => g[0]!.phrase);
  if (!several && plan.groups.some((g) => g[0]!.alternatives.length > 1)) return undefined;
  if (!plan.keys.every((k) => k.field < 0)) return undefined;
  const bits = plan.keys.filter((k) => k.bit >= 0).map((k) => k.bit);
  if (new Set(bits).size !== bits.length) return undefined;
  const drivers = driverKeys(plan, docFreq);
  if (drivers === undefined) return undefined;
  return [...drivers, ...plan.keys.filter((k) => !drivers.has(k))];
}

/** Saturated frequencies worked out as they are asked for (precompute.ts PostingScores). */
export interface LazyScores {
  /** Posting p's. */
  at(p: number): number;
  /** Every posting's. */
  complete(): Float32Array;
}

/** One list of the query: its documents (ascending), its saturated frequencies and its weight. */
export interface EveryWordKey {
  docs: Uint32Array;
  /** Per posting, the saturated frequency; unused when `lazy` is given. */
  saturated: Float32Array;
  /** The saturated frequencies worked out as they are asked for: when the query gallops through a
   * common word's list, only those of the postings it reaches. */
  lazy?: LazyScores;
  /** The query weight times idf: the key adds weightedIdf x saturated[p] to a document's text score. */
  weightedIdf: number;
  /** Per document, 1 when the key applies there: a key looked for in one language's pages only
   * (compile.ts KeyPlan.language). Undefined: every document. */
  onlyIn?: Uint8Array;
}

/**
 * The query's required groups: each a list of alternatives, each the keys (indexes into the keys
 * array) a document must all have. A match has one alternative of every group; a key in no group
 * (a word pair) only adds to the score of matches it is on.
 */
export type EveryWordGroups = readonly (readonly (readonly number[])[])[];

export interface EveryWordHit {
  doc: number;
  /** finalScore(text, boost[doc]). */
  final: number;
  text: number;
}

/**
 * Scratch arrays reused by every query (a 100k-entry array per query is garbage), grown to the rarest
 * required list's length: the candidates' documents and text scores; and buffers for the documents of
 * groups with several alternatives.
 */
export class EveryWordScratch {
  docs = new Uint32Array(0);
  text = new Float64Array(0);
  /** The candidates' final scores, for a caller that ranks them itself (phrases: engine.ts). */
  final = new Float64Array(0);
  private readonly buffers: Uint32Array[] = [];

  grow(size: number): void {
    if (this.docs.length >= size) return;
    // Doubling: each growth is fresh memory, whose pages cost their first write.
    const grown = Math.max(size, 2 * this.docs.length);
    this.docs = new Uint32Array(grown);
    this.text = new Float64Array(grown);
    this.final = new Float64Array(grown);
  }

  /** Buffer `slot`, of `size` entries at least. */
  buffer(slot: number, size: number): Uint32Array {
    let b = this.buffers[slot];
    if (b === undefined || b.length < size) {
      b = new Uint32Array(Math.max(size, 2 * (b?.length ?? 0)));
      this.buffers[slot] = b;
    }
    return b;
  }
}

/**
 * The best `k` documents having one alternative of every group, best first (ties: lower document
 * number first, as top-k.ts), and how many documents match in all. `keys` are in the order their scores
 * are summed. A document's final score is rank.ts finalScore(text, boost[doc]); `accepts`, when given,
 * is the site:/lang: filter a match must pass to count.
 *
 * Set against set, in tight loops over two arrays at a time (V8 keeps those in registers; a loop over
 * every list per document measured three to five times slower): the rarest list's documents are
 * narrowed by each other required list, rarest first; then each key, in summing order, adds its score
 * to the documents left; then the final scores go through the heap. A list many times longer than the
 * documents left is galloped through, not walked (`gallopRatio`).
 */
export function everyWordTop(
  keys: readonly EveryWordKey[],
  groups: EveryWordGroups,
  k: number,
  boost: Float64Array,
  scratch: EveryWordScratch,
  gallopRatio: number,
  accepts?: (doc: number) => boolean,
): { hits: EveryWordHit[]; total: number } {
  const total = everyWordMatches(keys, groups, scratch, gallopRatio, accepts);
  const heap = new BestPairs(k);
  offerAll(scratch.docs, scratch.text, total, boost, heap);
  const hits: EveryWordHit[] = [];
  for (let i = 0, n = heap.drainSorted(); i < n; i++) hits.push({ doc: heap.docs[i]!, final: heap.scores[i]!, text: heap.extras[i]! });
  return { hits, total };
}

/** A list to narrow the candidates by: documents (ascending), and when only some of them count, which. */
interface RequiredList {
  docs: Uint32Array;
  onlyIn: Uint8Array | undefined;
}

/**
 * The documents having one alternative of every group (and passing `accepts`, when given), ascending, in
 * scratch.docs[0, count), each one's text score in scratch.text; returns count. The first steps of
 * everyWordTop, for a caller that ranks them otherwise (phrases, checked best first: engine.ts).
 */
export function everyWordMatches(keys: readonly EveryWordKey[], groups: EveryWordGroups, scratch: EveryWordScratch, gallopRatio: number, accepts?: (doc: number) => boolean): number {
  // A group of one alternative narrows by each of its keys; one of several by the union of what each
  // alternative has, worked out first (a word's other-language stems are short lists).
  const required: RequiredList[] = [];
  let slot = 0;
  for (const group of groups) {
    if (group.length === 0) return 0;
    if (group.length === 1) {
      for (const key of group[0]!) required.push({ docs: keys[key]!.docs, onlyIn: keys[key]!.onlyIn });
      continue;
    }
    const sets = group.map((alternative) => alternativeDocs(keys, alternative, scratch, slot++, gallopRatio));
    required.push({ docs: unionOf(sets, scratch, slot), onlyIn: undefined });
    slot += 2;
  }
  if (required.length === 0) throw new Error('everyWordMatches needs a required key');
  required.sort((a, b) => a.docs.length - b.docs.length);
  const lead = required[0]!.docs;
  scratch.grow(lead.length);
  const { docs, text } = scratch;
  docs.set(lead);
  let count = lead.length;
  // The filter first: `site:` keeps a page in a hundred at a million pages (132 sites), so the other
  // lists are galloped through for those alone, and only those are scored.
  if (accepts !== undefined) count = keepAccepted(docs, count, accepts);
  for (let i = 1; i < required.length && count > 0; i++) count = narrow(docs, count, required[i]!.docs, gallopRatio);
  for (const list of required) if (list.onlyIn !== undefined) count = keepIn(docs, count, list.onlyIn);
  text.fill(0, 0, count);
  for (const key of keys) addScores(docs, text, count, key, gallopRatio);
  return count;
}

/** The documents having every key of `alternative` (where each applies). */
function alternativeDocs(keys: readonly EveryWordKey[], alternative: readonly number[], scratch: EveryWordScratch, slot: number, gallopRatio: number): Uint32Array {
  const lists = alternative.map((k) => keys[k]!).sort((a, b) => a.docs.length - b.docs.length);
  if (lists.length === 1 && lists[0]!.onlyIn === undefined) return lists[0]!.docs;
  const out = scratch.buffer(slot, lists[0]!.docs.length);
  out.set(lists[0]!.docs);
  let count = lists[0]!.docs.length;
  for (let i = 1; i < lists.length && count > 0; i++) count = narrow(out, count, lists[i]!.docs, gallopRatio);
  for (const list of lists) if (list.onlyIn !== undefined) count = keepIn(out, count, list.onlyIn);
  return out.subarray(0, count);
}

/** The union of ascending `sets`, ascending, in scratch buffers `slot` and `slot + 1`. */
function unionOf(sets: Uint32Array[], scratch: EveryWordScratch, slot: number): Uint32Array {
  let union = sets[0]!;
  for (let i = 1; i < sets.length; i++) {
    const out = scratch.buffer(slot + (i % 2), union.length + sets[i]!.length);
    union = out.subarray(0, merge(union, sets[i]!, out));
  }
  return union;
}

/** Merges ascending `a` and `b` into `out` without repeats; returns the length. */
function merge(a: Uint32Array, b: Uint32Array, out: Uint32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x <= y) i++;
    if (y <= x) j++;
    out[n++] = x < y ? x : y;
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return n;
}

/** Keeps the documents of docs[0, count) where `onlyIn` is 1, in order; returns how many. */
function keepIn(docs: Uint32Array, count: number, onlyIn: Uint8Array): number {
  let kept = 0;
  for (let r = 0; r < count; r++) if (onlyIn[docs[r]!] === 1) docs[kept++] = docs[r]!;
  return kept;
}

/** Keeps the documents of docs[0, count) that `accepts`, in order; returns how many. */
function keepAccepted(docs: Uint32Array, count: number, accepts: (doc: number) => boolean): number {
  let kept = 0;
  for (let r = 0; r < count; r++) if (accepts(docs[r]!)) docs[kept++] = docs[r]!;
  return kept;
}

/** Offers each candidate to the heap. Its own function: a loop inside everyWordTop was compiled on the
 * stack mid-loop and thrown away on reaching the code after it, on every query (`node --trace-deopt`:
 * "insufficient type feedback"), doubling its time. */
function offerAll(docs: Uint32Array, text: Float64Array, count: number, boost: Float64Array, heap: BestPairs): void {
  for (let r = 0; r < count; r++) {
    const d = docs[r]!;
    heap.offer(d, finalScore(text[r]!, boost[d]!), text[r]);
  }
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
  if (key.onlyIn !== undefined) {
    addScoresIn(docs, text, count, key, key.onlyIn, gallopRatio);
    return;
  }
  const { docs: list, weightedIdf, lazy } = key;
  const end = list.length;
  let p = 0;
  if (end > count * gallopRatio) {
    if (lazy !== undefined) {
      addScoresGalloping(docs, text, count, list, weightedIdf, lazy);
      return;
    }
    const { saturated } = key;
    for (let r = 0; r < count; r++) {
      const d = docs[r]!;
      p = firstAtLeast(list, p, d);
      if (p === end) return;
      if (list[p] === d) text[r]! += weightedIdf * saturated[p]!;
    }
    return;
  }
  const saturated = lazy === undefined ? key.saturated : lazy.complete();
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

/** addScores' galloping for a key whose scores are worked out as its postings are reached. A function
 * of its own, so the loop over a list scored whole keeps its shape. */
function addScoresGalloping(docs: Uint32Array, text: Float64Array, count: number, list: Uint32Array, weightedIdf: number, lazy: LazyScores): void {
  let p = 0;
  for (let r = 0; r < count; r++) {
    const d = docs[r]!;
    p = firstAtLeast(list, p, d);
    if (p === list.length) return;
    if (list[p] === d) text[r]! += weightedIdf * lazy.at(p);
  }
}

/** addScores for a key that applies only to the documents `onlyIn` marks (a word's stem in another
 * language), which its list may have in any number. */
function addScoresIn(docs: Uint32Array, text: Float64Array, count: number, key: EveryWordKey, onlyIn: Uint8Array, gallopRatio: number): void {
  const { docs: list, weightedIdf, lazy } = key;
  if (list.length > count * gallopRatio) {
    // Few candidates: each in the key's language looked up in its list.
    let p = 0;
    for (let r = 0; r < count; r++) {
      const d = docs[r]!;
      if (onlyIn[d] !== 1) continue;
      p = firstAtLeast(list, p, d);
      if (p === list.length) return;
      if (list[p] === d) text[r]! += weightedIdf * (lazy === undefined ? key.saturated[p]! : lazy.at(p));
    }
    return;
  }
  const saturated = lazy === undefined ? key.saturated : lazy.complete();
  let r = 0;
  for (let p = 0; p < list.length; p++) {
    const d = list[p]!;
    if (onlyIn[d] !== 1) continue;
    r = firstAtLeast(docs, r, d, count);
    if (r === count) return;
    if (docs[r] === d) text[r]! += weightedIdf * saturated[p]!;
  }
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
