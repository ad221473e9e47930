import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_TRAP_OPTIONS } from './options.js';
import { checkTrap, datesInUrl, repeatedSegments, TrapGuard, urlShape, type TrapContext } from './traps.js';

const CTX: TrapContext = { hostPages: 0, shapeUrls: 0, nowYear: 2026 };
const check = (url: string, depth = 0, ctx: Partial<TrapContext> = {}, opts = {}) => checkTrap(url, depth, { ...CTX, ...ctx }, opts);
const reason = (url: string, depth = 0, ctx: Partial<TrapContext> = {}, opts = {}) => {
  const v = check(url, depth, ctx, opts);
  return v.ok ? 'ok' : v.reason;
};

describe('seed 003: URL length limit (default 1,024)', () => {
  it('accepts 1,024 characters and cuts 1,025, saying how long', () => {
    const base = 'http://a.test/';
    expect(DEFAULT_TRAP_OPTIONS.maxUrlLength).toBe(1024);
    expect(reason(base + 'x'.repeat(1024 - base.length))).toBe('ok');
    const v = check(base + 'x'.repeat(1025 - base.length));
    expect(v).toEqual({ ok: false, reason: 'url-too-long', detail: '1025 characters, limit 1024' });
  });
  it('uses the configured limit', () => {
    expect(reason('http://a.test/abcdef', 0, {}, { maxUrlLength: 15 })).toBe('url-too-long');
  });
});

describe('maximum depth', () => {
  it('cuts deeper than maxDepth only', () => {
    expect(reason('http://a.test/', 3, {}, { maxDepth: 3 })).toBe('ok');
    expect(reason('http://a.test/', 4, {}, { maxDepth: 3 })).toBe('max-depth');
  });
});

describe('seed 003: repeated path segments', () => {
  it('cuts a segment occurring more than twice anywhere', () => {
    expect(reason('http://a.test/a/x/a/y/a')).toBe('repeated-segments');
    expect(check('http://a.test/a/x/a/y/a')).toMatchObject({ detail: "segment 'a' occurs 3 times" });
    expect(reason('http://a.test/a/x/a/y')).toBe('ok');
  });
  it('allows one segment twice in a row (the Rust docs have /alloc/alloc/)', () => {
    expect(reason('http://a.test/alloc/alloc/index.html')).toBe('ok');
    expect(reason('http://a.test/img/img/img/')).toBe('repeated-segments');
  });
  it('cuts cycles of period 2 and 3', () => {
    expect(reason('http://a.test/docs/a/b/a/b/page.html')).toBe('repeated-segments');
    expect(reason('http://a.test/a/b/c/a/b/c')).toBe('repeated-segments');
    expect(check('http://a.test/x/a/b/c/a/b/c')).toMatchObject({ detail: "'a/b/c' repeats 2 times in a row" });
    expect(reason('http://a.test/a/b/c/a/b/d')).toBe('ok');
  });
  it('looks at the path only, not the query', () => {
    expect(reason('http://a.test/p?x=a/a/a/a')).toBe('ok');
  });
  it('honours the options', () => {
    expect(repeatedSegments(['a', 'x', 'a', 'y', 'a'], 3, 2)).toBeUndefined();
    expect(repeatedSegments(['a', 'b', 'a', 'b'], 2, 3)).toBeUndefined();
    expect(repeatedSegments(['a', 'b', 'a', 'b', 'a', 'b'], 5, 3)).toBe("'a/b' repeats 3 times in a row");
  });
  it('never cuts a path without repeated segments (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 12 }), (segs) => {
        expect(repeatedSegments(segs, 2, 2)).toBeUndefined();
      }),
    );
  });
  it('always cuts a block repeated three times (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 3 }), fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 3 }), (block, prefix) => {
        expect(repeatedSegments([...prefix, ...block, ...block, ...block], 2, 2)).toBeDefined();
      }),
    );
  });
});

