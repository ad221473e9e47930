// Source listings: pages that are code and next to nothing else (Sphinx's `_modules/` pages, a language's
// full grammar, a raw file shown as HTML). Each holds every name and word of its code, so in BM25 it
// matches what the page documenting that code matches, and outranked it (Django: "return json response"
// found django/test/client.py's listing first). The crawler measures each page's share of text inside
// `<pre>` (PageRecord.codeShare); the searcher demotes by the share computed here (web/search/rank.ts
// listingFactor). Pure. DESIGN.md "A source listing is not an answer" has the figures.

import type { PageRecord } from '../shared/store/index.js';

/** Defaults: DEFAULT_LISTING_OPTIONS. */
export interface ListingOptions {
  /** Characters of content outside `<pre>` at or above which a page has prose of its own and is no
   * listing, however long its code: SQLite's sqlite3_analyzer page (1,304 characters of article before
   * a long sample output) is the answer for its name. A viewcode page keeps 260-420 characters of
   * breadcrumbs and "Source code for ..." once its template is gone; 1,000 is about 150 words. */
  minProseChars: number;
}

export const DEFAULT_LISTING_OPTIONS: Readonly<ListingOptions> = { minProseChars: 1000 };

/**
 * How much the page is a listing, 0..1: the share of its content text inside `<pre>` (the code is
 * content; the theme around it is template, `contentText` without it), or 0 when the content outside
 * `<pre>` is prose enough to be a page of its own, or when the crawl did not measure it.
 */
export function listingShare(page: Pick<PageRecord, 'codeShare' | 'text'>, contentText: string | undefined, options: ListingOptions = DEFAULT_LISTING_OPTIONS): number {
  if (page.codeShare === undefined) return 0;
  const content = contentText === undefined || contentText === '' ? page.text.length : contentText.length;
  if (content === 0) return 0;
  const code = Math.min(content, page.codeShare * page.text.length);
  return content - code >= options.minProseChars ? 0 : code / content;
}
