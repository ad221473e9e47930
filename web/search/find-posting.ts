// Where a document is in one term's postings: the lookup behind explanations, phrase checks and
// placed snippets, which each need one document's entry and not the whole list.

/** Binary search for `doc` in postings[lo, hi); -1 when absent. */
export function findPosting(postings: Uint32Array, lo: number, hi: number, doc: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = postings[mid]!;
    if (v === doc) return mid;
    if (v < doc) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
