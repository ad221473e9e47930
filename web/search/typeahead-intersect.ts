// Every-word lookup over the page typeahead's flexsearch index, for a query of two or more tokens.
//
// flexsearch keeps, per token (every prefix of every analysed word, `tokenize: 'forward'`), its ids in
// `resolution` slots, best first. Its intersection walks the slots in order, slot by slot and token by
// token, counting each id in a dictionary object, and an id is offered when its count reaches the
// number of tokens. On the Rust docs "core" opens 36,037 of 52,587 texts, so "vceqq cor" counted
// 36,000 ids in that dictionary: p99 16.9 ms over 538 two-word prefixes typed from the Rust docs'
// titles. This is the same walk in the same order with the counts in a byte array: the same ids in the
// same order for every one of those queries, p99 0.12 ms (DESIGN.md, "The typeahead's intersection").
// It reads flexsearch's token map, which flexsearch does not document: `tokenMap` answers undefined
// when the index has none as this expects, and the reader then asks flexsearch.

/** The most distinct tokens `intersectSlots` counts: the counts are bytes. A query of more is asked of
 * flexsearch (no title has that many words; a pasted text may). */
export const MAX_INTERSECT_TOKENS = 255;

/** A token's ids by slot (slot 0 the best), as flexsearch keeps them. */
export type SlotLists = ReadonlyArray<readonly number[] | null | undefined>;

/** flexsearch's token map of `index`, or undefined when it does not hold what this walk expects. */
export function tokenMap(index: object): ReadonlyMap<string, SlotLists> | undefined {
  const map = (index as { map?: unknown }).map;
  return map instanceof Map ? (map as ReadonlyMap<string, SlotLists>) : undefined;
}

/**
 * The ids holding every token, in flexsearch's order, at most `limit`. `counts` has a byte for each id
 * and is all zero before and after (one array reused: filling it is cheaper than allocating it).
 */
export function intersectSlots(map: ReadonlyMap<string, SlotLists>, tokens: readonly string[], limit: number, resolution: number, counts: Uint8Array): number[] {
  const lists: SlotLists[] = [];
  for (const token of new Set(tokens)) {
    const slots = map.get(token);
    if (slots === undefined || slots.length === 0) return [];
    lists.push(slots);
  }
  const last = lists.length - 1;
  const out: number[] = [];
  walk: for (let slot = 0; slot < resolution; slot++) {
    for (const slots of lists) {
      const ids = slots[slot];
      if (!ids) continue;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        // The id's last token: offered in the order flexsearch offers it.
        if (counts[id]!++ === last) {
          out.push(id);
          if (out.length === limit) break walk;
        }
      }
    }
  }
  counts.fill(0);
  return out;
}
