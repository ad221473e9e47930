// The index vocabulary as the user sees it: display words with their document frequencies, for prefix
// completions and "did you mean" corrections.

import { editDistance, foldWord } from '../../shared/analysis/index.js';

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
  /** Spelling indexes by first character and length, for corrections, each list most frequent first. */
  private readonly byInitial = new Map<string, number[]>();
  /** Spellings of one first character and length a correction reads, the most frequent (MAX_SCANNED). */
  private readonly maxScanned: number;

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
    maxScanned = MAX_SCANNED,
    maxWords = MAX_WORDS,
  ) {
    this.display = display;
    this.maxScanned = maxScanned;
    const kept = mostFrequent(words.length, docFreq, maxWords);
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
      const d = kept[i]!;
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
    // Stable: spellings of equal frequency keep their order, so the same one wins a tie as before.
    for (const list of this.byInitial.values()) list.sort((a, b) => this.spellingDf[b]! - this.spellingDf[a]!);
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
      const list = this.byInitial.get(bucket(folded[0] ?? '', length)) ?? [];
      for (let k = 0; k < list.length && k < this.maxScanned; k++) {
        const i = list[k]!;
        if (this.spellingDf[i]! < need) break;
        if (this.spellings[i] === folded) continue;
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

/**
 * Spellings of one first letter and length a correction compares, the most frequent first. A page of
 * 200,000 made-up words (or 36,000 numbered ones: `linktext1` ... `linktext36000`) filled the lists a
 * misspelt word is compared with, and every query with a rare word took 60-500 ms in `correct`, on
 * every site the index holds. The largest list of the judged sites is 872 (Rust docs: `c30`), so none
 * of their corrections changes; past this, the rarest spellings (words of one page) are not offered.
 */
export const MAX_SCANNED = 4096;

/**
 * Words the vocabulary holds, the most frequent. It is built at the first query with a rare word, in
 * that request: 80 pages of 40,000 made-up words each (3.2 million terms) made that query take 9.9 s
 * (and 26 s under a profiler), the server deaf meanwhile, after every re-index. The judged sites have
 * 28,000 (PostgreSQL) to 110,000 terms (Rust docs); past the limit, the words fewest pages hold (one
 * page's made-up words) are neither completed nor offered as corrections.
 */
export const MAX_WORDS = 300_000;

/** Each word's document frequency, 0 for words past the `max` most frequent (ties: the first listed). */
function mostFrequent(count: number, docFreq: (i: number) => number, max: number): Int32Array {
  const df = new Int32Array(count);
  let positive = 0;
  for (let i = 0; i < count; i++) {
    df[i] = Math.max(0, docFreq(i));
    if (df[i]! > 0) positive++;
  }
  if (positive <= max) return df;
  // The frequency of the max-th most frequent word, by a count of words per frequency.
  const perDf = new Map<number, number>();
  for (let i = 0; i < count; i++) if (df[i]! > 0) perDf.set(df[i]!, (perDf.get(df[i]!) ?? 0) + 1);
  let threshold = 0;
  let above = 0;
  for (const d of [...perDf.keys()].sort((a, b) => b - a)) {
    if (above + perDf.get(d)! >= max) {
      threshold = d;
      break;
    }
    above += perDf.get(d)!;
  }
  let atThreshold = max - above;
  for (let i = 0; i < count; i++) {
    if (df[i]! > threshold) continue;
    if (df[i] === threshold && atThreshold > 0) atThreshold--;
    else df[i] = 0;
  }
  return df;
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
