// Which way a result's own text runs, from the language its page is in: the result pages write it as
// `dir` on the title and snippet (result-view.ts), and /api/search gives it as `direction`, so a page
// that embeds the search box (public/embed.js) or shows results of its own needs no language table.

/** Primary language subtags written right to left (Arabic, Hebrew, Persian, Urdu, Yiddish, Pashto,
 * Sindhi, Uyghur, Dhivehi, Central Kurdish, Syriac, N'Ko, Aramaic). */
const RTL = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'yi', 'ji', 'ps', 'sd', 'ug', 'dv', 'ckb', 'syr', 'nqo', 'arc']);

/** A primary language subtag as a page's `lang` may carry it: anything else is not written into markup. */
const SUBTAG = /^[a-z]{2,3}$/;

export type TextDirection = 'ltr' | 'rtl' | 'auto';

/** Whether `language` is a subtag that may be written into markup as `lang`. */
export const isLanguageSubtag = (language: string): boolean => SUBTAG.test(language);

/** The direction of a page's text in `language` (a primary subtag, '' when unknown: `auto`, which lets
 * the browser read it from the text). */
export function textDirection(language: string): TextDirection {
  if (!isLanguageSubtag(language)) return 'auto';
  return RTL.has(language) ? 'rtl' : 'ltr';
}
