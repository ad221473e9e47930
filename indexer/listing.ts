// Source listings: pages that are code and next to nothing else (Sphinx's `_modules/` pages, a language's
// full grammar, a raw file shown as HTML). Each holds every name and word of its code, so in BM25 it
// matches what the page documenting that code matches, and outranked it (Django: "return json response"
// found django/test/client.py's listing first). The crawler measures each page's share of text inside
// `<pre>` (PageRecord.codeShare); the searcher demotes by the share computed here (web/search/rank.ts
// listingFactor). Pure. DESIGN.md "A source listing is not an answer" has the figures.

import type { PageRecord } from '../shared/store/index.js';

/** Defaults: DEFAULT_LISTING_OPTIONS. */
export interface ListingOptions {
  /** Code symbols (brackets, `=`, `;`, quotes, `#`, `$`...) per character of content below which the
   * `<pre>` is prose set in a fixed font, not code: a manual page rendered as one `<pre>` (Postfix's
   * postmap.1.html, 1-3% symbols) reads as sentences, while source listings (Django's and Sphinx's
   * `_modules/` pages, 230 of them: 3.7-15%, docstrings included) and grammars (Python's: 12%) do not. */
  maxProseSymbols: number;
  /** Sentence ends (a word, `.`, `!` or `?`, a space, a capital) per 1,000 characters at or above which
   * the `<pre>` reads as sentences: 2.2-9.9 on Postfix's 76 manual pages, 0-2.4 on the listings above. */
  minProseSentences: number;
  /** Characters of content outside `<pre>` at or above which a page has prose of its own and is no
   * listing, however long its code: SQLite's sqlite3_analyzer page (1,304 characters of article before
   * a long sample output) is the answer for its name. A viewcode page keeps 260-420 characters of
   * breadcrumbs and "Source code for ..." once its template is gone; 1,000 is about 150 words. */
  minProseChars: number;
}

export const DEFAULT_LISTING_OPTIONS: Readonly<ListingOptions> = { minProseChars: 1000, maxProseSymbols: 0.032, minProseSentences: 1.5 };

/**
 * How much the page is a listing, 0..1: the share of its content text inside `<pre>` (the code is
 * content; the theme around it is template, `contentText` without it), or 0 when the content outside
 * `<pre>` is prose enough to be a page of its own, or when its `<pre>` is prose itself (a manual page set
 * in a fixed font: few code symbols, many sentences), or when the crawl did not measure it.
 */
export function listingShare(page: Pick<PageRecord, 'codeShare' | 'text'>, contentText: string | undefined, options: ListingOptions = DEFAULT_LISTING_OPTIONS): number {
  if (page.codeShare === undefined) return 0;
  const content = contentText === undefined || contentText === '' ? page.text.length : contentText.length;
  if (content === 0) return 0;
  const code = Math.min(content, page.codeShare * page.text.length);
  if (content - code >= options.minProseChars) return 0;
  return readsAsProse(contentText === undefined || contentText === '' ? page.text : contentText, options) ? 0 : code / content;
}

/** Whether a text reads as sentences rather than code: few code symbols per character and many
 * sentence ends (ListingOptions.maxProseSymbols, minProseSentences). Counted in one pass, without
 * collecting matches: a page may hold megabytes of `<pre>`. */
export function readsAsProse(text: string, options: ListingOptions = DEFAULT_LISTING_OPTIONS): boolean {
  if (text.length === 0) return false;
  let symbols = 0;
  for (let i = 0; i < text.length; i++) if (CODE_SYMBOL[text.charCodeAt(i)] === 1) symbols++;
  let sentences = 0;
  SENTENCE_END.lastIndex = 0;
  while (SENTENCE_END.exec(text) !== null) sentences++;
  return symbols / text.length < options.maxProseSymbols && (sentences / text.length) * 1000 >= options.minProseSentences;
}

/** Per ASCII code, 1 for a code symbol: brackets, `;`, `=`, `<`, `>`, `*`, `&`, `|`, `$`, `#`, `@`, `\`, quotes. */
const CODE_SYMBOL = (() => {
  const table = new Uint8Array(128);
  for (const c of '{}()[];=<>*&|$#@\\"\'') table[c.charCodeAt(0)] = 1;
  return table;
})();
const SENTENCE_END = /\p{Ll}{2}[.!?] +\p{Lu}/gu;
