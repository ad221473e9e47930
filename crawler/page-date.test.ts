import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeclaredDate, parseDeclaredDate } from './page-date.js';
import { extractHtml } from './extract.js';

const iso = (text: string) => {
  const at = parseDeclaredDate(text);
  return at === undefined ? undefined : new Date(at).toISOString();
};

describe('parseDeclaredDate', () => {
  it('reads the ISO 8601 forms publishers write, a time without a zone as UTC', () => {
    expect(iso('2024-03-05')).toBe('2024-03-05T00:00:00.000Z');
    expect(iso(' 2024-03-05T10:20:30Z ')).toBe('2024-03-05T10:20:30.000Z');
    expect(iso('2024-03-05T10:20:30.123456+02:00')).toBe('2024-03-05T08:20:30.000Z');
    expect(iso('2024-03-05 10:20-0500')).toBe('2024-03-05T15:20:00.000Z');
    expect(iso('2024-03-05T10:20')).toBe('2024-03-05T10:20:00.000Z');
    expect(iso('2024/03/05')).toBe('2024-03-05T00:00:00.000Z');
  });

  it('reads a PDF date with its zone', () => {
    expect(iso("D:20240305093000+01'00'")).toBe('2024-03-05T08:30:00.000Z');
    expect(iso('D:20240305')).toBe('2024-03-05T00:00:00.000Z');
    expect(iso('D:20240305093000Z')).toBe('2024-03-05T09:30:00.000Z');
  });

  it('refuses what names no real day, a year out of range, a date without a day and free text', () => {
    for (const text of ['2023-02-30', '2024-13-01', '2024-00-10', '0000-00-00', '9999-12-31', '1850-01-01', '2024-03', '2024', 'March 5, 2024', '5/3/2024', '', 'yesterday', '2024-03-05T25:00', '2024-03-05T10:61', '2024-03-05T10:00+15:00', `2024-03-05T${'1'.repeat(80)}`]) {
      expect(parseDeclaredDate(text), text).toBeUndefined();
    }
  });

  it('gives back any day it is given, at any time and zone (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-02T00:00:00Z'), max: new Date('2999-12-30T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: -14 * 60, max: 14 * 60 }), (date, offsetMinutes) => {
        const at = Math.floor(date.getTime() / 1000) * 1000;
        const local = new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 19);
        const sign = offsetMinutes < 0 ? '-' : '+';
        const zone = `${sign}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0')}:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}`;
        expect(parseDeclaredDate(`${local}${zone}`)).toBe(at);
      }),
    );
  });
});

describe('DeclaredDate', () => {
  it('keeps the best source whatever the order, and skips a source whose date does not parse', () => {
    const d = new DeclaredDate();
    d.offer('name:dcterms.modified', '2025-01-01');
    d.offer('property:article:published_time', 'soon');
    d.offer('name:date', '2024-06-01');
    expect(d.iso).toBe('2024-06-01T00:00:00.000Z');
    d.offer('property:article:published_time', '2023-02-01T09:00:00Z');
    d.offer('itemprop:datepublished', '2022-01-01');
    expect(d.iso).toBe('2023-02-01T09:00:00.000Z');
    const none = new DeclaredDate();
    none.offer('name:viewport', '2024-01-01');
    expect(none.iso).toBeUndefined();
  });
});

