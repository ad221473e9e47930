// A page's short fields (title, description, headings, anchor texts) are short on real pages and
// unbounded in HTML: a hostile page's 1.2 MB <title> was stored, indexed and sent whole in every
// answer that listed the page (search results, typeahead). Each is cut here, for every kind of page
// (HTML, text, PDF, Word), before anything stores it. Body text has its own bound (maxTextChars).

import type { Extracted } from './extract.js';
import { END_OF_SECTIONS } from '../shared/store/index.js';

export interface FieldLimits {
  /** Characters kept of a title, a description, a heading, a section's heading or an anchor text. */
  maxFieldChars: number;
  /** Headings (h1-h3) kept of one page; a reference page has a few hundred. */
  maxHeadings: number;
  /** Sections (headings with an id) kept of one page, then an END_OF_SECTIONS mark where the next one
   * started. The Rust docs' most has 767; a hostile page of 32,000 made every query that listed it
   * take 60 ms to choose its section, and its stored header 1 MB. */
  maxSections: number;
  /** Characters of headings kept of one page, and as many of section headings: the headings after
   * the one that reaches it are left out as those past maxHeadings are. The counts alone let a page
   * hold 2,000 headings of 1,000 characters twice over: 150 such pages of made-up words took an index
   * build to 7.6 GB. The most a page of the Rust, Python and PostgreSQL docs has is 58,336 of headings
   * and 98,849 of section headings (both the Rust docs'). */
  maxHeadingChars: number;
}

export const DEFAULT_FIELD_LIMITS: Readonly<FieldLimits> = { maxFieldChars: 1000, maxHeadings: 2000, maxSections: 2000, maxHeadingChars: 150_000 };

/** How many of `texts`, from the first, fit in `maxCount` and, each cut to `maxChars`, in `budgetChars`. */
function keptWithin(texts: readonly string[], maxCount: number, maxChars: number, budgetChars: number): number {
  let used = 0;
  for (let i = 0; i < texts.length; i++) {
    used += Math.min(texts[i]!.length, maxChars);
    if (i === maxCount || used > budgetChars) return i;
  }
  return texts.length;
}

/** `text` cut to at most `maxChars`, at the last space in its final tenth when there is one, never
 * between the two halves of a surrogate pair. */
export function cutField(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const space = text.lastIndexOf(' ', end);
  if (space > maxChars * 0.9) end = space;
  else if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end--;
  return text.slice(0, end);
}

/** `e` with its short fields within `limits`; the same object when nothing needed cutting. */
export function boundFields(e: Extracted, limits: FieldLimits = DEFAULT_FIELD_LIMITS): Extracted {
  const max = limits.maxFieldChars;
  const long = (s: string) => s.length > max;
  const sections = e.sections ?? [];
  const headingsKept = keptWithin(e.headings, limits.maxHeadings, max, limits.maxHeadingChars);
  const sectionsKept = keptWithin(sections.map((s) => s.heading), limits.maxSections, max, limits.maxHeadingChars);
  if (
    !long(e.title) &&
    !long(e.description) &&
    headingsKept === e.headings.length &&
    !e.headings.some(long) &&
    !e.links.some((l) => long(l.text)) &&
    sectionsKept === sections.length &&
    !sections.some((s) => long(s.heading))
  ) {
    return e;
  }
  const bounded: Extracted = {
    ...e,
    title: cutField(e.title, max),
    description: cutField(e.description, max),
    headings: e.headings.slice(0, headingsKept).map((h) => cutField(h, max)),
    links: e.links.map((l) => (long(l.text) ? { ...l, text: cutField(l.text, max) } : l)),
  };
  if (e.sections) {
    const kept = e.sections.slice(0, sectionsKept).map((s) => (long(s.heading) ? { ...s, heading: cutField(s.heading, max) } : s));
    // Without the mark the last kept section ran to the end of the text: on a page of 10,000 headings
    // a query for the 9,999th linked to the 2,000th, under its heading.
    const next = e.sections[sectionsKept];
    bounded.sections = next === undefined ? kept : [...kept, { id: END_OF_SECTIONS.id, heading: END_OF_SECTIONS.heading, start: next.start }];
  }
  return bounded;
}
