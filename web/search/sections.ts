// Which section of a result page answers the query best (issue 14 item 3): the result then links to
// `page#id`, shows the section's heading under the page title and takes its snippet from the section,
// as Algolia DocSearch and Pagefind do. Pure, and run only on the results shown: the ranking of pages is
// unchanged, a page is chosen first and its best section after, over the sections the indexer stored
// with the page (shared/store PageSection, start offsets into the stored body).
//
// A section's score: per distinct query word, 2 when its heading has the word, plus 1 + ln(1 + n) when
// its text has it n times (a heading names what a section is about; repetitions count, but less and
// less). Sections are compared first by how many distinct query words they hold, then by that score.
// The first section is the page's top: choosing it links to the page itself, as before.

import type { StoredDoc } from '../../shared/index-format/index.js';
import { querySpans, tokensIn } from './snippet.js';

/** Weight of a query word in a section's heading against one occurrence in its text. */
const HEADING_WEIGHT = 2;

export interface ChosenSection {
  id: string;
  heading: string;
  /** [start, end) of the section's text after its heading, in the stored body. */
  start: number;
  end: number;
}

/** The section of `doc` that best matches `queryTokens`, or undefined when the page's top does as well. */
export function bestSection(doc: Pick<StoredDoc, 'body' | 'language' | 'sections'>, queryTokens: ReadonlySet<string>): ChosenSection | undefined {
  const sections = doc.sections;
  if (sections === undefined || sections.length < 2 || queryTokens.size === 0) return undefined;
  const { body, language } = doc;
  const spans = querySpans(body, language, queryTokens).map((s) => ({ token: s.token, at: s.start }));
  // Everything before the second section is the page's top (the first section and any text before it).
  const bounds = sections.map((s, i) => (i === 0 ? 0 : Math.min(s.start, body.length)));
  // Sections beyond the part of the body that was read are not chosen.
  const read = sections.findIndex((s, i) => i > 0 && s.start >= body.length);
  const inHeading = tokensIn(queryTokens, language);
  const best = pickSection(bounds.slice(0, read < 0 ? sections.length : read), body.length, spans, (i) => inHeading(sections[i]!.heading), queryTokens);
  if (best <= 0) return undefined;
  const section = sections[best]!;
  const end = best + 1 < sections.length ? bounds[best + 1]! : body.length;
  // The heading is shown apart: the snippet starts after it.
  const afterHeading = body.startsWith(section.heading, section.start) ? section.start + section.heading.length : section.start;
  return { id: section.id, heading: section.heading, start: Math.min(afterHeading, end), end };
}

/** A query word found at `at`, in whatever unit the section bounds are in (characters or word places). */
export interface LocatedToken {
  token: string;
  at: number;
}

/**
 * The index of the section that best matches, by the rule in this file's header: `bounds[i]` is where
 * section i starts (0 for the first), `end` where the last ends, `spans` the query words found,
 * ascending by `at`, in the same unit. 0 (the page's top) when no other does better.
 */
export function pickSection(
  bounds: readonly number[],
  end: number,
  spans: readonly LocatedToken[],
  /** The tokens of section i's heading (those of the query, or all). */
  headingTokens: (i: number) => ReadonlySet<string>,
  queryTokens: ReadonlySet<string>,
): number {
  let best = -1;
  let bestCovered = 0;
  let bestScore = 0;
  let at = 0;
  for (let i = 0; i < bounds.length; i++) {
    const from = bounds[i]!;
    const to = i + 1 < bounds.length ? bounds[i + 1]! : end;
    const counts = new Map<string, number>();
    while (at < spans.length && spans[at]!.at < from) at++;
    for (; at < spans.length && spans[at]!.at < to; at++) countSpan(counts, spans[at]!);
    const inHeading = headingTokens(i);
    let covered = 0;
    let score = 0;
    for (const token of queryTokens) {
      const n = counts.get(token) ?? 0;
      const h = inHeading.has(token);
      if (n > 0 || h) covered++;
      score += (h ? HEADING_WEIGHT : 0) + (n > 0 ? 1 + Math.log(1 + n) : 0);
    }
    if (covered > bestCovered || (covered === bestCovered && score > bestScore)) {
      best = i;
      bestCovered = covered;
      bestScore = score;
    }
  }
  return best;
}

function countSpan(counts: Map<string, number>, span: LocatedToken): void {
  counts.set(span.token, (counts.get(span.token) ?? 0) + 1);
}

/** `url` with `id` as its fragment (any fragment it had replaced). */
export function sectionUrl(url: string, id: string): string {
  const hash = url.indexOf('#');
  // Characters a fragment may not hold as they are (RFC 3986) are percent-encoded, the rest kept.
  return `${hash === -1 ? url : url.slice(0, hash)}#${id.replace(/[^\w\-.~!$&'()*+,;=:@/?]/gu, (c) => encodeURIComponent(c))}`;
}
