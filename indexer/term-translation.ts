// An analysis thread's term numbers (term-wire.ts) as the build's term ids (postings.ts): the build
// looks a term up by its string the first time it meets a thread's number for it, then by the number.
// A lookup by string in a table of hundreds of thousands of terms cost about half a microsecond (cache
// misses), one by number a few nanoseconds (DESIGN.md "Counting and adding by number"). The same goes
// for the surface words the build counts per term: counted by string in a Map per term, the 29% of
// SciFact's postings whose word is not its term's display word cost 700 ns each (DESIGN.md "Surface
// words counted by number").

/** A document's terms as its analysis thread numbers them, and what those numbers stand for in the
 * build's term table, filled in as the build looks them up (one translation per thread). */
export interface NumberedTerms {
  /** Per term, aligned with `terms`: its number, or < 0 for a string sent with its batch only. */
  numbers: Int32Array;
  translation: TermTranslation;
  /** Term s's string and its surface word's, `terms[s]` and `words[s]` without making those arrays. */
  term(s: number): string;
  word(s: number): string;
  /** The thread's number of word s's string (the term's number when the word is its term's string),
   * or < 0 for a string sent with its batch only. Terms and words are numbered in one dictionary. */
  wordNumber(s: number): number;
  /** Per term, the numbers of its other surface words in the document (AnalyzedDoc.forms), numbered
   * as the terms are; a hole for a term with none. */
  forms: readonly (readonly number[] | undefined)[];
  /** The string a number of the batch stands for (a term's, a word's, a form's). */
  text(n: number): string;
}

/** A thread's numbers to the build's: -1 until the build has looked the string up. */
export class NumberTable {
  private ids = new Int32Array(1024).fill(-1);

  get(n: number): number {
    return n < this.ids.length ? this.ids[n]! : -1;
  }

  set(n: number, id: number): void {
    if (n >= this.ids.length) {
      let length = this.ids.length;
      while (length <= n) length *= 2;
      const ids = new Int32Array(length).fill(-1);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.ids[n] = id;
  }
}

/** One thread's strings as the build knows them. */
export class TermTranslation {
  /** As terms: the build's term ids. */
  readonly terms = new NumberTable();
  /** As surface words: the build's keys of (term, word) pairs (postings.ts), the last term the word
   * was met with (a word is one term in one language, and may be another in another). */
  readonly forms = new NumberTable();
}
