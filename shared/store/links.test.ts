import { describe, expect, it } from 'vitest';
import { linkEdgesOf } from './links.js';
import type { OutLink, PageRecord } from './types.js';

function page(links: OutLink[], state: PageRecord['state'] = 'ok'): PageRecord {
  return {
    url: 'http://a/', finalUrl: 'http://a/', state, status: 200, fetchedAt: '2026-01-01T00:00:00.000Z', contentType: 'text/html',
    title: '', description: '', headings: [], text: '', language: '', links, contentHash: '',
    robots: { index: true, follow: true }, truncated: false, depth: 0,
  };
}

describe('linkEdgesOf', () => {
  it('gives one edge per target with the first non-empty anchor text, followed if any link to it is', () => {
    const edges = linkEdgesOf(page([
      { url: 'http://a/x', text: '', rel: [], kind: 'a' },
      { url: 'http://a/x', text: 'Ex', rel: ['nofollow'], kind: 'a' },
      { url: 'http://a/x', text: 'Later', rel: [], kind: 'a' },
      { url: 'http://a/y', text: 'Why', rel: ['nofollow'], kind: 'a' },
      { url: 'http://a/y', text: '', rel: ['nofollow', 'ugc'], kind: 'area' },
    ]));
    expect(edges).toEqual([
      { from: 'http://a/', to: 'http://a/x', text: 'Ex', nofollow: false },
      { from: 'http://a/', to: 'http://a/y', text: 'Why', nofollow: true },
    ]);
  });

  it('gives none for a page that was not fetched as ok (a duplicate links through its original)', () => {
    const links: OutLink[] = [{ url: 'http://a/x', text: 'Ex', rel: [], kind: 'a' }];
    expect(linkEdgesOf(page(links, 'duplicate'))).toEqual([]);
    expect(linkEdgesOf(page(links, 'redirect'))).toEqual([]);
    expect(linkEdgesOf(page(links))).toHaveLength(1);
  });
});
