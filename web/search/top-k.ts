// The k best documents by score: the last step of every search. Pure.

/** The `k` best documents by `score`, descending, ties by document number (stable across runs). */
export function topDocuments(docs: ArrayLike<number>, score: ArrayLike<number>, k: number): number[] {
  const better = (a: number, b: number) => ranksBefore(a, b, score);
  const order = (a: number, b: number) => (better(a, b) ? -1 : better(b, a) ? 1 : 0);
  if (k <= 0) return [];
  if (docs.length <= k * 4) return Array.from(docs).sort(order).slice(0, k);
  // A min-heap of the best k so far: its root is the worst of them.
  const heap: number[] = [];
  // A swap through a temporary: one by destructuring allocated an array each time.
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (heap.length < k) {
      heap.push(d);
      for (let i = heap.length - 1; i > 0 && better(heap[(i - 1) >> 1]!, heap[i]!); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (better(d, heap[0]!)) {
      heap[0] = d;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && better(heap[m]!, heap[l]!)) m = l;
        if (r < heap.length && better(heap[m]!, heap[r]!)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return heap.sort(order);
}

/** Whether document `a` ranks before `b`: a higher score, or the same score and a lower number. */
export function ranksBefore(a: number, b: number, score: ArrayLike<number>): boolean {
  return score[a]! > score[b]! || (score[a] === score[b] && a < b);
}

/** bestFirst's first stage: the best this many, then four times as many each stage after. */
const FIRST_STAGE = 64;

/**
 * `docs` best first (as topDocuments orders them), produced as asked, in stages: the best 64, then the
 * next 256, 1,024 and so on, each found by two passes of number comparisons over the scores below the
 * stage before (the stage's lowest score, then the few at or above it, sorted), so a caller that stops
 * after a few (a phrase check settling a page of results) never orders hundreds of thousands. A heap
 * built over all of them by comparing closures took 13 ms for 384,000 candidates at a million pages.
 */
export function* bestFirst(docs: ArrayLike<number>, score: ArrayLike<number>): Generator<number> {
  const order = (a: number, b: number) => (ranksBefore(a, b, score) ? -1 : ranksBefore(b, a, score) ? 1 : 0);
  let above = Infinity; // every candidate scoring this or more was yielded (Infinity: none yet)
  let left = docs.length;
  for (let size = FIRST_STAGE; left > 0; size *= 4) {
    const { stage, lowest } = nextStage(docs, score, above, left > size ? size : 0);
    // Nothing new: only scores no comparison orders (NaN) are left.
    if (stage.length === 0) return;
    stage.sort(order);
    left -= stage.length;
    above = lowest;
    yield* stage;
  }
}

// Each loop below is a function of its own: a loop run once per query is compiled mid-loop and, in a
// function with code after it, thrown away on reaching that code ("insufficient type feedback"), every
// query (V8 --trace-deopt). And no array of the candidates' scores: a new 3 MB typed array a query
// cost more (its allocation, 17 ms at times) than reading the scores where they are, twice.

/** The `size` best candidates scoring below `above` (Infinity: any), with every tie of the lowest of
 * them, unordered, and that lowest score; all of them when `size` is 0. */
function nextStage(docs: ArrayLike<number>, score: ArrayLike<number>, above: number, size: number): { stage: number[]; lowest: number } {
  const lowest = size > 0 ? kthBelow(docs, score, above, new KthBest(size)) : -Infinity;
  return { stage: scoringIn(docs, score, lowest, above), lowest };
}

/** The k-th largest score of `docs` below `above` (any when `above` is Infinity). */
function kthBelow(docs: ArrayLike<number>, score: ArrayLike<number>, above: number, kth: KthBest): number {
  const any = above === Infinity;
  for (let i = 0; i < docs.length; i++) {
    const s = score[docs[i]!]!;
    if (any || s < above) kth.offer(s);
  }
  return kth.kth;
}

/** The documents scoring at least `lowest` and below `above` (or any when Infinity). */
function scoringIn(docs: ArrayLike<number>, score: ArrayLike<number>, lowest: number, above: number): number[] {
  const any = above === Infinity;
  const out: number[] = [];
  for (let i = 0; i < docs.length; i++) {
    const s = score[docs[i]!]!;
    if ((any || s < above) && s >= lowest) out.push(docs[i]!);
  }
  return out;
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

