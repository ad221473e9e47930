// The pure helpers behind the pages: highlighting, pagination, formatting, parameters, loosened queries.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ago, bytes, count, displayUrl, safeHref, score, searchHref } from './format.js';
import { segments } from './highlight.js';
import { HttpError } from './http-error.js';
import { relaxations } from './no-results.js';
import { pageLinks } from './pagination.js';
import { intParam, stringParam } from './params.js';
import { parseQuery } from './query/index.js';
import { resultView } from './result-view.js';
import type { SearchHit } from './search/index.js';

describe('segments (snippet highlighting)', () => {
  it('marks the ranges and keeps the text between them', () => {
    expect(segments('the web crawler', [[4, 7], [8, 15]])).toEqual([
      { text: 'the ', mark: false },
      { text: 'web', mark: true },
      { text: ' ', mark: false },
      { text: 'crawler', mark: true },
    ]);
  });

  it('survives unsorted, overlapping, empty and out-of-range ranges', () => {
    expect(segments('abcdef', [[3, 5], [0, 2], [1, 4], [9, 12], [2, 2], [-5, 0]])).toEqual([
      { text: 'abcde', mark: true },
      { text: 'f', mark: false },
    ]);
  });

  it('property: the segments always spell the snippet exactly', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.array(fc.tuple(fc.integer({ min: -5, max: 70 }), fc.integer({ min: -5, max: 70 })), { maxLength: 8 }), (text, ranges) => {
        expect(segments(text, ranges).map((s) => s.text).join('')).toBe(text);
      }),
    );
  });
});

describe('pageLinks', () => {
  it('shows a window of five around the current page, with previous and next', () => {
    expect(pageLinks(1, 10)).toEqual({ next: 2, numbers: [1, 2, 3, 4, 5] });
    expect(pageLinks(6, 10)).toEqual({ previous: 5, next: 7, numbers: [4, 5, 6, 7, 8] });
    expect(pageLinks(10, 10)).toEqual({ previous: 9, numbers: [6, 7, 8, 9, 10] });
    expect(pageLinks(2, 3)).toEqual({ previous: 1, next: 3, numbers: [1, 2, 3] });
  });

  it('one page or none needs no navigation', () => {
    expect(pageLinks(1, 1)).toEqual({ numbers: [1] });
    expect(pageLinks(1, 0)).toEqual({ numbers: [] });
  });
});

describe('format', () => {
  it('counts, scores, bytes and ages read naturally', () => {
    expect(count(12345)).toBe('12,345');
    expect(score(0.012345)).toBe('0.0123');
    expect(score(123.456)).toBe('123.5');
    expect(score(0)).toBe('0');
    expect(bytes(512)).toBe('512 B');
    expect(bytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    const now = Date.parse('2026-01-02T12:00:00Z');
    expect(ago('2026-01-02T09:00:00Z', now)).toBe('3 hours ago');
    expect(ago('2026-01-01T12:00:00Z', now)).toBe('1 day ago');
    expect(ago('not a date', now)).toBe('unknown');
  });

  it('only http(s) URLs become links; display URLs are decoded and cut', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<script>')).toBeUndefined();
    expect(safeHref('http://a.test/x')).toBe('http://a.test/x');
    expect(displayUrl('http://a.test/%D0%BF%D0%BE%D0%B8%D1%81%D0%BA')).toBe('http://a.test/поиск');
    expect(displayUrl('http://a.test/%E0%A4%A')).toBe('http://a.test/%E0%A4%A');
    // What would reorder or hide part of the URL stays escaped, as address bars keep it.
    expect(displayUrl('http://a.test/%E2%80%AEfdp.exe')).toBe('http://a.test/%E2%80%AEfdp.exe');
    expect(displayUrl('http://a.test/a%E2%80%8Bb%20c%00')).toBe('http://a.test/a%E2%80%8Bb%20c%00');
    expect(displayUrl('http://a.test/%D0%BF%E2%81%A6x')).toBe('http://a.test/п%E2%81%A6x');
    expect(Array.from(displayUrl('http://a.test/' + 'x'.repeat(200), 50))).toHaveLength(50);
    expect(searchHref('a&b "c"', 2)).toBe('/search?q=a%26b%20%22c%22&page=2');
  });
});

describe('params', () => {
  it('takes the first string of a repeated parameter', () => {
    expect(stringParam(['a', 'b'])).toBe('a');
    expect(stringParam(undefined)).toBe('');
    expect(stringParam({ nested: 'x' })).toBe('');
  });

  it('whole numbers in range, or a 400 that says the range', () => {
    expect(intParam(undefined, 'page', 1, 1, 100)).toBe(1);
    expect(intParam('7', 'page', 1, 1, 100)).toBe(7);
    for (const bad of ['0', '101', '1.5', '-2', 'x', '1e2', '99999999999']) {
      expect(() => intParam(bad, 'page', 1, 1, 100)).toThrow(HttpError);
    }
  });
});

describe('relaxations (no-results suggestions)', () => {
  it('drops filters, quotes, fields and exclusions one at a time, and offers any-word', () => {
    const r = relaxations(parseQuery('"web crawler" intitle:robots -spider site:a.test'));
    expect(r.map((x) => x.q)).toEqual([
      '"web crawler" intitle:robots -spider',
      'web crawler intitle:robots -spider site:a.test',
      '"web crawler" robots -spider site:a.test',
      '"web crawler" intitle:robots site:a.test',
      '"web crawler" OR intitle:robots -spider site:a.test',
    ]);
  });

  it('a single plain word has nothing to loosen', () => {
    expect(relaxations(parseQuery('crawler'))).toEqual([]);
  });
});

describe('resultView: a title that shows nothing', () => {
  it('is shown as the address, like an empty one, so the result has a link to read and click', () => {
    const hit = { url: 'http://site.test/page', title: '\u200b\u200b \u00ad\u3164', snippet: '', highlights: [], language: 'en', score: 1 } as unknown as SearchHit;
    expect(resultView(hit, 1).title).toBe('http://site.test/page');
    expect(resultView({ ...hit, title: '' }, 1).title).toBe('http://site.test/page');
    expect(resultView({ ...hit, title: 'Pruning' }, 1).title).toBe('Pruning');
  });
});
