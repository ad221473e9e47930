// Builds the page typeahead of a generation (shared/index-format/page-typeahead.ts): a flexsearch
// index over every page's title and section headings, encoded by Gleaner's own analyzer
// (shared/analysis), so what the box offers agrees with what a search finds: the same tokens, stems,
// CJK splitting and identifier parts. flexsearch does what it does well here (prefix lookup over short
// texts); the full-text search stays on our own index, which measured faster (DESIGN.md).

import FlexSearch from 'flexsearch';
import { TYPEAHEAD_INDEX_OPTIONS, typeaheadEncode, type StoredDoc, type TypeaheadEntry, type TypeaheadFile } from '../shared/index-format/index.js';

/** Headings per page offered at most: a long reference page should not fill the box. */
export const MAX_TYPEAHEAD_SECTIONS = 20;

export function buildTypeahead(docs: readonly Pick<StoredDoc, 'title' | 'sections'>[]): TypeaheadFile {
  const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
  const entries: TypeaheadEntry[] = [];
  docs.forEach((doc, d) => {
    if (doc.title.trim() !== '') {
      index.add(entries.length, doc.title);
      entries.push({ doc: d });
    }
    for (const s of (doc.sections ?? []).slice(0, MAX_TYPEAHEAD_SECTIONS)) {
      if (s.heading.trim() === '') continue;
      index.add(entries.length, s.heading);
      entries.push({ doc: d, id: s.id, heading: s.heading });
    }
  });
  const parts: Record<string, string> = {};
  // With a handler that returns nothing, flexsearch exports synchronously.
  index.export((key: string | number, data: unknown) => {
    if (data !== undefined && data !== null) parts[String(key)] = typeof data === 'string' ? data : JSON.stringify(data);
  });
  return { entries, index: parts };
}
