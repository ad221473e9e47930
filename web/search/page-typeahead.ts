// The pages the search box offers while a word is typed (/api/suggest `pages`): the generation's
// flexsearch index of titles and section headings (indexer/page-typeahead.ts), loaded once with the
// generation, asked with the same encoder it was built with (our analyzer).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import FlexSearch from 'flexsearch';
import { TYPEAHEAD_FILE, TYPEAHEAD_INDEX_OPTIONS, typeaheadEncode as encode, type IndexGeneration, type TypeaheadFile } from '../../shared/index-format/index.js';

/** A page offered by the box. */
export interface PageSuggestion {
  title: string;
  /** The page, or the section (`url#id`) whose heading matched. */
  url: string;
  /** The section's heading, when a section matched rather than the title. */
  heading?: string;
}

export type PageTypeahead = (text: string, limit: number) => PageSuggestion[];

/** The generation's typeahead; one that offers nothing when the generation has no typeahead file. */
export function loadPageTypeahead(gen: IndexGeneration): PageTypeahead {
  let file: TypeaheadFile;
  try {
    file = JSON.parse(readFileSync(join(gen.dir, TYPEAHEAD_FILE), 'utf8')) as TypeaheadFile;
  } catch {
    return () => [];
  }
  const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode });
  for (const [key, data] of Object.entries(file.index)) index.import(key, data);
  return (text, limit) => {
    if (encode(text).length === 0) return [];
    const ids = index.search(text, { limit: limit * 3 }) as number[];
    const out: PageSuggestion[] = [];
    const seen = new Set<number>();
    for (const id of ids) {
      const e = file.entries[id];
      if (e === undefined || seen.has(e.doc)) continue;
      seen.add(e.doc);
      const url = gen.docs.url[e.doc]!;
      const title = gen.docs.title[e.doc] ?? '';
      out.push(e.id === undefined ? { title, url } : { title, url: `${url}#${e.id}`, heading: e.heading! });
      if (out.length === limit) break;
    }
    return out;
  };
}
