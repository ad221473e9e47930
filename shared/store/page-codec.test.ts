import { describe, expect, it } from 'vitest';
import { decodePackedPage, decodePage, encodePage } from './page-codec.js';
import { packLinks } from './links.js';
import type { OutLink, PageRecord } from './types.js';

function page(links: OutLink[]): PageRecord {
  return {
    url: 'http://a/', finalUrl: 'http://a/', state: 'ok', status: 200, fetchedAt: '2026-01-01T00:00:00.000Z', contentType: 'text/html',
    title: 'T', description: 'D', headings: ['H'], text: 'some "quoted" text', language: 'en', links, canonical: 'http://a/c',
    contentHash: 'abc', robots: { index: true, follow: false }, truncated: false, depth: 2,
  };
}

describe('page codec', () => {
  it('gives back the record it was given, links with rel tokens and kinds included', () => {
    const p = page([
      { url: 'http://a/x', text: 'X', rel: [], kind: 'a' },
      { url: 'http://a/y', text: '', rel: ['nofollow', 'ugc'], kind: 'area' },
      { url: 'http://a/z', text: 'Zed "z"', rel: [], kind: 'refresh' },
    ]);
    expect(decodePage(encodePage(p))).toEqual(p);
  });

  it('gives back records with plain links and with none, and writes them smaller than plain JSON', () => {
    const plain = page(Array.from({ length: 50 }, (_, i) => ({ url: `http://a/p${i}`, text: `page ${i}`, rel: [], kind: 'a' as const })));
    expect(decodePage(encodePage(plain))).toEqual(plain);
    expect(encodePage(plain).length).toBeLessThan(JSON.stringify(plain).length * 0.75);
    expect(decodePage(encodePage(page([])))).toEqual(page([]));
  });

  it('reads a record written as plain JSON (before links were packed)', () => {
    const p = page([{ url: 'http://a/x', text: 'X', rel: ['nofollow'], kind: 'a' }]);
    expect(decodePage(JSON.stringify(p))).toEqual(p);
  });

  it('reads a record with its links packed, whichever way it was written', () => {
    const links: OutLink[] = [
      { url: 'http://a/x', text: 'X', rel: [], kind: 'a', block: 3 },
      { url: 'http://a/y', text: '', rel: ['nofollow'], kind: 'area' },
    ];
    const p = page(links);
    const packed = { ...p, links: packLinks(links) };
    expect(decodePackedPage(encodePage(p))).toEqual(packed);
    expect(decodePackedPage(JSON.stringify(p))).toEqual(packed);
    expect(decodePackedPage(encodePage(page([])))).toEqual({ ...page([]), links: packLinks([]) });
  });
});
