// An analysis thread's term numbers (term-wire.ts) as the build's term ids (postings.ts): the build
// looks a term up by its string the first time it meets a thread's number for it, then by the number.
// A lookup by string in a table of hundreds of thousands of terms cost about half a microsecond (cache
// misses), one by number a few nanoseconds (DESIGN.md "Counting and adding by number").

/** A document's terms as its analysis thread numbers them, and what those numbers stand for in the
 * build's term table, filled in as the build looks them up (one translation per thread). */
export interface NumberedTerms {
  /** Per term, aligned with `terms`: its number, or < 0 for a string sent with its batch only. */
  numbers: Int32Array;
  translation: TermTranslation;
  /** Term s's string and its surface word's, `terms[s]` and `words[s]` without making those arrays. */
  term(s: number): string;
  word(s: number): string;
}

/** A thread's term numbers to the build's term ids: -1 until the build has looked the term up. */
export class TermTranslation {
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
