// How many typing edits apart two words are: what "did you mean" (web/search/vocabulary.ts) and the
// config file's unknown keys (bin/config-file.ts) both ask. Pure.

// Three rows of the distance table, reused across calls (grown when a longer word comes).
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `max + 1` once it
 * is certain to exceed `max`. Only the cells within `max` of the diagonal are computed (a cell further
 * off is at least its distance from the diagonal): a correction compares a word with thousands. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  const over = max + 1;
  if (rows[0]!.length < n + 2) rows = rows.map(() => new Int32Array(2 * (n + 2)));
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(n, i + max);
    cur[0] = i;
    // The cells just outside the band, which the next row and this one read.
    cur[lo - 1] = lo > 1 ? over : i;
    cur[hi + 1] = over;
    let rowMin = lo > 1 ? over : i;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return over;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, over);
}
