// The index vocabulary as the user sees it: display words with their document frequencies, for prefix
// completions and "did you mean" corrections.

import { foldWord } from '../../shared/analysis/index.js';

// Three rows of the distance table, reused across calls (grown when a longer word comes).
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `max + 1` once it
 * is certain to exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0]!.length < n + 1) rows = rows.map(() => new Int32Array(2 * (n + 1)));
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

export class Vocabulary {
  /** Distinct display words, sorted, with the highest document frequency among their terms. */
  private readonly words: string[];
  private readonly df: number[];
  /** The term each word's document frequency is from. */
  private readonly term: number[];
  /** The words corrections choose from: display words and every other surface word of a term (its
   * term's document frequency), so "partioning" is offered "partitioning", not only "partition". */
  private readonly spellings: string[];
  private readonly spellingDf: number[];
  /** The term each spelling's document frequency is from. */
  private readonly spellingTerm: number[];
  /** Spelling indexes by first character and length, for corrections. */
  private readonly byInitial = new Map<string, number[]>();

  /** How a word of term `term` is shown: the index keeps words folded to lower case, and the
   * gateway gives back a name's own spelling ("setTimeout", not "settimeout": shown-spelling.ts). */
  private readonly display: (term: number, word: string) => string;

  /** `docFreq(i)` of 0 leaves word i out; `forms(i)` are word i's term's other surface words,
   * space-separated (TermTable.forms). */
  constructor(
    words: readonly string[],
    docFreq: (i: number) => number,
    forms: (i: number) => string | undefined = () => undefined,
    display: (term: number, word: string) => string = (_term, word) => word,
  ) {
    this.display = display;
    const best = new Map<string, number>();
    const bestTerm = new Map<string, number>();
    const spelled = new Map<string, number>();
    const spelledTerm = new Map<string, number>();
    const keep = (map: Map<string, number>, w: string, d: number): boolean => {
      if ((map.get(w) ?? -1) >= d) return false;
      map.set(w, d);
      return true;
    };
    words.forEach((w, i) => {
      const d = docFreq(i);
      if (d <= 0) return;
      if (keep(best, w, d)) bestTerm.set(w, i);
      if (keep(spelled, w, d)) spelledTerm.set(w, i);
      for (const form of (forms(i) ?? '').split(' ')) if (form !== '' && keep(spelled, form, d)) spelledTerm.set(form, i);
    });
    this.words = [...best.keys()].sort();
    this.df = this.words.map((w) => best.get(w)!);
    this.term = this.words.map((w) => bestTerm.get(w)!);
    this.spellings = [...spelled.keys()];
    this.spellingDf = this.spellings.map((w) => spelled.get(w)!);
    this.spellingTerm = this.spellings.map((w) => spelledTerm.get(w)!);
    this.spellings.forEach((w, i) => {
      const key = bucket(w[0] ?? '', w.length);
      let list = this.byInitial.get(key);
      if (!list) this.byInitial.set(key, (list = []));
      list.push(i);
    });
  }

  /**
   * Up to `limit` words starting with the last word of `prefix`, most frequent first, with the words
   * before it kept. With `affinity` (complete-in-context.ts), the `maxCandidates` most frequent are
   * ranked by their affinity to the earlier words first.
   */
  complete(prefix: string, limit: number, affinity?: (term: number) => number, maxCandidates = Infinity): string[] {
    const match = /^(.*?)(\S*)$/su.exec(prefix.trimStart());
    const head = match?.[1] ?? '';
    const last = foldWord(match?.[2] ?? '');
    if (last === '' || limit <= 0) return [];
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid]! < last) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let i = lo; i < this.words.length && this.words[i]!.startsWith(last); i++) found.push(i);
    found.sort((a, b) => this.df[b]! - this.df[a]! || (this.words[a]! < this.words[b]! ? -1 : 1));
    if (affinity !== undefined) {
      const ranked = found.slice(0, maxCandidates).map((i) => ({ i, a: affinity(this.term[i]!) }));
      // A stable sort: equal affinities keep the frequency order.
      ranked.sort((x, y) => y.a - x.a);
      found.splice(0, ranked.length, ...ranked.map((r) => r.i));
    }
    return found.slice(0, limit).map((i) => head + this.display(this.term[i]!, this.words[i]!));
  }

  /**
   * A frequent word close to `word` (edit distance 1 for words up to 4 letters, else 2) that occurs in
   * at least `minRatio` times as many documents as `ownDf`; undefined when there is none.
   */
  correct(word: string, ownDf: number, minRatio: number): string | undefined {
    const folded = foldWord(word);
    const max = codePoints(folded) <= 4 ? 1 : 2;
    const need = Math.max(1, ownDf * minRatio);
    let best: number | undefined;
    let bestDistance = max + 1;
    for (let length = folded.length - max; length <= folded.length + max; length++) {
      for (const i of this.byInitial.get(bucket(folded[0] ?? '', length)) ?? []) {
        if (this.spellingDf[i]! < need || this.spellings[i] === folded) continue;
        const d = editDistance(folded, this.spellings[i]!, max);
        if (d < bestDistance || (d === bestDistance && best !== undefined && this.spellingDf[i]! > this.spellingDf[best]!)) {
          best = i;
          bestDistance = d;
        }
      }
    }
    return best === undefined || bestDistance > max ? undefined : this.display(this.spellingTerm[best]!, this.spellings[best]!);
  }
}

const bucket = (initial: string, length: number) => `${initial}${length}`;

/** Code points in `s` (a surrogate pair is one letter), counted without building an array. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}
