// The page typeahead's file in an index generation (typeahead.ndjson): what the search box offers as
// pages while a word is typed. Built by the indexer (indexer/page-typeahead.ts), read by web
// (web/search/page-typeahead.ts). Entries are a page's title and its section headings; the index is
// flexsearch 0.8's export, keyed as flexsearch names its parts. Absent in generations built before it:
// readers then offer no pages.
//
// One line per part, not one JSON document: flexsearch's parts are JSON text already, and nested in a
// JSON document they were escaped, parsed twice and decoded as one string. At 105,935 pages that file
// (106 MB) took 1.0 s to decode (a few accented letters made all of it a two-byte string), 0.65 s to
// parse and 0.8 s to import, all in one block of the event loop; by lines, a reader decodes and
// imports one part at a time and can yield between them (web/search/page-typeahead.ts).

import { analyze, isStopword } from '../analysis/index.js';

/** One thing the box can offer: a page (its title) or a section of it (its heading). */
export interface TypeaheadEntry {
  /** Document number in the generation. */
  doc: number;
  /** The section's fragment (`url#id`) and heading, for an entry that is a section. */
  id?: string;
  heading?: string;
}

/** What one flexsearch id stands for: an entry, or the entries whose text is the same, in document
 * order. A heading such as "Trait Implementations" or "Examples" opens hundreds of pages of a site
 * (1,050 and 749 of the Rust docs'; 70,127 entries there, 52,587 texts), and flexsearch indexes each
 * text once. */
export type TypeaheadSlot = TypeaheadEntry | TypeaheadEntry[];

/** The entries a slot stands for. */
export const slotEntries = (slot: TypeaheadSlot): readonly TypeaheadEntry[] => (Array.isArray(slot) ? slot : [slot]);

export interface TypeaheadFile {
  /** By flexsearch id. */
  entries: TypeaheadSlot[];
  /** flexsearch Index.export(): key -> data. */
  index: Record<string, string>;
}

export const TYPEAHEAD_FILE = 'typeahead.ndjson';
/** The file's name and layout (one JSON document, TypeaheadFile) in generations built before the lines. */
export const LEGACY_TYPEAHEAD_FILE = 'typeahead.json';

/** The file's text as its lines, each ending in a line break: the entries as one JSON line, then one
 * line per flexsearch part, `key TAB data`. Not one string: at 500,000 pages the file is about
 * 500 MB, more than the longest string V8 makes (2^29 characters), and the build failed there. */
export function encodeTypeahead(file: TypeaheadFile): string[] {
  const lines = [JSON.stringify(file.entries)];
  for (const [key, data] of Object.entries(file.index)) {
    // flexsearch's keys are names like "1.map" and its data JSON text, which has no raw line breaks.
    if (/[\t\n]/.test(key) || data.includes('\n')) throw new Error(`typeahead part ${JSON.stringify(key)} cannot be stored on one line`);
    lines.push(`${key}\t${data}`);
  }
  return lines.map((line) => line + '\n');
}

/** The entries of typeahead.ndjson's bytes, and its parts decoded one at a time as they are asked for. */
export function decodeTypeahead(bytes: Buffer): { entries: TypeaheadSlot[]; parts: () => Generator<[key: string, data: string]> } {
  let end = bytes.indexOf(0x0a);
  if (end < 0) end = bytes.length;
  const entries = JSON.parse(bytes.toString('utf8', 0, end)) as TypeaheadSlot[];
  function* parts(): Generator<[string, string]> {
    for (let start = end + 1; start < bytes.length; ) {
      let stop = bytes.indexOf(0x0a, start);
      if (stop < 0) stop = bytes.length;
      const tab = bytes.indexOf(0x09, start);
      if (tab < 0 || tab > stop) throw new Error('typeahead.ndjson: a part line without its key');
      yield [bytes.toString('utf8', start, tab), bytes.toString('utf8', tab + 1, stop)];
      start = stop + 1;
    }
  }
  return { entries, parts };
}

/** Our analyzer as flexsearch's encoder, the same on both sides: the analysed tokens (stems, CJK
 * splits, identifier parts), language-neutral, without stopwords (their lists are the longest and
 * they narrow nothing) unless the text is nothing else. */
export function typeaheadEncode(text: string): string[] {
  const tokens = analyze(text, '').map((s) => s.token);
  const kept = tokens.filter((t) => !isStopword(t));
  return kept.length > 0 ? kept : tokens;
}

/** A query's tokens with its unfinished last word as typed (folded, not stemmed, kept even when it
 * spells a stopword), or undefined when they are `typeaheadEncode`'s. A word cut short stems shorter
 * still ("res" -> "re", "cos" -> "co", "des" -> "de"), and a two-letter prefix opens so many texts
 * that intersecting them was the typeahead's p99 (30-41 ms of 2,000 queries at 304,160 entries); a
 * prefix such as "con" or "des" is a stopword of some language, and "and con" intersected the lists
 * of both words (7 ms). As typed, it opens the texts whose words go on from what was typed. The word
 * a text ends with is unfinished; a finished one ("cells", stemmed "cell") finds nothing as typed,
 * and the reader then asks with the stems. `stems`: the text's `typeaheadEncode`, when the caller has it. */
export function typeaheadTypedEncode(text: string, stems: readonly string[] = typeaheadEncode(text)): string[] | undefined {
  const spans = analyze(text, '');
  const last = spans.at(-1);
  if (last === undefined || last.end !== text.length) return undefined;
  // Finished stopwords go even when the text is nothing else: the unfinished word narrows.
  const typed = spans.filter((s) => s.end === text.length || !isStopword(s.token)).map((s) => (s.end === text.length ? s.word : s.token));
  return typed.length === stems.length && typed.every((t, i) => t === stems[i]) ? undefined : typed;
}

/** The flexsearch options both sides must use: prefixes of each analysed token are indexed ("iter" finds "iterator"). */
export const TYPEAHEAD_INDEX_OPTIONS = { tokenize: 'forward', resolution: 9, cache: false } as const;
