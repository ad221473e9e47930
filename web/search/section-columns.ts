// A page's sections as the searcher's header cache keeps them (stored-fields.ts): a few strings and
// typed arrays whatever their number, which the section chooser reads in place (sections.ts
// SectionShape), a heading or an id made only for the sections it asks about. Parsed, a section was
// an object and two strings, and 64 MiB of cached headers about a million objects, which the collector
// marks at every major collection: at a million pages the cache's objects made its longest pauses,
// 35-54 ms against 12-19 with the cache at 4 MiB (DESIGN.md "What the parsed headers cost the collector").

import type { PackedSections, StoredDoc } from '../../shared/index-format/index.js';
import type { JoinedHeadings } from './snippet.js';
import type { SectionShape } from './sections.js';

type Section = NonNullable<StoredDoc['sections']>[number];

export interface SectionColumns {
  /** The headings joined, a line each (snippet.ts joinHeadings), as the snippet's heading search reads them. */
  headings: JoinedHeadings;
  /** The ids back to back; section i's is ids[idEnds[i - 1] (0 for the first), idEnds[i]). */
  ids: string;
  idEnds: Uint32Array;
  /** Each section's start in the body. */
  starts: Float64Array;
  /** The sections that are definition terms (PageSection.term), ascending: few or none. */
  terms: Uint32Array;
  /** What choosing a section reads of them (sections.ts choosePart), made once with the columns. */
  shape: SectionShape;
}

/** The columns of a stored header's sections (shared/index-format stored-header.ts), made without a
 * section object: a long page's thousands of headings stay the one string they were stored as. */
export function packedSectionColumns(packed: PackedSections): SectionColumns {
  const n = packed.starts.length;
  const headingStarts = new Int32Array(n);
  const idEnds = new Uint32Array(n);
  let heading = 0;
  let id = 0;
  for (let i = 0; i < n; i++) {
    headingStarts[i] = heading;
    heading += packed.headingLengths[i]! + 1;
    idEnds[i] = id += packed.idLengths[i]!;
  }
  const text = packed.headings;
  const ids = packed.ids;
  const terms = packed.terms instanceof Uint32Array ? packed.terms : Uint32Array.from(packed.terms);
  // The crawler marks a page whose sections it cut with a last section of empty id (linkableSections).
  const linkable = n > 0 && idEnds[n - 1] === (n > 1 ? idEnds[n - 2] : 0) ? n - 1 : n;
  return {
    headings: { text, lower: text.toLowerCase(), starts: headingStarts },
    ids,
    idEnds,
    starts: packed.starts instanceof Float64Array ? packed.starts : Float64Array.from(packed.starts),
    terms,
    shape: { length: n, terms, linkable },
  };
}

/** Section i's heading, a slice of the joined headings: only the sections a snippet asks for are made. */
export function headingAt(columns: SectionColumns, i: number): string {
  const { headings } = columns;
  return headings.text.slice(headings.starts[i], i + 1 < headings.starts.length ? headings.starts[i + 1]! - 1 : headings.text.length);
}

/** Section i's id (the fragment a result links to). */
export function idAt(columns: SectionColumns, i: number): string {
  return columns.ids.slice(i === 0 ? 0 : columns.idEnds[i - 1]!, columns.idEnds[i]);
}

/** The sections again, as parsed (a stored record's): new objects each time, as many as the page has. */
export function sectionsOf(columns: SectionColumns): Section[] {
  const { starts, terms } = columns;
  const n = starts.length;
  const out = new Array<Section>(n);
  let term = 0;
  for (let i = 0; i < n; i++) {
    const section: Section = { id: idAt(columns, i), heading: headingAt(columns, i), start: starts[i]! };
    if (term < terms.length && terms[term] === i) {
      section.term = true;
      term++;
    }
    out[i] = section;
  }
  return out;
}

/** Memory the columns take, about: two bytes a character (the headings twice, as typed and lower-cased). */
export const sectionColumnsBytes = (c: SectionColumns): number => 2 * (c.headings.text.length + c.headings.lower.length + c.ids.length) + c.headings.starts.byteLength + c.idEnds.byteLength + c.starts.byteLength + c.terms.byteLength + COLUMNS_OVERHEAD_BYTES;

/** The objects of a SectionColumns beside its contents (seven objects and their headers). */
const COLUMNS_OVERHEAD_BYTES = 450;
