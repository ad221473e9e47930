import fc from 'fast-check';
import FlexSearch from 'flexsearch';
import { describe, expect, it } from 'vitest';
import { TYPEAHEAD_INDEX_OPTIONS, typeaheadEncode } from '../../shared/index-format/index.js';
import { intersectSlots, tokenMap } from './typeahead-intersect.js';

const words = ['core', 'cor', 'corner', 'iter', 'iterator', 'map', 'mapping', 'vec', 'vector', 'trait', 'impl', 'string', 'str', 'alloc', 'arc'];

describe('the typeahead intersection over flexsearch lists', () => {
  it('offers the ids flexsearch offers, in its order, for texts and queries of many words', () => {
    const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 }).map((w) => w.join(' '));
    const query = fc.array(fc.constantFrom(...words.map((w) => w.slice(0, 3)), ...words), { minLength: 2, maxLength: 4 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 60 }), fc.array(query, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 30 }), (texts, queries, limit) => {
        const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
        texts.forEach((t, id) => index.add(id, t));
        // Read as the reader reads them: exported, then imported into an index made before.
        const imported = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
        index.export((key: string | number, data: unknown) => {
          if (data !== undefined && data !== null) imported.import(String(key), typeof data === 'string' ? data : JSON.stringify(data));
        });
        const map = tokenMap(imported);
        // flexsearch's lists are where this reads them: an upgrade that moves them fails here.
        expect(map).toBeInstanceOf(Map);
        const counts = new Uint8Array(texts.length);
        for (const q of queries) {
          expect(intersectSlots(map!, typeaheadEncode(q), limit, TYPEAHEAD_INDEX_OPTIONS.resolution, counts)).toEqual(index.search(q, { limit }));
          expect(counts.every((c) => c === 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('offers nothing when a token opens no list, and no map when flexsearch keeps none', () => {
    const index = new FlexSearch.Index({ ...TYPEAHEAD_INDEX_OPTIONS, encode: typeaheadEncode });
    index.add(0, 'core iterator');
    index.add(1, 'core map');
    const counts = new Uint8Array(2);
    expect(intersectSlots(tokenMap(index)!, ['core', 'zzz'], 5, 9, counts)).toEqual([]);
    expect(intersectSlots(tokenMap(index)!, ['cor', 'ma'], 5, 9, counts)).toEqual([1]);
    expect(tokenMap({})).toBeUndefined();
    expect(tokenMap({ map: {} })).toBeUndefined();
  });
});