describe('seed 003: calendar-style endless spaces', () => {
  it('cuts dates whose year is outside the window (default 30 back, 2 ahead)', () => {
    expect(reason('http://a.test/cal/2027/12/')).toBe('ok');
    expect(reason('http://a.test/cal/2029/01/')).toBe('calendar');
    expect(reason('http://a.test/cal/1995/01/')).toBe('calendar');
    expect(reason('http://a.test/cal/1997/01/')).toBe('ok');
    expect(check('http://a.test/cal/2031/07/')).toMatchObject({ detail: 'date in year 2031, outside 1996-2028' });
  });
  it('reads dates from ISO tokens, compact tokens and date-named query parameters', () => {
    expect(reason('http://a.test/events/2040-03-01.html')).toBe('calendar');
    expect(reason('http://a.test/events?day=20400301')).toBe('calendar');
    expect(reason('http://a.test/calendar.php?year=2050&month=1')).toBe('calendar');
    expect(reason('http://a.test/calendar.php?date=2050-01')).toBe('calendar');
    expect(datesInUrl('http://a.test/c?year=2024&month=3')).toEqual([2024]);
  });
  it('does not take a bare 4-digit number for a year', () => {
    expect(reason('http://a.test/rfc/1945')).toBe('ok');
    expect(reason('http://a.test/rfc/1945/index.html')).toBe('ok');
    expect(reason('http://a.test/item?id=1850')).toBe('ok');
    expect(datesInUrl('http://a.test/products/123456789/')).toEqual([]);
  });
  it('cuts a URL shape that already produced maxUrlsPerShape distinct URLs', () => {
    expect(reason('http://a.test/cal?page=501', 0, { shapeUrls: 499 })).toBe('ok');
    const v = check('http://a.test/cal?page=501', 0, { shapeUrls: 500 });
    expect(v).toEqual({ ok: false, reason: 'calendar', detail: '500 URLs already of the shape a.test/cal?page=#, limit 500' });
    expect(reason('http://a.test/x', 0, { shapeUrls: 10_000 }, { maxUrlsPerShape: 0 })).toBe('ok');
  });
  it('urlShape replaces every digit run', () => {
    expect(urlShape('http://a.test:8080/2024/05/day-17?p=3')).toBe('a.test:#/#/#/day-#?p=#');
  });
});

describe('pages per host', () => {
  it('cuts once the host has maxPagesPerHost pages', () => {
    expect(reason('http://a.test/x', 0, { hostPages: 9 }, { maxPagesPerHost: 10 })).toBe('ok');
    expect(check('http://a.test/x', 0, { hostPages: 10 }, { maxPagesPerHost: 10 })).toEqual({
      ok: false,
      reason: 'host-page-limit',
      detail: '10 pages on a.test, limit 10',
    });
  });
});

describe('TrapGuard', () => {
  it('counts stored pages per host (host with port) and refuses past the limit', () => {
    const t = new TrapGuard({ maxPagesPerHost: 2 }, () => 2026);
    t.countPage('http://a.test/1');
    expect(t.check('http://a.test/two', 0).ok).toBe(true);
    t.countPage('http://a.test/two');
    expect(t.check('http://a.test/three', 0)).toMatchObject({ ok: false, reason: 'host-page-limit' });
    expect(t.check('http://a.test:81/three', 0).ok).toBe(true);
    expect(t.check('http://b.test/three', 0).ok).toBe(true);
  });
  it('cuts an endless next-month calendar after maxUrlsPerShape distinct URLs', () => {
    const t = new TrapGuard({ maxUrlsPerShape: 5, yearsAhead: 1000 }, () => 2026);
    const accepted: string[] = [];
    for (let i = 0; i < 20; i++) {
      const url = `http://a.test/cal?month=${i}`;
      if (t.check(url, 0).ok) accepted.push(url);
    }
    expect(accepted).toHaveLength(5);
    // Another template on the same host is not affected, and an accepted URL stays accepted.
    expect(t.check('http://a.test/item/1', 0).ok).toBe(true);
    expect(t.check('http://a.test/cal?month=0', 0).ok).toBe(true);
  });
  it('counts a URL once for its shape however often it is found', () => {
    const t = new TrapGuard({ maxUrlsPerShape: 1 }, () => 2026);
    for (let i = 0; i < 3; i++) expect(t.check('http://a.test/p/1', 0).ok).toBe(true);
    expect(t.contextFor('http://a.test/p/1').shapeUrls).toBe(0);
    expect(t.contextFor('http://a.test/p/2').shapeUrls).toBe(1);
    expect(t.check('http://a.test/p/2', 0)).toMatchObject({ ok: false, reason: 'calendar' });
  });
  it('restores the shape counts from stored pages (resume)', () => {
    const t = new TrapGuard({ maxUrlsPerShape: 2 }, () => 2026);
    t.countPage('http://a.test/p/1');
    t.countPage('http://a.test/p/2');
    expect(t.check('http://a.test/p/3', 0)).toMatchObject({ ok: false, reason: 'calendar' });
  });
  it('uses the clock it is given for the year window', () => {
    expect(new TrapGuard({}, () => 2040).check('http://a.test/2041/01/', 0).ok).toBe(true);
    expect(new TrapGuard({}, () => 2026).check('http://a.test/2041/01/', 0).ok).toBe(false);
  });
});
