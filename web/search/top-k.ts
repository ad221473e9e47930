// The k best documents by score: the last step of every search. Pure.

/** The `k` best documents by `score`, descending, ties by document number (stable across runs). */
export function topDocuments(docs: ArrayLike<number>, score: ArrayLike<number>, k: number): number[] {
  const better = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && a < b);
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

/**
 * `docs` best first (as topDocuments orders them), produced as asked: a heap is built over all of them
 * in linear time and each next document costs a logarithm, so a caller that stops after a few (a
 * phrase check settling a page of results) never sorts thousands.
 */
export function* bestFirst(docs: ArrayLike<number>, score: ArrayLike<number>): Generator<number> {
  const better = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && a < b);
  const heap = Int32Array.from(docs);
  let size = heap.length;
  const down = (from: number) => {
    for (let i = from; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && better(heap[l]!, heap[m]!)) m = l;
      if (r < size && better(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      const t = heap[i]!;
      heap[i] = heap[m]!;
      heap[m] = t;
      i = m;
    }
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) down(i);
  while (size > 0) {
    const top = heap[0]!;
    heap[0] = heap[--size]!;
    down(0);
    yield top;
  }
}
