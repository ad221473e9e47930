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
});
