// A page's headings field: the h1-h3 the crawler read (crawler/extract.ts) and every section heading it
// found (crawler/sections.ts), each once. A section heading is one a reader can be sent to (`page#id`),
// so it names a part of the page as surely as an h2 does, whatever its level: manuals put their
// subsections in h4 (the Bash manual's "3.1.2.4 ANSI-C Quoting", DocBook's sect3), rustdoc its methods.
// Results already linked to such sections, but their headings counted only as body words of a long
// page, so "ansi-c quoting" found two shorter pages first. A definition term (`<dt id>`, PageSection.term)
// is not one: a reference page's hundreds of terms as headings lost Python's judged queries (success@1
// .895 -> .867: functions.html and stdtypes.html came first for every word a builtin is named by);
// the names a page defines are counted already (defined names, crawler/defined-names.ts). Pure.

import type { PageSection } from '../shared/store/index.js';

/** The headings to index for a page: `headings` in order, then the section headings not among them. */
export function headingsWithSections(headings: string[], sections: readonly Pick<PageSection, 'heading' | 'term'>[] | undefined): string[] {
  if (sections === undefined || sections.length === 0) return headings;
  const have = new Set(headings);
  let out: string[] | undefined;
  for (const { heading, term } of sections) {
    if (term === true || heading === '' || have.has(heading)) continue;
    have.add(heading);
    (out ??= [...headings]).push(heading);
  }
  return out ?? headings;
}
