// Text that shows nothing: a title of zero-width spaces, soft hyphens, joiners, bidi marks, combining
// marks with no letter under them or Hangul fillers is blank on screen, though `trim()` keeps it. A
// result titled so was an empty link (nothing to read or click) and a typeahead entry with no text.

/** Characters a browser draws as nothing (or as a blank): whitespace, controls, format characters
 * (U+200B-F, U+2060-4, U+00AD, U+FEFF, bidi marks), lone combining marks, Hangul fillers, the Braille
 * blank and the object replacement character. */
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\u115F\u1160\u2800\u3164\uFFA0\uFFFC]*$/u;

/** Whether `text` has nothing a reader would see. */
export function isBlank(text: string): boolean {
  return INVISIBLE.test(text);
}
