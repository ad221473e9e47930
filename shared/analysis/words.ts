// Splitting text into words: runs of letters, digits and combining marks; an apostrophe inside a word
// belongs to it ("don't"); any other character separates words ("e-mail" -> "e", "mail").

/** Longer words (base64, hashes) are not indexed. */
export const MAX_WORD_LENGTH = 64;

// Inside a word, an apostrophe joins its parts, and so do the characters nobody sees: a soft hyphen
// (`&shy;`, common in German and Dutch pages), a zero-width space, non-joiner or joiner, a word joiner.
// Split there, "pass\u200Bword" was "pass" and "word", and a query for "password" missed it; foldWord
// drops them.
const WORD_SOURCE = "[\\p{L}\\p{N}\\p{M}]+(?:['’\\u00AD\\u200B-\\u200D\\u2060][\\p{L}\\p{N}\\p{M}]+)*";
/** Every word of a text, with exec() from lastIndex: what nextWord finds, and where it hands over. */
export const WORD = new RegExp(WORD_SOURCE, 'gu');

/** The word nextWord found: [start, end) of the text, and whether it is ASCII only (when false, it
 * may still be). */
export const foundWord = { start: 0, end: 0, ascii: true };

/** U+00AD, U+200B-U+200D, U+2060: joined into a word between its letters (WORD_SOURCE). */
const isInvisibleJoiner = (c: number): boolean => c === 0xad || (c >= 0x200b && c <= 0x200d) || c === 0x2060;

const isAsciiWordChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/**
 * Finds the first word of `text` at or after `from` (as WORD would) and puts it in `foundWord`; false
 * when there is none. Shared state: one scan at a time. ASCII text is walked in a loop; the regex
 * (its Unicode classes) takes over where a word meets a character past ASCII. Indexing tokenizes
 * every page's text, and per word the regex's call and match object were nearly half of scanTokens
 * (DESIGN.md "The tokenizer's words found by a loop").
 */
export function nextWord(text: string, from: number): boolean {
  const n = text.length;
  let i = from;
  // ASCII characters that are not letters or digits start no word (none is \p{L}, \p{N} or \p{M}).
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isAsciiWordChar(c)) break;
    if (c >= 0x80) return byRegex(text, i);
  }
  if (i >= n) return false; // `from` may lie past the end
  const start = i;
  let ascii = true;
  for (;;) {
    while (i < n && isAsciiWordChar(text.charCodeAt(i))) i++;
    if (i === n) break;
    const c = text.charCodeAt(i);
    if (c === 0x27 || c === 0x2019 || isInvisibleJoiner(c)) {
      // An apostrophe inside a word belongs to it: "don't"; so does an invisible character (WORD_SOURCE).
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (isAsciiWordChar(next)) {
        if (c !== 0x27) ascii = false;
        i++;
        continue;
      }
      if (next >= 0x80) return byRegex(text, start);
      break;
    }
    if (c >= 0x80) return byRegex(text, start);
    break;
  }
  foundWord.start = start;
  foundWord.end = i;
  foundWord.ascii = ascii;
  return true;
}

function byRegex(text: string, from: number): boolean {
  WORD.lastIndex = from;
  const m = WORD.exec(text);
  if (m === null) return false;
  foundWord.start = m.index;
  foundWord.end = m.index + m[0].length;
  foundWord.ascii = false;
  return true;
}

/** Where the next word of `text` at or after `from` starts, or -1. */
export function nextWordStart(text: string, from: number): number {
  return nextWord(text, from) ? foundWord.start : -1;
}

/** The word starting exactly at `index` of `text`, or undefined when none starts there (as a sticky
 * WORD would match there). By nextWord, not a regex: snippets ask it of every place a query word's
 * prefix is found, and each regex match was an array and a call. Shared state, as nextWord. */
export function wordAt(text: string, index: number): string | undefined {
  return nextWord(text, index) && foundWord.start === index ? text.slice(index, foundWord.end) : undefined;
}

/** One character that is part of a word (WORD_SOURCE's letters, digits and marks). */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/** The character (a whole surrogate pair) before index `i`, or '' at the start. */
export function charBefore(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text.charAt(i - 1);
}

/**
 * [start, end) of the word (as nextWord finds it) that holds the character at `index`, or undefined
 * when that character is in none. Walks back to the word's start over its characters and the joiners
 * between them, so a caller that met one character of a word (snippet.ts, a character past ASCII)
 * reads that word alone. Shared state, as nextWord.
 */
export function wordHolding(text: string, index: number): { start: number; end: number } | undefined {
  // The second half of a surrogate pair: the character starts one before.
  const c0 = text.charCodeAt(index);
  let start = c0 >= 0xdc00 && c0 <= 0xdfff && index > 0 && (text.charCodeAt(index - 1) & 0xfc00) === 0xd800 ? index - 1 : index;
  for (;;) {
    const before = charBefore(text, start);
    if (before === '') break;
    if (WORD_CHAR.test(before)) {
      start -= before.length;
      continue;
    }
    const c = before.charCodeAt(0);
    if ((c === 0x27 || c === 0x2019 || isInvisibleJoiner(c)) && start >= 2 && WORD_CHAR.test(charBefore(text, start - 1))) {
      start -= 1;
      continue;
    }
    break;
  }
  if (!nextWord(text, start) || foundWord.start > index || foundWord.end <= index) return undefined;
  return { start: foundWord.start, end: foundWord.end };
}
