import { describe, expect, it } from 'vitest';
import { MAX_TEXTS_PER_TARGET, linkEdgesOf } from './links.js';
import type { OutLink, PageRecord } from './types.js';

function page(links: OutLink[], state: PageRecord['state'] = 'ok'): PageRecord {
  return {
    url: 'http://a/', finalUrl: 'http://a/', state, status: 200, fetchedAt: '2026-01-01T00:00:00.000Z', contentType: 'text/html',
    title: '', description: '', headings: [], text: '', language: '', links, contentHash: '',
    robots: { index: true, follow: true }, truncated: false, depth: 0,
  };
}

describe('linkEdgesOf', () => {
  it('gives one edge per target and distinct anchor text, followed if any link to it is', () => {
    const edges = linkEdgesOf(page([
      { url: 'http://a/x', text: '', rel: [], kind: 'a' },
      { url: 'http://a/x', text: 'Ex', rel: ['nofollow'], kind: 'a' },
      { url: 'http://a/x', text: 'Later', rel: [], kind: 'a' },
      { url: 'http://a/y', text: 'Why', rel: ['nofollow'], kind: 'a' },
      { url: 'http://a/y', text: '', rel: ['nofollow', 'ugc'], kind: 'area' },
    ]));
    expect(edges).toEqual([
      { from: 'http://a/', to: 'http://a/x', text: 'Ex', nofollow: false },
      { from: 'http://a/', to: 'http://a/x', text: 'Later', nofollow: false },
      { from: 'http://a/', to: 'http://a/y', text: 'Why', nofollow: true },
    ]);
  });

  it("gives a reference page each name its parts are linked with, a template link's first text only, the content's over the template's", () => {
    const link = (url: string, text: string): OutLink => ({ url, text, rel: [], kind: 'a' });
    const fns = 'http://a/lang_corefunc.html';
    const links = [
      link('http://a/menu', 'Docs'), link('http://a/menu', 'Documentation'),
      link(fns, 'Functions'),
      link(fns, 'coalesce()'), link(fns, 'like()'), link(fns, 'coalesce()'),
      ...Array.from({ length: MAX_TEXTS_PER_TARGET + 4 }, (_, i) => link(fns, `f${i}()`)),
    ];
    // The first three links are the menu's: template.
    const edges = linkEdgesOf(page(links), (_, i) => i < 3);
    expect(edges.filter((e) => e.to === 'http://a/menu')).toEqual([{ from: 'http://a/', to: 'http://a/menu', text: 'Docs', nofollow: false, template: true }]);
    const texts = edges.filter((e) => e.to === fns).map((e) => [e.text, e.template]);
    expect(texts.slice(0, 3)).toEqual([['coalesce()', false], ['like()', false], ['f0()', false]]);
    expect(texts).toHaveLength(MAX_TEXTS_PER_TARGET);
  });

  it('gives none for a page that was not fetched as ok (a duplicate links through its original)', () => {
    const links: OutLink[] = [{ url: 'http://a/x', text: 'Ex', rel: [], kind: 'a' }];
    expect(linkEdgesOf(page(links, 'duplicate'))).toEqual([]);
    expect(linkEdgesOf(page(links, 'redirect'))).toEqual([]);
    expect(linkEdgesOf(page(links))).toHaveLength(1);
  });
});
