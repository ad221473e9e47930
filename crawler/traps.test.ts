import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_TRAP_OPTIONS, checkTrap, datesInUrl, repeatedSegments, shapeChain, TrapGuard, urlShape, variableShape, type TrapContext } from './traps.js';

const CTX: TrapContext = { hostPages: 0, shapeUrls: 0, shapeChain: 0, shapePages: 0, shapeDuplicates: 0, nowYear: 2026 };
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
    // Eight digits with a month and a day in them but no plausible year: an id, not a date.
    expect(datesInUrl('http://a.test/item/47220317/')).toEqual([]);
    expect(datesInUrl('http://a.test/log/20310317/')).toEqual([2031]);
  });
  it('urlShape replaces every digit run of the path and query, and keeps the host', () => {
    expect(urlShape('http://a.test:8080/2024/05/day-17?p=3')).toBe('a.test:8080/#/#/day-#?p=#');
    expect(urlShape('http://10.0.0.7/p/1')).toBe('10.0.0.7/p/#');
  });
});

describe('pages per host', () => {
  it('cuts once the host has maxPagesPerHost pages', () => {
    expect(reason('http://a.test/x', 0, { hostPages: 9 }, { maxPagesPerHost: 10 })).toBe('ok');
    expect(check('http://a.test/x', 0, { hostPages: 10 }, { maxPagesPerHost: 10 })).toEqual({
      ok: false,
      reason: 'host-page-limit',
      detail: '10 URLs queued or stored on a.test, limit 10',
    });
  });
});

describe('TrapGuard', () => {
  it('counts URLs queued or stored per host (host with port) and refuses past the limit', () => {
    const t = new TrapGuard({ maxPagesPerHost: 3 }, () => 2026);
    t.countPage('http://a.test/1'); // stored by an earlier run
    expect(t.check('http://a.test/two', 0).ok).toBe(true);
    t.countPage('http://a.test/two', false, true); // stored now: counted when admitted
    t.countQueued('http://a.test/queued'); // queued by an earlier run
    expect(t.check('http://a.test/three', 0)).toMatchObject({ ok: false, reason: 'host-page-limit' });
    expect(t.check('http://a.test:81/three', 0).ok).toBe(true);
    expect(t.check('http://b.test/three', 0).ok).toBe(true);
  });
  it('uses the clock it is given for the year window', () => {
    expect(new TrapGuard({}, () => 2040).check('http://a.test/2041/01/', 0).ok).toBe(true);
    expect(new TrapGuard({}, () => 2026).check('http://a.test/2041/01/', 0).ok).toBe(false);
  });
});

