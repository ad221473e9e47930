// The head of a stored.bin record (format 17): what a snippet reads first, the page's language, its
// sections and its context, as UTF-8 JSON, with the sections as columns: every heading in one string,
// every id in another, their lengths, the starts, and which are definition terms.
//
// Why columns: a long reference page has thousands of sections, and as an array of objects its header
// was a JSON object per section to parse. Cold, reading result headers was half the time of a page of
// ten for queries whose results are such pages (the Rust docs x5: 100 headers, 8.6 MB, inflated in 58
// ms and parsed in 65). As columns the same headers are 6.6 MB, and reading them for the first time took
// 101-109 ms in place of 144-162 (DESIGN.md "Sections stored as columns").

import type { StoredDoc } from './index-format.js';

type PageSection = NonNullable<StoredDoc['sections']>[number];

/** A page's sections as a stored header holds them. */
export interface PackedSections {
  /** The headings, each followed by '\n' but the last; heading i is headingLengths[i] characters. */
  headings: string;
  headingLengths: number[];
  /** The ids back to back; id i is idLengths[i] characters. */
  ids: string;
  idLengths: number[];
  /** Each section's start in the body (PageSection.start). */
  starts: number[];
  /** The sections that are definition terms (PageSection.term), ascending. */
  terms: number[];
}

/** A stored record's head as parsed. */
export interface StoredHeader {
  language: string;
  sections?: PackedSections;
  context?: string;
}

export function packSections(sections: readonly PageSection[]): PackedSections {
  const terms: number[] = [];
  sections.forEach((s, i) => {
    if (s.term === true) terms.push(i);
  });
  return {
    headings: sections.map((s) => s.heading).join('\n'),
    headingLengths: sections.map((s) => s.heading.length),
    ids: sections.map((s) => s.id).join(''),
    idLengths: sections.map((s) => s.id.length),
    starts: sections.map((s) => s.start),
    terms,
  };
}

/** The sections again, as the page's record had them. */
export function unpackSections(packed: PackedSections): PageSection[] {
  const out: PageSection[] = [];
  let heading = 0;
  let id = 0;
  let term = 0;
  for (let i = 0; i < packed.starts.length; i++) {
    const section: PageSection = {
      id: packed.ids.slice(id, (id += packed.idLengths[i]!)),
      heading: packed.headings.slice(heading, heading + packed.headingLengths[i]!),
      start: packed.starts[i]!,
    };
    heading += packed.headingLengths[i]! + 1;
    if (packed.terms[term] === i) {
      section.term = true;
      term++;
    }
    out.push(section);
  }
  return out;
}

/** The head of a record, as stored.bin holds it. */
export function storedHeaderJson(language: string, sections: readonly PageSection[] | undefined, context: string | undefined): string {
  const header: StoredHeader = { language, ...(sections !== undefined ? { sections: packSections(sections) } : {}), ...(context !== undefined ? { context } : {}) };
  return JSON.stringify(header);
}
