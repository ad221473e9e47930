// How a word the index keeps folded is shown in completions and "did you mean": in the spelling its
// pages use when that spelling is a name's, not a sentence's. The index folds every word to lower case
// (shared/analysis fold.ts), so a completion of "setTim" read "settimeout" and a corrected "settimout"
// said "Showing results for settimeout", where every page writes setTimeout. Pure.

/** Defaults of SpellingOptions. */
export const DEFAULT_SPELLING_OPTIONS: Readonly<SpellingOptions> = { maxDocs: 8 };

export interface SpellingOptions {
  /** Documents of the word's posting list whose title and headings are looked in, the first ones. */
  maxDocs: number;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** A capital after the first letter (`setTimeout`, `PostgreSQL`), or a capital first letter of a
 * qualified name (`Buffer.from`, `HashMap::new`): a name's spelling, not a sentence's. */
const isNameSpelling = (s: string): boolean => /\p{Lu}/u.test(s.slice(1)) || (/^\p{Lu}/u.test(s) && /[._:]/.test(s));

/**
 * `word` (folded) as `texts` write it: the first whole-word occurrence, compared without case, when
 * that occurrence is spelled as a name (isNameSpelling). A capital first letter alone is left out: it
 * is as often a sentence's or a heading's start as a name's ("The", "Buffer"). `word` itself when the
 * first occurrence is not a name's spelling, or no text has the word.
 */
export function shownSpelling(word: string, texts: Iterable<string>): string {
  if (word === '') return word;
  for (const text of texts) {
    const lower = text.toLowerCase();
    // Lower-casing changed the length ("İ"): offsets would not line up. A text in capitals throughout
    // ("ANNUAL REPORT", a PDF's title) shouts, and says nothing of how its words are spelled.
    if (lower.length !== text.length || text === text.toUpperCase()) continue;
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const end = at + word.length;
      if ((at > 0 && WORD_CHAR.test(text[at - 1]!)) || (end < text.length && WORD_CHAR.test(text[end]!))) continue;
      const spelled = text.slice(at, end);
      return isNameSpelling(spelled) ? spelled : word;
    }
  }
  return word;
}