describe('a page\'s declared date in extraction', () => {
  const dateOf = (head: string, body = '<p>Text.</p>') => extractHtml(`<html><head>${head}</head><body>${body}</body></html>`, 'http://x.test/a').date;

  it('reads Open Graph, schema.org, Dublin Core and HTML5 time, the publication date first', () => {
    expect(dateOf('<meta property="article:modified_time" content="2025-02-02"><meta property="article:published_time" content="2024-01-15T08:00:00+01:00">')).toBe('2024-01-15T07:00:00.000Z');
    expect(dateOf('<meta name="DC.Date" content="2020-05-06">')).toBe('2020-05-06T00:00:00.000Z');
    expect(dateOf('<meta name=" dcterms.modified " content="2021-07-08">')).toBe('2021-07-08T00:00:00.000Z');
    expect(dateOf('', '<article><time itemprop="datePublished" datetime="2019-11-12">12 Nov</time><p>Text.</p></article>')).toBe('2019-11-12T00:00:00.000Z');
    expect(dateOf('', '<time pubdate datetime="2018-10-09T10:00Z">then</time>')).toBe('2018-10-09T10:00:00.000Z');
    expect(dateOf('<meta itemprop="dateModified" content="2017-01-01"><meta name="date" content="2016-01-01">')).toBe('2016-01-01T00:00:00.000Z');
  });

  it('reads JSON-LD: the page\'s own entities before what they hold, a publication date first', () => {
    const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
    expect(dateOf(ld({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'x', dateModified: '2024-05-01', datePublished: '2024-04-01T08:00:00Z' }))).toBe('2024-04-01T08:00:00.000Z');
    // A comment's date sits deeper than the article's, in an @graph as Yoast writes it.
    const graph = { '@graph': [{ '@type': 'WebPage', comment: [{ '@type': 'Comment', datePublished: '2025-01-01' }] }, { '@type': 'Article', datePublished: '2023-06-07' }] };
    expect(dateOf('', ld(graph))).toBe('2023-06-07T00:00:00.000Z');
    expect(dateOf(ld([{ '@type': 'BlogPosting', dateModified: '2022-02-02' }]))).toBe('2022-02-02T00:00:00.000Z');
    // The article's modification date, not its comment's publication date, ranked better as that is.
    expect(dateOf(ld({ '@type': 'Article', dateModified: '2024-05-01', comment: [{ '@type': 'Comment', datePublished: '2025-01-01' }] }))).toBe('2024-05-01T00:00:00.000Z');
    // An entity without a date leaves its contents to date the page.
    expect(dateOf(ld({ '@type': 'WebPage', mainEntity: { '@type': 'Article', datePublished: '2021-03-03' } }))).toBe('2021-03-03T00:00:00.000Z');
    // Open Graph's publication date ranks before JSON-LD's.
    expect(dateOf(`<meta property="article:published_time" content="2021-01-01">${ld({ datePublished: '2020-01-01' })}`)).toBe('2021-01-01T00:00:00.000Z');
    // " TYPE " as written; a script of another type is a script.
    expect(dateOf('<script type=" Application/LD+JSON ">{"datePublished": "2019-09-09"}</script>')).toBe('2019-09-09T00:00:00.000Z');
    expect(dateOf('<script type="text/javascript">var x = {"datePublished": "2019-09-09"};</script>')).toBeUndefined();
  });

  it('reads no date from JSON-LD that is no JSON, is in a template, or is past the page\'s allowance', () => {
    expect(dateOf('<script type="application/ld+json">{"datePublished": "2019-09-09",</script>')).toBeUndefined();
    for (const json of ['null', '5', '"2019-09-09"', '[]', '[null, 1, "x"]']) expect(dateOf(`<script type="application/ld+json">${json}</script>`), json).toBeUndefined();
    expect(dateOf('', '<template><script type="application/ld+json">{"datePublished": "2019-09-09"}</script></template>')).toBeUndefined();
    const big = `<script type="application/ld+json">{"filler": "${'x'.repeat(300 * 1024)}", "datePublished": "2019-09-09"}</script>`;
    expect(dateOf(big)).toBeUndefined();
    // Nor from a block after the allowance is spent.
    expect(dateOf(`${big}<script type="application/ld+json">{"datePublished": "2018-08-08"}</script>`)).toBeUndefined();
  });

  it('has none without metadata: not from a bare <time>, the text, a template or a date that does not parse', () => {
    expect(dateOf('<title>Posted 2024-03-05</title>', '<p>Posted 2024-03-05</p><time datetime="2024-03-05">an event</time>')).toBeUndefined();
    expect(dateOf('<meta name="date" content="last Tuesday">')).toBeUndefined();
    expect(dateOf('', '<template><meta property="article:published_time" content="2024-03-05"><time pubdate datetime="2024-03-05"></time></template>')).toBeUndefined();
  });
});
