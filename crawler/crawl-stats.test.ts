import { describe, expect, it } from 'vitest';
import { CrawlCounters, emptyStats } from './crawl-stats.js';

describe('the crawl counters', () => {
  it('a resumed crawl recounts per-page counts from the stored facts, keeps the rest, merges the seeds', () => {
    const byHost = { 'http://a': { pages: 50, errors: 5, cut: 7 } };
    const saved = { ...emptyStats(['http://a/']), requests: 40, errors: 9, duplicates: 9, pagesByState: { ok: 99 }, finishedAt: 'x', outOfScope: 3, byHost };
    const c = new CrawlCounters(saved, ['http://b/']);
    c.storedBefore('http://a/1', { state: 'ok', status: 200 });
    c.storedBefore('http://b/1', { state: 'error', status: 500 });
    c.storedBefore('http://a/2', { state: 'duplicate', status: 200 });
    expect([c.pagesStored, c.pagesCommitted, c.pagesThisRun]).toEqual([3, 3, 0]);
    expect(c.stats).toMatchObject({ pagesByState: { ok: 1, error: 1, duplicate: 1 }, pagesByStatus: { 200: 2, 500: 1 }, errors: 1, duplicates: 1, requests: 40, outOfScope: 3, seeds: ['http://a/', 'http://b/'] });
    expect(c.stats.finishedAt).toBeUndefined();
    // Per host: pages and errors recounted from the facts, cuts (judged once per crawl) kept.
    expect(c.stats.byHost).toEqual({ 'http://a': { pages: 2, errors: 0, cut: 7 }, 'http://b': { pages: 1, errors: 1, cut: 0 } });
  });
  it('a page is counted before its write and committed after; a re-stored page moves from its old state', () => {
    const c = new CrawlCounters(undefined, ['http://a/']);
    c.storedBefore('http://a/', { state: 'ok', status: 200 });
    c.request(100);
    c.stored({ url: 'http://a/', state: 'error', status: 503 }, { state: 'ok', status: 200 });
    c.stored({ url: 'http://a:81/x', state: 'ok', status: 200 }, undefined);
    expect([c.pagesStored, c.pagesCommitted]).toEqual([2, 1]);
    c.committed(false);
    c.committed(true);
    expect([c.pagesStored, c.pagesCommitted, c.pagesThisRun]).toEqual([2, 2, 2]);
    expect(c.stats).toMatchObject({ pagesByState: { error: 1, ok: 1 }, pagesByStatus: { 503: 1, 200: 1 }, errors: 1, bytes: 100 });
    expect(c.thisRun).toMatchObject({ pages: 2, pagesByState: { error: 1, ok: 1 } });
    expect(c.stats.byHost).toEqual({ 'http://a': { pages: 1, errors: 1, cut: 0 }, 'http://a:81': { pages: 1, errors: 0, cut: 0 } });
    c.finish(4);
    expect([c.thisRun.requests, c.stats.hosts, typeof c.stats.finishedAt]).toEqual([1, 4, 'string']);
  });
  it('blocked URLs by rule, cuts by reason with the first example, out of scope', () => {
    const c = new CrawlCounters(undefined, []);
    c.blocked('http://a line 2: disallow /x');
    c.blocked('http://b robots.txt unreachable', 3);
    c.cut('http://a/1', { ok: false, reason: 'calendar', detail: '' });
    c.cut('http://a/2', { ok: false, reason: 'calendar', detail: '' });
    c.outOfScope();
    expect([c.blockedTotal, c.stats.trapsCut, c.stats.trapExamples, c.stats.outOfScope]).toEqual([4, { calendar: 2 }, { calendar: 'http://a/1' }, 1]);
    expect(c.stats.byHost).toEqual({ 'http://a': { pages: 0, errors: 0, cut: 2 } });
  });
  it('keeps a URL cut for its length as a short example: its first 200 characters and its length', () => {
    const c = new CrawlCounters(undefined, []);
    const url = `http://a/x?${'q'.repeat(200_000)}`;
    c.cut(url, { ok: false, reason: 'url-too-long', detail: '' });
    expect(c.stats.trapExamples?.['url-too-long']).toBe(`${url.slice(0, 200)}… (200011 characters)`);
  });
});
