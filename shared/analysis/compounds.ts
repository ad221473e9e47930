// Hyphenated compounds: "e-mail", "real-time", "built-in", "multi-threaded" are also written "email",
// "realtime", "builtin", "multithreaded", and a reader types either. The tokenizer splits at the hyphen
// ("e", "mail"), so a page saying "e-mail" never met the query "email". The indexer adds each
// two-word compound's joined word as one more term of the page (indexer/analyze-doc.ts), as Lucene's
// WordDelimiterGraphFilter does with catenateWords; the query needs nothing new: "email" is the token
// the joined word analyses to. Pure.

import { foldWord } from './fold.js';

/** A compound of exactly two words of letters around one hyphen: not part of a longer chain
 * ("state-of-the-art"), an option (`--num-callers`) or an identifier (`mod_proxy-foo`). */
const COMPOUND = /(?<![\p{L}\p{N}_.-])(\p{L}+)-(\p{L}+)(?![\p{L}\p{N}_]|-[\p{L}\p{N}])/gu;

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

/** The two-word hyphenated compounds of `text`, in order. */
export function hyphenCompounds(text: string): Compound[] {
  if (!text.includes('-')) return [];
  const out: Compound[] = [];
  COMPOUND.lastIndex = 0;
  for (let m = COMPOUND.exec(text); m !== null; m = COMPOUND.exec(text)) {
    const joined = m[1]! + m[2]!;
    if (joined.length > MAX_COMPOUND_CHARS) continue;
    out.push({ joined, written: foldWord(m[0]), start: m.index, end: m.index + m[0].length });
  }
  return out;
}
