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
// Marks on Latin, Greek, Arabic and Hebrew letters: accents, the Greek tonos and breathings, Arabic
// harakat and the hamza and madda on alef, waw and yeh, Hebrew points. Readers of those scripts type
// without them, and Elasticsearch's icu_folding (and its arabic_normalization) drops them too. Not
// Cyrillic (the breve of "й" makes another letter) nor the Indic and Thai scripts, whose marks are vowels.
const FOLDED_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}])\p{M}+/gu;
/** Arabic tatweel (kashida): a stretch of the line between letters, no letter. */
const TATWEEL = /\u0640/g;

/** A folded word without its accents: Latin, Greek, Arabic and Hebrew diacritics and the Arabic tatweel
 * dropped, ß -> ss, æ -> ae, Russian ё -> е. */
export function accentFold(word: string): string {
  if (ASCII.test(word)) return word;
  return word.replace(SPECIAL, (c) => LETTERS[c]!).replace(/ё/g, 'е').replace(TATWEEL, '').normalize('NFD').replace(FOLDED_MARKS, '$1').normalize('NFC');
}

/** The fold token of a folded word on a page in `language`: FOLD_MARK + the stem of its unaccented spelling. */
export function foldToken(word: string, language = ''): string {
  return FOLD_MARK + stemWord(accentFold(word), language);
}

export const isFoldToken = (token: string): boolean => token.startsWith(FOLD_MARK);
