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
}

export const DEFAULT_FIELD_LIMITS: Readonly<FieldLimits> = { maxFieldChars: 1000, maxHeadings: 2000, maxSections: 2000 };

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
  if (
    !long(e.title) &&
    !long(e.description) &&
    e.headings.length <= limits.maxHeadings &&
    !e.headings.some(long) &&
    !e.links.some((l) => long(l.text)) &&
    sections.length <= limits.maxSections &&
    !sections.some((s) => long(s.heading))
  ) {
    return e;
  }
  const bounded: Extracted = {
    ...e,
    title: cutField(e.title, max),
    description: cutField(e.description, max),
    headings: e.headings.slice(0, limits.maxHeadings).map((h) => cutField(h, max)),
    links: e.links.map((l) => (long(l.text) ? { ...l, text: cutField(l.text, max) } : l)),
  };
  if (e.sections) {
    const kept = e.sections.slice(0, limits.maxSections).map((s) => (long(s.heading) ? { ...s, heading: cutField(s.heading, max) } : s));
    // Without the mark the last kept section ran to the end of the text: on a page of 10,000 headings
    // a query for the 9,999th linked to the 2,000th, under its heading.
    const next = e.sections[limits.maxSections];
    bounded.sections = next === undefined ? kept : [...kept, { id: END_OF_SECTIONS.id, heading: END_OF_SECTIONS.heading, start: next.start }];
  }
  return bounded;
}
