// The last step of ranking shared by the rules that look only at the best results (proximity.ts,
// name-title.ts): each entry of the pool gets its new score, the pool is sorted again, and the entries
// below it keep their order after it. Pure.

/**
 * `ranked` (best first) with its first `poolSize` entries replaced by `adjust(entry)` (the entry with
 * its new score) and sorted by that score; ties keep their order, the entries after the pool keep
 * theirs, after it.
 */
export function reorderPool<T extends { score: number }>(ranked: readonly T[], poolSize: number, adjust: (entry: T) => T): T[] {
  const pool = ranked.slice(0, poolSize).map((entry, order) => ({ entry: adjust(entry), order }));
  pool.sort((x, y) => y.entry.score - x.entry.score || x.order - y.order);
  return [...pool.map((p) => p.entry), ...ranked.slice(poolSize)];
}
