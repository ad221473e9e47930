import { describe, expect, it } from 'vitest';
import { Admission } from './admission.js';
import { CrawlCounters } from './crawl-stats.js';
import { TrapGuard } from './traps.js';

const make = () => {
  const counts = new CrawlCounters(undefined, []);
  const admission = new Admission((url) => url.startsWith('http://a.test/'), new TrapGuard({ maxDepth: 3, maxShapeChain: 1 }), counts, () => {});
  return { counts, admission };
};

describe('admission to the frontier', () => {
  it('judges each URL once: an out-of-scope or cut URL seen again is not counted again', () => {
    const { counts, admission } = make();
    expect(admission.admissible('http://b.test/x', 1, 0)).toBe(false);
    expect(admission.admissible('http://b.test/x', 1, 0)).toBe(false);
    expect(admission.admissible('http://a.test/deep', 4, 0)).toBe(false);
    expect(admission.admissible('http://a.test/deep', 4, 0)).toBe(false);
    expect(admission.admissible('http://a.test/ok', 1, 0)).toBe(true);
    expect(admission.admissible('http://a.test/ok', 1, 0)).toBe(false);
    expect([counts.stats.outOfScope, counts.stats.trapsCut]).toEqual([1, { 'max-depth': 1 }]);
  });
  it('a query in another parameter order is the URL judged before (faceted listings link each filter set in every order)', () => {
    // A probe shop of 31 pages linking `?color=red&size=m` and `?size=m&color=red` alike: 757 listing
    // requests for 188 distinct listings. The URL is asked as first linked; its other orders are not asked.
    const { admission } = make();
    expect(admission.admissible('http://a.test/shop?size=m&color=red&page=2', 1, 0)).toBe(true);
    expect(admission.admissible('http://a.test/shop?color=red&page=2&size=m', 1, 0)).toBe(false);
    const follow = [
      { url: 'http://a.test/shop?page=2&size=m&color=red', depth: 2, via: 'link' as const },
      { url: 'http://a.test/shop?size=m&color=red', depth: 2, via: 'link' as const },
    ];
    expect(admission.queueable(follow, { url: 'http://a.test/shop' }).queue.map((e) => e.url)).toEqual(['http://a.test/shop?size=m&color=red']);
    // Values of one name keep their order (`?tag=b&tag=a` may not be `?tag=a&tag=b`); other values are other URLs.
    expect(admission.admissible('http://a.test/s?tag=b&tag=a', 1, 0)).toBe(true);
    expect(admission.admissible('http://a.test/s?tag=a&tag=b', 1, 0)).toBe(true);
    expect(admission.admissible('http://a.test/shop?color=blue&size=m', 1, 0)).toBe(true);
    // Judged at resume (what earlier runs queued), the other orders are judged too.
    admission.judge('http://a.test/list?b=2&a=1');
    expect(admission.admissible('http://a.test/list?a=1&b=2', 1, 0)).toBe(false);
  });
  it('a URL judged by an earlier run (judge at resume) is neither queued nor refused again', () => {
    const { counts, admission } = make();
    admission.judge('http://b.test/x');
    expect(admission.queueable([{ url: 'http://b.test/x', depth: 1, via: 'link' }], { url: 'http://a.test/' })).toEqual({ queue: [], refused: [] });
    expect(counts.stats.outOfScope).toBe(0);
  });
  it('splits a page’s links into those to queue (with their same-shape chain) and those refused', () => {
    const { admission } = make();
    const follow = [
      { url: 'http://a.test/day/2', depth: 2, via: 'link' as const },
      { url: 'http://a.test/about', depth: 2, via: 'link' as const },
      { url: 'http://b.test/out', depth: 2, via: 'link' as const },
    ];
    expect(admission.queueable(follow, { url: 'http://a.test/day/1', shapeChain: 0 })).toEqual({
      queue: [{ url: 'http://a.test/day/2', depth: 2, via: 'link', shapeChain: 1 }, { url: 'http://a.test/about', depth: 2, via: 'link' }],
      refused: ['http://b.test/out'],
    });
    // One hop more of the same shape is past maxShapeChain 1: refused as a trap.
    expect(admission.queueable([{ url: 'http://a.test/day/3', depth: 3, via: 'link' }], { url: 'http://a.test/day/2', shapeChain: 1 }).refused).toEqual(['http://a.test/day/3']);
  });
  it('logs the first 100 cuts of a rule one by one, then one line, then none; every cut is counted', () => {
    const counts = new CrawlCounters(undefined, []);
    const lines: string[] = [];
    const admission = new Admission(() => true, new TrapGuard({ maxDepth: 3 }), counts, (_level, msg) => void lines.push(msg));
    for (let i = 0; i < 5_000; i++) admission.admissible(`http://a.test/farm-${i}`, 9, 0);
    expect(counts.stats.trapsCut).toEqual({ 'max-depth': 5_000 });
    expect(lines.filter((l) => l === 'URL cut as a trap')).toHaveLength(100);
    expect(lines).toHaveLength(101);
    expect(lines[100]).toBe('more URLs cut as max-depth: counted, not logged (the summary has the total)');
  });
  it('does not hand the store URLs cut because their host is full (a resumed crawl cuts them again)', () => {
    const counts = new CrawlCounters(undefined, []);
    const admission = new Admission(() => true, new TrapGuard({ maxPagesPerHost: 1, maxDepth: 3 }), counts, () => {});
    const follow = ['http://a.test/one', 'http://a.test/two', 'http://a.test/x/y/z/w/deep'].map((url) => ({ url, depth: url.includes('deep') ? 4 : 1, via: 'link' as const }));
    expect(admission.queueable(follow, { url: 'http://a.test/' })).toEqual({ queue: [follow[0]], refused: ['http://a.test/x/y/z/w/deep'] });
    expect(counts.stats.trapsCut).toEqual({ 'host-page-limit': 1, 'max-depth': 1 });
  });
});
