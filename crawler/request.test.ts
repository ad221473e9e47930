import { describe, expect, it } from 'vitest';
import type { PageRecord } from '../shared/store/index.js';
import { EXTRACTION_VERSION } from './extraction-version.js';
import { pageRequestHeaders, sitemapRequestHeaders } from './request.js';

const who = { userAgent: 'Gleaner/1 (+https://example.org/bot)' };
const stored = (extra: Partial<PageRecord>) => ({ state: 'ok', etag: '"v1"', lastModified: 'Sun, 22 Nov 2026 10:00:00 GMT', extractedBy: EXTRACTION_VERSION, ...extra }) as PageRecord;

describe('request headers', () => {
  it('a first fetch says who we are, what we take and where the link was found; From only when given', () => {
    expect(pageRequestHeaders(who, { referrer: 'http://a/' }, undefined)).toEqual({
      'user-agent': who.userAgent,
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
      referer: 'http://a/',
    });
    expect(pageRequestHeaders({ ...who, from: 'me@example.org' }, {}, undefined).from).toBe('me@example.org');
  });
  it('a recrawl of a good page is a conditional GET with its validators; of an error page, not', () => {
    const h = pageRequestHeaders(who, {}, stored({}));
    expect([h['if-none-match'], h['if-modified-since']]).toEqual(['"v1"', 'Sun, 22 Nov 2026 10:00:00 GMT']);
    const e = pageRequestHeaders(who, {}, stored({ state: 'error' }));
    expect([e['if-none-match'], e['if-modified-since']]).toEqual([undefined, undefined]);
  });
  it('asks a page read by other extraction rules without validators, so it is read again', () => {
    for (const extractedBy of [undefined, EXTRACTION_VERSION - 1]) {
      const h = pageRequestHeaders(who, {}, stored({ extractedBy }));
      expect([h['if-none-match'], h['if-modified-since']]).toEqual([undefined, undefined]);
    }
  });
  it('sends back no validator a server could not take or would ignore', () => {
    // A 60 KB ETag made the server refuse the recrawl (431); a Last-Modified that is no HTTP-date is ignored by it.
    const h = pageRequestHeaders(who, {}, stored({ etag: `"${'e'.repeat(60_000)}"`, lastModified: 'garbage date 99' }));
    expect([h['if-none-match'], h['if-modified-since']]).toEqual([undefined, undefined]);
    expect(pageRequestHeaders(who, {}, stored({ etag: `"${'e'.repeat(1000)}"` }))['if-none-match']).toHaveLength(1002);
  });
  it('a sitemap request takes XML and text', () => {
    expect(sitemapRequestHeaders({ userAgent: 'UA' })).toEqual({ 'user-agent': 'UA', accept: 'application/xml,text/xml,text/plain;q=0.5', 'accept-encoding': 'gzip' });
  });
  it('a sitemap request carries From as a page request does (--from is for every request to the site)', () => {
    expect(sitemapRequestHeaders({ ...who, from: 'me@example.org' }).from).toBe('me@example.org');
  });
});
