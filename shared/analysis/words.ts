// Splitting text into words: runs of letters, digits and combining marks; an apostrophe inside a word
// belongs to it ("don't"); any other character separates words ("e-mail" -> "e", "mail").

/** Longer words (base64, hashes) are not indexed. */
export const MAX_WORD_LENGTH = 64;

const WORD_SOURCE = "[\\p{L}\\p{N}\\p{M}]+(?:['’][\\p{L}\\p{N}\\p{M}]+)*";
/** Every word of a text, with exec() from lastIndex (shared state: one scan at a time). */
export const WORD = new RegExp(WORD_SOURCE, 'gu');
const WORD_AT = new RegExp(WORD_SOURCE, 'uy');
const WORD_NEXT = new RegExp(WORD_SOURCE, 'gu');

/** Where the next word of `text` at or after `from` starts, or -1. */
export function nextWordStart(text: string, from: number): number {
  WORD_NEXT.lastIndex = from;
  const m = WORD_NEXT.exec(text);
  return m === null ? -1 : m.index;
}

/** The word starting exactly at `index` of `text`, or undefined when none starts there. */
export function wordAt(text: string, index: number): string | undefined {
  WORD_AT.lastIndex = index;
  return WORD_AT.exec(text)?.[0];
}
