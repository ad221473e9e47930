// Accent folding: what lets a query typed without accents find accented words ("configuree" finds
// "configurée", "strasse" finds "Straße"). A word whose folded spelling stems differently from the word
// itself is indexed twice: its own token, and a fold token (FOLD_MARK + the stem of its unaccented
// spelling with the page's stemmer). The query side makes the same fold token from what the user typed,
// so the two meet through the same function on the same spelling: French "configurée" stems to
// "configur" but "configuree" to "configure", and only the fold token makes them agree. The fold token
// is a term of its own, so a page with the exact form still outscores one matched through folding.

import { stemWord } from './registry.js';
import { ASCII } from './fold.js';

/** Starts every fold token; never in a word (words are letters, digits and marks). */
export const FOLD_MARK = '~';

// Letters that are not a base letter plus a combining mark, so NFD leaves them whole.
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ẞ: 'ss' };
const SPECIAL = /[ßæœøłđðþıẞ]/g;
// Marks on Latin letters only: the breve of Cyrillic "й" makes another letter, not an accent.
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/** A folded word without its accents: Latin diacritics dropped, ß -> ss, æ -> ae, Russian ё -> е. */
export function accentFold(word: string): string {
  if (ASCII.test(word)) return word;
  return word.replace(SPECIAL, (c) => LETTERS[c]!).replace(/ё/g, 'е').normalize('NFD').replace(LATIN_MARKS, '$1').normalize('NFC');
}

/** The fold token of a folded word on a page in `language`: FOLD_MARK + the stem of its unaccented spelling. */
export function foldToken(word: string, language = ''): string {
  return FOLD_MARK + stemWord(accentFold(word), language);
}

export const isFoldToken = (token: string): boolean => token.startsWith(FOLD_MARK);
