// The site:/lang: filter gives each document the same verdict whether the index's columns are coded
// (as doc-strings.bin reads them: a value per distinct string, a code per document) or any other column.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodedStrings, type TextColumn } from '../../shared/index-format/index.js';
import { parseQuery } from '../query/index.js';
import { documentFilter } from './match-rules.js';

const HOSTS = ['docs.test', 'www.docs.test', 'other.test', 'mydocs.test', '127.0.0.1'];
const PORTS = ['', '8081', '8082'];
const LANGUAGES = ['en', 'fr', 'de', ''];

/** `values` coded as doc-strings.bin reads them back. */
function coded(values: readonly string[]): CodedStrings {
  const distinct = [...new Set(values)];
  return new CodedStrings(distinct, Uint32Array.from(values, (v) => distinct.indexOf(v)));
}

/** `values` as a column that is not coded. */
const plain = (values: readonly string[]): TextColumn => ({ length: values.length, at: (i) => values[i] });

describe('the site: and lang: filter', () => {
  it('keeps the same documents from coded columns as from any others, whatever the filters', () => {
    const page = fc.record({ host: fc.constantFrom(...HOSTS), port: fc.constantFrom(...PORTS), language: fc.constantFrom(...LANGUAGES) });
    const filter = fc.oneof(
      fc.constantFrom(...HOSTS, 'docs.test:8081', '127.0.0.1:8082').map((h) => `site:${h}`),
      fc.constantFrom(...HOSTS).map((h) => `-site:${h}`),
      fc.constantFrom('en', 'fr', 'EN').map((l) => `lang:${l}`),
    );
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 30 }), fc.array(filter, { minLength: 1, maxLength: 3 }), (pages, filters) => {
        const query = parseQuery(`word ${filters.join(' ')}`);
        const hosts = pages.map((p) => p.host);
        const sites = pages.map((p) => `${p.host}:${p.port}`);
        const languages = pages.map((p) => p.language);
        const dates = new Float64Array(pages.length);
        const fromCoded = documentFilter(query, coded(hosts), coded(languages), coded(sites), dates);
        const fromPlain = documentFilter(query, plain(hosts), plain(languages), plain(sites), dates);
        expect(fromCoded).toBeDefined();
        expect(pages.map((_, d) => fromCoded!(d))).toEqual(pages.map((_, d) => fromPlain!(d)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a host and its subdomains, the port asked for, and the language asked for', () => {
    const pages = [
      { host: 'docs.test', port: '8081', language: 'en', date: Date.UTC(2024, 2, 5, 10) },
      { host: 'www.docs.test', port: '', language: 'fr', date: Date.UTC(2023, 11, 31, 23, 59) },
      { host: 'mydocs.test', port: '8081', language: 'en', date: NaN },
      { host: 'other.test', port: '8082', language: '', date: Date.UTC(2024, 0, 1) },
    ];
    const kept = (q: string): number[] => {
      const accepts = documentFilter(parseQuery(q), coded(pages.map((p) => p.host)), coded(pages.map((p) => p.language)), coded(pages.map((p) => `${p.host}:${p.port}`)), Float64Array.from(pages, (p) => p.date));
      return pages.flatMap((_, d) => (accepts!(d) ? [d] : []));
    };
    expect(kept('word site:docs.test')).toEqual([0, 1]);
    expect(kept('word site:docs.test:8081')).toEqual([0]);
    expect(kept('word -site:docs.test')).toEqual([2, 3]);
    expect(kept('word lang:EN')).toEqual([0, 2]);
    expect(kept('word site:docs.test lang:fr')).toEqual([1]);
    expect(documentFilter(parseQuery('word'), coded([]), coded([]), coded([]), new Float64Array(0))).toBeUndefined();
  });

  it('keeps the pages dated in [after, before), never one without a date, with the place filters too', () => {
    const pages = [
      { host: 'docs.test', language: 'en', date: Date.UTC(2024, 2, 5, 10) },
      { host: 'docs.test', language: 'en', date: Date.UTC(2023, 11, 31, 23, 59) },
      { host: 'docs.test', language: 'en', date: NaN },
      { host: 'other.test', language: 'en', date: Date.UTC(2024, 0, 1) },
      { host: 'docs.test', language: 'en', date: Date.UTC(2024, 2, 6) },
    ];
    const kept = (q: string): number[] => {
      const hosts = coded(pages.map((p) => p.host));
      const accepts = documentFilter(parseQuery(q), hosts, coded(pages.map((p) => p.language)), hosts, Float64Array.from(pages, (p) => p.date));
      return pages.flatMap((_, d) => (accepts!(d) ? [d] : []));
    };
    expect(kept('word after:2024')).toEqual([0, 3, 4]);
    expect(kept('word before:2024')).toEqual([1]);
    expect(kept('word after:2024 before:2025')).toEqual([0, 3, 4]);
    expect(kept('word after:2024-03-05 before:2024-03-06')).toEqual([0]);
    expect(kept('word after:2024-03 site:docs.test')).toEqual([0, 4]);
    // Every bound applies: the later after:, the earlier before:.
    expect(kept('word after:2020 after:2024-03-06')).toEqual([4]);
    expect(kept('word before:2030 before:2024-01-01')).toEqual([1]);
    expect(kept('word after:2025 before:2024')).toEqual([]);
  });
});