describe('issue 12: a trap is not a large listing', () => {
  const ITEMS = 2_000;

  it('keeps every item of a 2,000-item listing found on index pages (the old rule kept 500, as "calendar")', () => {
    const t = new TrapGuard({}, () => 2026);
    const refused: string[] = [];
    for (let page = 1; page <= 40; page++) {
      const index = `http://a.test/list?page=${page}`;
      for (let i = (page - 1) * 50 + 1; i <= page * 50; i++) {
        const item = `http://a.test/item/${i}.html`;
        if (!t.check(item, 2, shapeChain(item, index, 0)).ok) refused.push(item);
      }
    }
    expect(refused).toEqual([]);
    expect(t.contextFor(`http://a.test/item/${ITEMS + 1}.html`).shapeUrls).toBe(ITEMS);
  });

  it('cuts an endless next-day chain after maxShapeChain same-shape hops, as shape-chain', () => {
    const t = new TrapGuard({ maxDepth: 10_000, maxShapeChain: 50 }, () => 2026);
    // /calendar/day/1 is found on the home page (another shape); each day page links the next day.
    let chain = shapeChain('http://a.test/calendar/day/1', 'http://a.test/', 0);
    let accepted = 0;
    let verdict = t.check('http://a.test/calendar/day/1', 1, chain);
    for (let n = 2; verdict.ok && n < 1_000; n++) {
      accepted++;
      chain = shapeChain(`http://a.test/calendar/day/${n}`, `http://a.test/calendar/day/${n - 1}`, chain);
      verdict = t.check(`http://a.test/calendar/day/${n}`, n, chain);
    }
    expect(accepted).toBe(51); // day 1 (chain 0) and 50 hops
    expect(verdict).toEqual({ ok: false, reason: 'shape-chain', detail: '51 same-shape hops in a row to a.test/calendar/day/#, limit 50' });
  });

  it('shapeChain grows only along links between pages of one variable shape', () => {
    expect(shapeChain('http://a.test/day/2', 'http://a.test/day/1', 7)).toBe(8);
    expect(shapeChain('http://a.test/item/2.html', 'http://a.test/list?page=1', 7)).toBe(0);
    expect(shapeChain('http://a.test/about', 'http://a.test/about', 3)).toBe(0); // no variable part: not a template
    expect(shapeChain('http://a.test/day/2', undefined, 3)).toBe(0);
  });

  it('gives session-id paths one shape, so a chain of new session ids is a chain', () => {
    expect(urlShape('http://a.test/s/a81f3c09e2b74d/index.html')).toBe('a.test/s/*/index.html');
    expect(urlShape('http://a.test/s/zz0912ab77c3de/index.html')).toBe(urlShape('http://a.test/s/a81f3c09e2b74d/index.html'));
    expect(shapeChain('http://a.test/s/zz0912ab77c3de/index.html', 'http://a.test/s/a81f3c09e2b74d/index.html', 0)).toBe(1);
    // Words are not ids: an ordinary long path segment keeps its letters.
    expect(urlShape('http://a.test/documentation/page-2')).toBe('a.test/documentation/page-#');
    expect(urlShape('http://a.test/blog/how-to-use-python3-today')).toBe('a.test/blog/how-to-use-python#-today');
    expect(variableShape('http://a.test/documentation/')).toBeUndefined();
  });

  it('cuts a shape whose stored pages mostly repeat content, as repeated-content', () => {
    expect(reason('http://a.test/item/9', 0, { shapePages: 30, shapeDuplicates: 19 })).toBe('ok');
    expect(check('http://a.test/item/9', 0, { shapePages: 30, shapeDuplicates: 20 })).toEqual({
      ok: false,
      reason: 'repeated-content',
      detail: '20 of 30 stored pages of the shape a.test/item/# repeat earlier content, limit 20',
    });
    // A big listing with a few copies among many distinct pages is not a trap.
    expect(reason('http://a.test/item/9', 0, { shapePages: 2_000, shapeDuplicates: 40 })).toBe('ok');
    expect(reason('http://a.test/item/9', 0, { shapePages: 30, shapeDuplicates: 30 }, { maxRepeatsPerShape: 0 })).toBe('ok');
  });

  it('TrapGuard counts duplicates per shape from stored pages', () => {
    const t = new TrapGuard({ maxRepeatsPerShape: 3 }, () => 2026);
    t.countPage('http://a.test/print?id=1');
    for (let i = 2; i <= 4; i++) t.countPage(`http://a.test/print?id=${i}`, true);
    expect(t.check('http://a.test/print?id=5', 1)).toMatchObject({ ok: false, reason: 'repeated-content' });
    expect(t.check('http://a.test/page?id=5', 1).ok).toBe(true);
  });

  it('keeps a last-resort cap per shape, as shape-limit, never as calendar', () => {
    expect(DEFAULT_TRAP_OPTIONS.maxUrlsPerShape).toBe(100_000);
    expect(reason('http://a.test/cal?page=501', 0, { shapeUrls: 99_999 })).toBe('ok');
    expect(check('http://a.test/cal?page=501', 0, { shapeUrls: 10 }, { maxUrlsPerShape: 10 })).toEqual({
      ok: false,
      reason: 'shape-limit',
      detail: '10 URLs already of the shape a.test/cal?page=#, limit 10',
    });
    expect(reason('http://a.test/x/1', 0, { shapeUrls: 10_000_000 }, { maxUrlsPerShape: 0 })).toBe('ok');
    const t = new TrapGuard({ maxUrlsPerShape: 2 }, () => 2026);
    t.countPage('http://a.test/p/1');
    t.countQueued('http://a.test/p/2');
    expect(t.check('http://a.test/p/1', 0).ok).toBe(true); // already counted: stays accepted
    expect(t.check('http://a.test/p/3', 0)).toMatchObject({ ok: false, reason: 'shape-limit' });
  });

  it('does not count a chain for URLs found on a page of another shape, whatever the depth', () => {
    // Items found from deep index pages: same depth as their index page + 1, chain 0.
    expect(reason('http://a.test/item/5.html', 19, { shapeChain: 0 }, { maxShapeChain: 5 })).toBe('ok');
    expect(reason('http://a.test/item/5.html', 19, { shapeChain: 6 }, { maxShapeChain: 5 })).toBe('shape-chain');
    expect(reason('http://a.test/item/5.html', 19, { shapeChain: 600 }, { maxShapeChain: 0 })).toBe('ok');
  });
});
