import { describe, expect, it } from 'vitest';
import type { PageRecord } from './types.js';
import { followedUrls, pageFact } from './page-facts.js';

const page = (extra: Partial<PageRecord>): PageRecord =>
  ({ url: 'http://a/', finalUrl: 'http://a/', state: 'ok', status: 200, text: 'words', contentHash: 'h1', depth: 2, robots: { index: true, follow: true }, links: [], ...extra }) as PageRecord;
const link = (url: string, rel: string[] = []) => ({ url, text: '', rel, kind: 'a' as const });

describe('page facts', () => {
  it('state, status and depth; the fingerprint only of an ok page with text', () => {
    expect(pageFact(page({}))).toEqual({ state: 'ok', status: 200, depth: 2, hash: 'h1' });
    expect(pageFact(page({ text: ' \u00a0\n' }))).toEqual({ state: 'ok', status: 200, depth: 2 });
    expect(pageFact(page({ state: 'duplicate', duplicateOf: 'http://b/' }))).toEqual({ state: 'duplicate', status: 200, depth: 2 });
  });
  it('the URLs a page led the crawl to judge: followed links and canonical, a redirect target, none for nofollow', () => {
    const p = page({ links: [link('http://a/x'), link('http://a/n', ['nofollow'])], canonical: 'http://a/c' });
    expect(followedUrls(p)).toEqual(['http://a/x', 'http://a/c']);
    expect(followedUrls(page({ state: 'redirect', finalUrl: 'http://a/t' }))).toEqual(['http://a/t']);
    expect(followedUrls({ ...p, robots: { index: true, follow: false } })).toEqual([]);
  });
});
