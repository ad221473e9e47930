// Hyphenated compounds: "e-mail", "real-time", "built-in", "multi-threaded" are also written "email",
// "realtime", "builtin", "multithreaded", and a reader types either. The tokenizer splits at the hyphen
// ("e", "mail"), so a page saying "e-mail" never met the query "email". The indexer adds each
// two-word compound's joined word as one more term of the page (indexer/analyze-doc.ts), as Lucene's
// WordDelimiterGraphFilter does with catenateWords. The query "email" is the token the joined word
// analyses to; the query "e-mail" also looks for it (web/search/compile.ts compoundVariants). Pure.

import { foldWord } from './fold.js';

/** Longest joined word kept: longer ones are names, not words. */
const MAX_COMPOUND_CHARS = 24;

export interface Compound {
  /** The two words joined, as they would be typed ("email"). */
  joined: string;
  /** The compound as written, folded ("e-mail"): the surface word a suggestion shows when no page
   * writes the joined word itself. */
  written: string;
  start: number;
  end: number;
}

const LETTER = /\p{L}/u;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isLetter(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  return LETTER.test(text[i]!);
}

function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
  return WORD_CHAR.test(text[i]!);
}

/**
 * The two-word hyphenated compounds of `text`, in order: exactly two words of letters around one
 * hyphen, not part of a longer chain ("state-of-the-art"), an option (`--num-callers`), a dotted or
 * underscored name (`mod_proxy-balancer`) or a number (`utf-8`). Found from each hyphen outwards: a
 * regular expression with look-behind took 3 s over the Rust docs' 52 MB of text, this 0.06-0.13 s.
 */
export function hyphenCompounds(text: string): Compound[] {
  const out: Compound[] = [];
  for (let at = text.indexOf('-'); at >= 0; at = text.indexOf('-', at + 1)) {
    if (!isLetter(text, at - 1) || !isLetter(text, at + 1)) continue;
    let start = at - 1;
    while (start > 0 && isLetter(text, start - 1)) start--;
    let end = at + 2;
    while (end < text.length && isLetter(text, end)) end++;
    const before = text[start - 1];
    if (start > 0 && (isWordChar(text, start - 1) || before === '.' || before === '-')) continue;
    if (isWordChar(text, end) || (text[end] === '-' && text[end + 1] !== '_' && isWordChar(text, end + 1))) continue;
    const joined = text.slice(start, at) + text.slice(at + 1, end);
    if (joined.length > MAX_COMPOUND_CHARS) continue;
    out.push({ joined, written: foldWord(text.slice(start, end)), start, end });
  }
  return out;
}
