// Normalising one word: what makes "Ｐｙｔｈｏｎ", "Python" and "python" one word. Applies to a word alone,
// never to its context, so the query side and the page side always agree.

const APOSTROPHES = /['’]/g;
/** Only ASCII: NFKC leaves such text alone. */
export const ASCII = /^[\x00-\x7f]*$/;

/** Characters nobody sees that words.ts joins into a word: soft hyphen, zero-width space, non-joiner and joiner, word joiner. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060]/g;

/** NFKC (full-width letters, ligatures, compatibility forms), lower case, apostrophes and invisible characters removed ("don't" -> "dont"). */
export function foldWord(raw: string): string {
  // NFKC leaves ASCII alone: skip it for the common case.
  let w = (ASCII.test(raw) ? raw : raw.normalize('NFKC').replace(INVISIBLE, '')).toLowerCase();
  if (w.includes("'") || w.includes('’')) w = w.replace(APOSTROPHES, '');
  return w;
}
