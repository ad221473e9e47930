// The last step of ranking shared by the rules that look only at the best results (name-title.ts,
// lead.ts, proximity.ts): each entry of the pool has its score multiplied by the rule's factor, which
// the rule records on the entry for "why this result", and the pool is sorted again; the entries below
// it keep their order after it. The entries are the query's own candidates, made for this one ranking,
// so they are changed in place: a copy of each of 30 results for each of three rules was a third of
// what ranking a query allocated, and the young-generation collections that allocation sets off made
// its p99 (DESIGN.md, "What ranking allocates").

/**
 * `ranked` (best first) with each of its first `poolSize` entries given to `adjust` (which multiplies
 * its score) and the pool sorted again by score; ties keep their order, the entries after the pool
 * keep theirs, after it. Changes `ranked` in place and returns it.
 */
export function reorderPool<T extends { score: number }>(ranked: T[], poolSize: number, adjust: (entry: T) => void): T[] {
  const n = Math.min(poolSize, ranked.length);
  for (let i = 0; i < n; i++) adjust(ranked[i]!);
  // Insertion sort: stable, and a pool is a few dozen entries.
  for (let i = 1; i < n; i++) {
    const entry = ranked[i]!;
    let j = i;
    for (; j > 0 && ranked[j - 1]!.score < entry.score; j--) ranked[j] = ranked[j - 1]!;
    ranked[j] = entry;
  }
  return ranked;
}
