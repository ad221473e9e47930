// The pages the search box offers while a word is typed (/api/suggest `pages`): the generation's
// flexsearch index of titles and section headings (indexer/page-typeahead.ts), loaded once with the
// generation, asked with the same encoder it was built with (our analyzer).

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import FlexSearch from 'flexsearch';
import {
  decodeTypeahead,
  LEGACY_TYPEAHEAD_FILE,
  TYPEAHEAD_FILE,
  TYPEAHEAD_INDEX_OPTIONS,
  slotEntries,
  typeaheadEncode as encode,
  typeaheadTypedEncode,
  type IndexGeneration,
  type TypeaheadFile,
  type TypeaheadSlot,
} from '../../shared/index-format/index.js';
import { sectionUrl } from './sections.js';
import { intersectSlots, MAX_INTERSECT_TOKENS, tokenMap } from './typeahead-intersect.js';

/** A page offered by the box. */
export interface PageSuggestion {
  title: string;
  /** The page, or the section (`url#id`) whose heading matched. */
  url: string;
  /** The section's heading, when a section matched rather than the title. */
  heading?: string;
}

export type PageTypeahead = (text: string, limit: number) => PageSuggestion[];

const NONE: PageTypeahead = () => [];

type Parts = { entries: TypeaheadSlot[]; parts: () => Iterable<[string, string]> };

/** A typeahead file's entries, its parts decoded only as they are imported. */
function decoded(bytes: Buffer, legacy: boolean): Parts {
  if (!legacy) return decodeTypeahead(bytes);
  const file = JSON.parse(bytes.toString('utf8')) as TypeaheadFile;
  return { entries: file.entries, parts: () => Object.entries(file.index) };
}

/** The generation's typeahead, read and imported at once; one that offers nothing when the generation
 * has no typeahead file. Blocks for as long as that takes: `openPageTypeahead` does not. */
export function loadPageTypeahead(gen: IndexGeneration): PageTypeahead {
  for (const [name, legacy] of [[TYPEAHEAD_FILE, false], [LEGACY_TYPEAHEAD_FILE, true]] as const) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(gen.dir, name));
    } catch {
      continue;
    }
    return imported(gen, decoded(bytes, legacy), () => {}) as PageTypeahead;
  }
  return NONE;
}

/**
 * The generation's typeahead, read off the event loop and imported a part at a time, `pause` awaited
 * between parts (by default one turn of the event loop, so searches go on while it loads: at 105,935
 * pages the largest part takes 0.2-0.3 s, the whole 2-3 s). One that offers nothing when the
 * generation has no typeahead file or an unreadable one.
 */
export async function openPageTypeahead(gen: IndexGeneration, pause: () => Promise<void> = () => new Promise((r) => setImmediate(r))): Promise<PageTypeahead> {
  for (const [name, legacy] of [[TYPEAHEAD_FILE, false], [LEGACY_TYPEAHEAD_FILE, true]] as const) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(gen.dir, name));
    } catch {
      continue;
    }
    try {
      return await imported(gen, decoded(bytes, legacy), pause);
    } catch {
      return NONE;
    }
  }
  return NONE;
}

/** A typeahead over the parts imported; a promise of it when `pause` returns one. */
function imported(gen: IndexGeneration, file: Parts, pause: () => Promise<void> | void): PageTypeahead | Promise<PageTypeahead> {
  // flexsearch encodes a query with the index's encoder: `typed`, while set, is the query's encoding.
  let typed: string[] | undefined;
  const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: (text: string) => typed ?? encode(text) });
  const counts = new Uint8Array(file.entries.length);
  /** The ids of the texts holding `tokens` (the text's encoding, as typed or stemmed), best first. */
  const search = (text: string, tokens: string[], limit: number): number[] => {
    // Two or more tokens: our walk of flexsearch's lists (typeahead-intersect.ts), its order, faster.
    const distinct = new Set(tokens).size;
    // Asked at each lookup, not once: the parts are imported into it after the reader is made.
    const map = tokenMap(index);
    if (map !== undefined && distinct > 1 && distinct <= MAX_INTERSECT_TOKENS) return intersectSlots(map, tokens, limit, TYPEAHEAD_INDEX_OPTIONS.resolution, counts);
    typed = tokens;
    try {
      return index.search(text, { limit }) as number[];
    } finally {
      typed = undefined;
    }
  };
  const lookup: PageTypeahead = (text, limit) => {
    const stems = encode(text);
    if (stems.length === 0) return [];
    const out: PageSuggestion[] = [];
    const seen = new Set<number>();
    const add = (ids: number[]): boolean => {
      for (const id of ids) {
        const slot = file.entries[id];
        if (slot === undefined) continue;
        // The pages that share a text, in document order.
        for (const e of slotEntries(slot)) {
          if (seen.has(e.doc)) continue;
          seen.add(e.doc);
          const url = gen.docs.url.at(e.doc)!;
          const title = gen.docs.title.at(e.doc) ?? '';
          // The link /api/search gives the section: an id is the page's text, its fragment encoded.
          out.push(e.id === undefined ? { title, url } : { title, url: sectionUrl(url, e.id), heading: e.heading! });
          if (out.length === limit) return true;
        }
      }
      return false;
    };
    // The last word as typed first; its stem fills what that leaves (a finished word, "cells").
    const asTyped = typeaheadTypedEncode(text, stems);
    if (asTyped !== undefined && add(search(text, asTyped, limit * 3))) return out;
    add(search(text, stems, limit * 3));
    return out;
  };
  const parts = file.parts()[Symbol.iterator]();
  const step = (): PageTypeahead | Promise<PageTypeahead> => {
    for (let next = parts.next(); !next.done; next = parts.next()) {
      index.import(next.value[0], next.value[1]);
      const paused = pause();
      if (paused !== undefined) return paused.then(step);
    }
    return lookup;
  };
  return step();
}
