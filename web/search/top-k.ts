// The k best documents by score: the last step of every search. Pure.

/** The `k` best documents by `score`, descending, ties by document number (stable across runs). */
export function topDocuments(docs: ArrayLike<number>, score: ArrayLike<number>, k: number): number[] {
  if (k <= 0) return [];
  if (docs.length <= k * 4) return Array.from(docs).sort((a, b) => (ranksBefore(a, b, score) ? -1 : ranksBefore(b, a, score) ? 1 : 0)).slice(0, k);
  // A heap of the best k in typed arrays, the root's pair kept in locals (bestAfter): a heap of
  // numbers ordered through closures was a sixth of an any-word query's time over 50,000 matches.
  return Array.from(bestAfter(docs, score, -1, new BestPairs(k)));
}

/** Whether document `a` ranks before `b`: a higher score, or the same score and a lower number. */
export function ranksBefore(a: number, b: number, score: ArrayLike<number>): boolean {
  return ranksAfter(score[b]!, b, score[a]!, a);
}

/** bestFirst's first stage: the best this many, then eight times as many each stage after. */
const FIRST_STAGE = 64;

/**
 * `docs` best first (as topDocuments orders them), at most `most` of them, produced as asked, in
 * stages: the best 64, then the next 512, 4,096 and so on (when `most` is at most 4,096: then the rest
 * up to `most`), each found by one pass over the candidates ranking after the stage
 * before, kept in a heap of the stage's size, so a caller that stops after a few (a phrase check
 * settling a page of results) never orders hundreds of thousands. A heap built over all of them by
 * comparing closures took 13 ms for 384,000 candidates at a million pages; this, under 2.
 */
export function* bestFirst(docs: ArrayLike<number>, score: ArrayLike<number>, most = Infinity): Generator<number> {
  let last = -1; // the last document yielded: every one ranking before it was
  let left = Math.min(docs.length, most);
  for (let size = FIRST_STAGE; left > 0; size *= 8) {
    // A caller that takes at most `most` (a phrase check's cap) gets the rest of them in the second
    // stage: "test bits" at a million pages checks 2,000 of 400,000 candidates, and each stage is a pass.
    if (most <= FIRST_STAGE * FIRST_STAGE && size > FIRST_STAGE) size = left;
    const stage = bestAfter(docs, score, last, new BestPairs(Math.min(size, left)));
    // Nothing new: only scores no comparison orders (NaN) are left.
    if (stage.length === 0) return;
    left -= stage.length;
    last = stage[stage.length - 1]!;
    yield* stage;
  }
}

/** The best of `docs` that rank after `last` (any when -1), as many as `heap` holds, best first. A
 * function of its own: a loop run once per query in a function with code after it is compiled
 * mid-loop and thrown away on reaching that code, every query (V8 --trace-deopt). */
function bestAfter(docs: ArrayLike<number>, score: ArrayLike<number>, last: number, heap: BestPairs): Int32Array {
  const any = last < 0;
  const lastScore = any ? 0 : score[last]!;
  // The heap's last, kept here: most candidates rank after it, and are passed over without a call.
  let full = false;
  let rootScore = 0;
  let rootDoc = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    const s = score[d]!;
    if (!any && !ranksAfter(s, d, lastScore, last)) continue;
    if (full && !ranksAfter(rootScore, rootDoc, s, d)) continue;
    heap.offer(d, s);
    if (heap.full) {
      full = true;
      rootScore = heap.rootScore;
      rootDoc = heap.rootDoc;
    }
  }
  return heap.docs.subarray(0, heap.drainSorted());
}

/** The best k (score, document) pairs offered, each with a number of the caller's (`extra`), in a
 * min-heap whose root ranks last. */
export class BestPairs {
  private readonly doc: Int32Array;
  private readonly score: Float64Array;
  private readonly extra: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.doc = new Int32Array(k);
    this.score = new Float64Array(k);
    this.extra = new Float64Array(k);
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** The pair that ranks last (when full). */
  get rootScore(): number {
    return this.score[0]!;
  }

  get rootDoc(): number {
    return this.doc[0]!;
  }

  offer(d: number, s: number, x = 0): void {
    const { k } = this;
    if (this.size < k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!ranksAfter(s, d, this.score[parent]!, this.doc[parent]!)) break;
        this.move(parent, i);
        i = parent;
      }
      this.put(i, d, s, x);
      return;
    }
    if (!ranksAfter(this.score[0]!, this.doc[0]!, s, d)) return;
    this.siftDown(d, s, x, k);
  }

  /**
   * Empties the heap, its pairs left best first in [0, n) of `docs`, `scores` and `extras`; returns n.
   * A heapsort in place: the root, which ranks last of those left, goes to the end each time. An object
   * a pair, sorted, was most of what a phrase query allocated (its second stage sorts up to 2,000).
   */
  drainSorted(): number {
    const n = this.size;
    for (let end = n - 1; end > 0; end--) {
      const d = this.doc[0]!;
      const s = this.score[0]!;
      const x = this.extra[0]!;
      this.siftDown(this.doc[end]!, this.score[end]!, this.extra[end]!, end);
      this.put(end, d, s, x);
    }
    this.size = 0;
    return n;
  }

  /** Documents, scores and extras as drainSorted leaves them (views of the heap's own arrays). */
  get docs(): Int32Array {
    return this.doc;
  }

  get scores(): Float64Array {
    return this.score;
  }

  get extras(): Float64Array {
    return this.extra;
  }

  /** Puts (d, s, x) at the root of the heap's first `size` places and moves it down to its place. */
  private siftDown(d: number, s: number, x: number, size: number): void {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const c = l + 1 < size && ranksAfter(this.score[l + 1]!, this.doc[l + 1]!, this.score[l]!, this.doc[l]!) ? l + 1 : l;
      if (!ranksAfter(this.score[c]!, this.doc[c]!, s, d)) break;
      this.move(c, i);
      i = c;
    }
    this.put(i, d, s, x);
  }

  private move(from: number, to: number): void {
    this.put(to, this.doc[from]!, this.score[from]!, this.extra[from]!);
  }

  private put(i: number, d: number, s: number, x: number): void {
    this.doc[i] = d;
    this.score[i] = s;
    this.extra[i] = x;
  }
}

/** Whether (sa, da) ranks after (sb, db): a lower score, or the same score and a higher number. The
 * one statement of the tie rule every ranking here follows. */
function ranksAfter(sa: number, da: number, sb: number, db: number): boolean {
  return sa < sb || (sa === sb && da > db);
}

/** The k-th largest of the numbers offered (a min-heap of the k largest). Offered the scores of k
 * different documents whose scores can only grow, it is a floor under the k-th best final score. */
export class KthBest {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(k);
  }

  /** Whether k numbers were offered: only then is `kth` a floor. */
  get full(): boolean {
    return this.size === this.k;
  }

  get kth(): number {
    return this.size === 0 ? 0 : this.heap[0]!;
  }

  offer(x: number): void {
    const { heap } = this;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0 && heap[(i - 1) >> 1]! > x) {
        heap[i] = heap[(i - 1) >> 1]!;
        i = (i - 1) >> 1;
      }
      heap[i] = x;
      return;
    }
    if (x <= heap[0]!) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.k) break;
      const c = l + 1 < this.k && heap[l + 1]! < heap[l]! ? l + 1 : l;
      if (heap[c]! >= x) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = x;
  }
}

