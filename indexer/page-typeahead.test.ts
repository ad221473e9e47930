import { describe, expect, it } from 'vitest';
import { slotEntries } from '../shared/index-format/index.js';
import { buildTypeahead, DEFAULT_TYPEAHEAD_OPTIONS, typeaheadShares } from './page-typeahead.js';

/** `n` pages, page d titled "Page d" with `headings` sections. */
const pages = (n: number, headings: number) =>
  Array.from({ length: n }, (_, d) => ({ title: `Page ${d}`, sections: Array.from({ length: headings }, (_, h) => ({ id: `s${h}`, heading: `Heading ${d} ${h}`, start: h })) }));

describe('buildTypeahead: a bounded number of entries', () => {
  it('offers every title and heading (up to maxSections a page) while they fit, whatever the links', () => {
    const docs = pages(5, 25);
    const all = buildTypeahead(docs);
    expect(all.entries).toHaveLength(5 * (1 + DEFAULT_TYPEAHEAD_OPTIONS.maxSections));
    expect(buildTypeahead(docs, [9, 0, 3, 1, 2])).toEqual(all);
  });

  it('past maxEntries, keeps the most linked pages, the last one in part, in document order', () => {
    const docs = pages(10, 3);
    const inbound = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const file = buildTypeahead(docs, inbound, { maxSections: 20, maxEntries: 10 });
    expect(file.entries).toHaveLength(10);
    // Pages 9 and 8 whole (a title and three headings each), page 7 its title and one heading.
    expect(file.entries.flatMap(slotEntries).map((e) => `${e.doc}${e.id ?? ''}`)).toEqual(['7', '7s0', '8', '8s0', '8s1', '8s2', '9', '9s0', '9s1', '9s2']);
    expect([...typeaheadShares(docs, inbound, { maxSections: 20, maxEntries: 10 })]).toEqual([-1, -1, -1, -1, -1, -1, -1, 1, 3, 3]);
  });

  it('counts only the headings it would offer: the first maxSections, blank ones left out', () => {
    const docs = [{ title: 'A', sections: [{ id: 'x', heading: ' ', start: 0 }, ...pages(1, 4)[0]!.sections] }];
    expect([...typeaheadShares(docs, undefined, { maxSections: 3, maxEntries: 100 })]).toEqual([2]);
    expect(buildTypeahead(docs, undefined, { maxSections: 3, maxEntries: 100 }).entries.flatMap(slotEntries).map((e) => e.id ?? '')).toEqual(['', 's0', 's1']);
  });

  it("offers a page's headings, not its definition terms (a reference page's hundreds of functions)", () => {
    const docs = [{ title: 'Functions', sections: [{ id: 'h', heading: 'Overview', start: 0 }, { id: 'len', heading: 'len(s)', start: 9, term: true as const }, { id: 'h2', heading: 'Notes', start: 20 }] }];
    expect(buildTypeahead(docs, undefined, { maxSections: 2, maxEntries: 100 }).entries.flatMap(slotEntries).map((e) => e.id ?? '')).toEqual(['', 'h', 'h2']);
  });

  it('offers no title or heading that shows nothing (zero-width spaces, soft hyphens, fillers)', () => {
    const docs = [{ title: '\u200b\u00ad', sections: [{ id: 'x', heading: '\u200b\u2060', start: 0 }, { id: 'y', heading: 'Pruning', start: 5 }] }];
    expect(buildTypeahead(docs).entries.flatMap(slotEntries).map((e) => e.id ?? '')).toEqual(['y']);
  });

  it('indexes a text once, however many pages it opens: the pages share its slot, in document order', () => {
    const docs = Array.from({ length: 4 }, (_, d) => ({ title: d === 2 ? 'Examples' : `Page ${d}`, sections: [{ id: 'ex', heading: 'Examples', start: 0 }, { id: 'own', heading: `Notes ${d}`, start: 5 }] }));
    const file = buildTypeahead(docs);
    // Four titles of which one is "Examples", four "Notes d", and one slot for every "Examples".
    expect(file.entries).toHaveLength(3 + 4 + 1);
    const shared = file.entries.filter((slot) => Array.isArray(slot));
    expect(shared).toHaveLength(1);
    expect(slotEntries(shared[0]!).map((e) => `${e.doc}${e.id ?? ''}`)).toEqual(['0ex', '1ex', '2', '2ex', '3ex']);
    expect(file.entries.flatMap(slotEntries)).toHaveLength(4 * 3);
  });
});
