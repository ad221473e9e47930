// A SearchHit as the result page shows it: safe link, display URL, highlighted snippet segments and
// the "why this result" figures. Pure.

import type { Explanation, SearchHit } from './search/index.js';
import { day, displayUrl, safeHref } from './format.js';
import { segments, type Segment } from './highlight.js';
import { isBlank } from '../shared/analysis/index.js';
import { isLanguageSubtag, textDirection } from './text-direction.js';

export interface ResultView {
  rank: number;
  /** Undefined when the URL is not http(s): shown, not linked. */
  href: string | undefined;
  url: string;
  title: string;
  /** The heading of the section the result links to, when it links to one (SearchHit.section). */
  section?: string;
  /** The parent page's title, shown before the title (SearchHit.context). */
  context?: string;
  snippet: Segment[];
  language: string;
  /** ` lang="ar" dir="rtl"`: the page's language and its text's direction (`rtl` for a right-to-left
   * language, `auto`, the text deciding, when the language is unknown), as markup from a checked subtag
   * and one of three words only; '' for left-to-right text of no known language. Set on the page's own
   * text (title, snippet, context, section), never on the result as a whole: its labels ("Why this
   * result", "Missing:") are English, left to right. */
  ownTextAttributes: string;
  /** The page's day (SearchHit.date) as `2024-03-05`, and as given, for `<time datetime>`; absent when it has none. */
  date?: { day: string; iso: string };
  /** Absent when the search was run without explanations. */
  explain?: Explanation;
  /** A partial match's missing query words ("Missing: binary"); empty for a full match. */
  missing: string[];
}

export function resultView(hit: SearchHit, rank: number): ResultView {
  return {
    rank,
    href: safeHref(hit.section?.url ?? hit.url),
    url: displayUrl(hit.url),
    title: isBlank(hit.title) ? displayUrl(hit.url, 70) : hit.title,
    ...(hit.section ? { section: hit.section.heading } : {}),
    ...(hit.context !== undefined ? { context: hit.context } : {}),
    snippet: segments(hit.snippet, hit.highlights),
    language: hit.language,
    ownTextAttributes: ownTextAttributes(hit.language),
    ...(hit.date !== undefined ? { date: { day: day(hit.date), iso: hit.date } } : {}),
    ...(hit.explain ? { explain: hit.explain } : {}),
    missing: hit.missing ?? [],
  };
}

/** A promoted page (SearchRun.promoted) as the result page shows it: linked to the page the site listed,
 * not to the section the query's words are in. */
export function promotedView(hit: SearchHit): ResultView {
  const { section: _section, ...page } = hit;
  return resultView(page, 0);
}

function ownTextAttributes(language: string): string {
  const dir = textDirection(language);
  return (isLanguageSubtag(language) ? ` lang="${language}"` : '') + (dir === 'ltr' ? '' : ` dir="${dir}"`);
}
