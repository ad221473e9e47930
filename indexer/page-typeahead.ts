// Builds the page typeahead of a generation (shared/index-format/page-typeahead.ts): a flexsearch
// index over every page's title and section headings, encoded by Gleaner's own analyzer
// (shared/analysis), so what the box offers agrees with what a search finds: the same tokens, stems,
// CJK splitting and identifier parts. flexsearch does what it does well here (prefix lookup over short
// texts); the full-text search stays on our own index, which measured faster (DESIGN.md).

import FlexSearch from 'flexsearch';
import { isBlank } from '../shared/analysis/index.js';
import { TYPEAHEAD_INDEX_OPTIONS, typeaheadEncode, type StoredDoc, type TypeaheadEntry, type TypeaheadFile, type TypeaheadSlot } from '../shared/index-format/index.js';

export interface TypeaheadOptions {
  /** Headings per page offered at most: a long reference page should not fill the box. Default 20. */
  maxSections: number;
  /** Entries (titles and headings) at most. flexsearch holds every prefix of every entry's words in
   * memory, about 0.6 KB an entry once `serve` has loaded it (225 MB of heap for the 350,610 entries of
   * the Rust docs copied five times), so past this the pages most linked to keep theirs and the rest
   * are offered by search alone. Default 500,000: about 320 MB, whatever the site's size. */
  maxEntries: number;
}

export const DEFAULT_TYPEAHEAD_OPTIONS: Readonly<TypeaheadOptions> = { maxSections: 20, maxEntries: 500_000 };

/** The section headings of a page the typeahead may offer: its first maxSections headings with text.
 * Definition terms (a reference page's hundreds of functions) are left to search. */
export function offeredSections<S extends { heading: string; term?: true }>(doc: { sections?: readonly S[] }, options: Pick<TypeaheadOptions, 'maxSections'>): S[] {
  return (doc.sections ?? [])
    .filter((s) => s.term !== true)
    .slice(0, options.maxSections)
    .filter((s) => !isBlank(s.heading));
}

/** Per document, how many of its section headings are offered; -1 for none, title included. Pure. */
export function typeaheadShares(docs: readonly Pick<StoredDoc, 'title' | 'sections'>[], inbound: ArrayLike<number> | undefined, options: TypeaheadOptions): Int32Array {
  const headings = docs.map((doc) => offeredSections(doc, options).length);
  const entries = (d: number) => (isBlank(docs[d]!.title) ? 0 : 1) + headings[d]!;
  const shares = Int32Array.from(headings);
  let total = 0;
  for (let d = 0; d < docs.length; d++) total += entries(d);
  if (total <= options.maxEntries) return shares;
  // Most linked first; a page past the budget is left out whole, the one that reaches it keeps its
  // title and the headings that fit.
  const byLinks = [...docs.keys()].sort((a, b) => (inbound?.[b] ?? 0) - (inbound?.[a] ?? 0) || a - b);
  shares.fill(-1);
  let budget = options.maxEntries;
  for (const d of byLinks) {
    if (budget <= 0) break;
    const title = isBlank(docs[d]!.title) ? 0 : 1;
    shares[d] = Math.max(0, Math.min(headings[d]!, budget - title));
    budget -= title + shares[d];
  }
  return shares;
}

/** The typeahead of `docs` (in document order); `inbound`, per document, says which pages keep their
 * entries when there are more than `options.maxEntries`. */
export function buildTypeahead(docs: readonly Pick<StoredDoc, 'title' | 'sections'>[], inbound?: ArrayLike<number>, options: TypeaheadOptions = DEFAULT_TYPEAHEAD_OPTIONS): TypeaheadFile {
  const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
  const entries: TypeaheadSlot[] = [];
  // A text met before joins its slot: flexsearch would give it the same words at the same places.
  const slotOf = new Map<string, number>();
  const offer = (text: string, entry: TypeaheadEntry): void => {
    const at = slotOf.get(text);
    if (at === undefined) {
      slotOf.set(text, entries.length);
      index.add(entries.length, text);
      entries.push(entry);
      return;
    }
    const slot = entries[at]!;
    if (Array.isArray(slot)) slot.push(entry);
    else entries[at] = [slot, entry];
  };
  const shares = typeaheadShares(docs, inbound, options);
  docs.forEach((doc, d) => {
    if (shares[d]! < 0) return;
    if (!isBlank(doc.title)) offer(doc.title, { doc: d });
    let left = shares[d]!;
    for (const s of offeredSections(doc, options)) {
      if (left-- <= 0) break;
      offer(s.heading, { doc: d, id: s.id, heading: s.heading });
    }
  });
  const parts: Record<string, string> = {};
  // With a handler that returns nothing, flexsearch exports synchronously.
  index.export((key: string | number, data: unknown) => {
    if (data !== undefined && data !== null) parts[String(key)] = typeof data === 'string' ? data : JSON.stringify(data);
  });
  return { entries, index: parts };
}
