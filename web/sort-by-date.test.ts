// Results sorted by date (SearchOptions.sort, `sort=date`): every match, newest first, pages without a
// date after those with one, a run of one date by relevance; each result shows its date; the HTML page
// offers the order and keeps it through its links; the JSON API says it. And the date filters
// `after:` and `before:`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { parseQuery } from './query/index.js';
import { buildFixtureIndex, query, type FixtureDir } from '../test/support/index-fixture.js';
import { createApp } from './app.js';
import { listen, type RunningServer } from './server.js';
import { indexStats } from './stats.js';

const S = 'http://news.test';
const strong = 'Widget widget widget: the widget catalogue lists every widget we sell.';
const weak = 'A note on the cafeteria, and one widget.';
const PAGES = [
  { url: `${S}/2020/catalogue`, title: 'Widget catalogue', text: strong, date: '2020-01-05T00:00:00.000Z' },
  { url: `${S}/2025/cafeteria`, title: 'Cafeteria news', text: weak, date: '2025-06-01T09:30:00.000Z' },
  // Its Last-Modified stands in for the date it does not declare.
  { url: `${S}/2024/manual`, title: 'Widget manual', text: 'How to fit a widget to the frame.', lastModified: 'Tue, 05 Mar 2024 10:00:00 GMT' },
  { url: `${S}/undated-strong`, title: 'Widget widget', text: strong },
  { url: `${S}/undated-weak`, title: 'Lunch', text: weak },
  // A date far past the crawl is no date.
  { url: `${S}/scheduled`, title: 'Upcoming', text: weak, date: '2100-01-01T00:00:00.000Z' },
  // One day, two pages: by relevance between them.
  { url: `${S}/2023/a-weak`, title: 'Minutes', text: weak, date: '2023-04-04T00:00:00.000Z' },
  { url: `${S}/2023/b-strong`, title: 'Widget price list', text: strong, date: '2023-04-04T00:00:00.000Z' },
  { url: `${S}/2022/gears`, title: 'Gears', text: 'Gears and sprockets, no small parts.', date: '2022-02-02T00:00:00.000Z' },
];
const NEWEST_FIRST = [`${S}/2025/cafeteria`, `${S}/2024/manual`, `${S}/2023/b-strong`, `${S}/2023/a-weak`, `${S}/2020/catalogue`];
const UNDATED = [`${S}/undated-strong`, `${S}/undated-weak`, `${S}/scheduled`];

let fixture: FixtureDir;
let engine: GleanerSearchEngine;

beforeAll(async () => {
  fixture = await buildFixtureIndex(PAGES);
  engine = await openSearchEngine(fixture.dataDir);
});

afterAll(async () => {
  engine.close();
  await fixture.cleanup();
});

describe('sort by date in the engine', () => {
  it('gives every match newest first, then the undated by relevance; the same matches and total as by relevance', () => {
    const byRelevance = engine.search(query('widget'), { offset: 0, limit: 20 });
    const byDate = engine.search(query('widget'), { offset: 0, limit: 20, sort: 'date' });
    const urls = byDate.hits.map((h) => h.url);
    expect(urls.slice(0, NEWEST_FIRST.length)).toEqual(NEWEST_FIRST);
    // The undated after, in their order by relevance.
    const undated = byRelevance.hits.map((h) => h.url).filter((u) => UNDATED.includes(u));
    expect(urls.slice(NEWEST_FIRST.length)).toEqual(undated);
    expect(undated[0]).toBe(`${S}/undated-strong`);
    expect(byDate.total).toBe(byRelevance.total);
    expect(new Set(urls)).toEqual(new Set(byRelevance.hits.map((h) => h.url)));
    // By relevance the strong pages lead, whatever their dates.
    expect(byRelevance.hits[0]!.url).not.toBe(`${S}/2025/cafeteria`);
  });

  it('shows each result\'s date, the declared one or the Last-Modified, and none for a page without one', () => {
    const hits = new Map(engine.search(query('widget'), { offset: 0, limit: 20, sort: 'date' }).hits.map((h) => [h.url, h.date]));
    expect(hits.get(`${S}/2025/cafeteria`)).toBe('2025-06-01T09:30:00.000Z');
    expect(hits.get(`${S}/2024/manual`)).toBe('2024-03-05T10:00:00.000Z');
    expect(hits.get(`${S}/undated-strong`)).toBeUndefined();
    expect(hits.get(`${S}/scheduled`)).toBeUndefined();
  });

  it('pages through the same order', () => {
    const all = engine.search(query('widget'), { offset: 0, limit: 20, sort: 'date' }).hits.map((h) => h.url);
    const second = engine.search(query('widget'), { offset: 2, limit: 3, sort: 'date' }).hits.map((h) => h.url);
    expect(second).toEqual(all.slice(2, 5));
  });

  it('sorts a phrase\'s matches too, and adds no partial matches', () => {
    expect(engine.search(query('"widget_catalogue"'), { offset: 0, limit: 10, sort: 'date' }).hits.map((h) => h.url)).toEqual([`${S}/2023/b-strong`, `${S}/2020/catalogue`, `${S}/undated-strong`]);
    // No page has both words: by relevance the pages with one follow; by date there is nothing.
    expect(engine.search(query('sprockets cafeteria'), { offset: 0, limit: 10 }).hits.length).toBeGreaterThan(0);
    expect(engine.search(query('sprockets cafeteria'), { offset: 0, limit: 10, sort: 'date' }).hits).toEqual([]);
  });
});

describe('sort by date in an index where no page has a date', () => {
  it('is the order of relevance, its reorderings included, and still adds no partial matches', async () => {
    const undated = await buildFixtureIndex(PAGES.map(({ url, title, text }) => ({ url, title, text })));
    const plain = await openSearchEngine(undated.dataDir);
    try {
      expect(plain.summary().undated).toBe(PAGES.length);
      for (const q of ['widget', 'widget catalogue', '"widget catalogue"', 'note cafeteria']) {
        const byRelevance = plain.search(query(q), { offset: 0, limit: 20, explain: false });
        const byDate = plain.search(query(q), { offset: 0, limit: 20, sort: 'date', explain: false });
        expect(byDate.hits.map((h) => h.url), q).toEqual(byRelevance.hits.filter((h) => h.missing === undefined).map((h) => h.url));
        expect(byDate.total, q).toBe(byRelevance.total);
      }
      expect(plain.search(query('sprockets cafeteria'), { offset: 0, limit: 10, sort: 'date' }).hits).toEqual([]);
    } finally {
      plain.close();
      await undated.cleanup();
    }
  });
});

describe('after: and before: in the engine', () => {
  const urls = (q: string, sort: 'relevance' | 'date' = 'date') => engine.search(parseQuery(q), { offset: 0, limit: 20, sort }).hits.map((h) => h.url);

  it('keep the pages dated in [after, before); undated pages are never inside', () => {
    expect(urls('widget after:2023')).toEqual([`${S}/2025/cafeteria`, `${S}/2024/manual`, `${S}/2023/b-strong`, `${S}/2023/a-weak`]);
    expect(urls('widget after:2023 before:2024-03-05')).toEqual([`${S}/2023/b-strong`, `${S}/2023/a-weak`]);
    expect(urls('widget before:2021')).toEqual([`${S}/2020/catalogue`]);
    expect(urls('widget after:2030')).toEqual([]);
    // By relevance too, and with a phrase.
    expect(new Set(urls('widget after:2024', 'relevance'))).toEqual(new Set([`${S}/2025/cafeteria`, `${S}/2024/manual`]));
    expect(urls('"widget catalogue" before:2024')).toEqual([`${S}/2023/b-strong`, `${S}/2020/catalogue`]);
  });

  it('the index counts its undated pages', () => {
    expect(engine.summary().undated).toBe(UNDATED.length);
  });
});

describe('sort by date through the gateway', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    server = await listen(createApp({ engine, stats: indexStats(engine) }), '127.0.0.1', 0);
    base = server.url.replace(/\/$/, '');
  });
  afterAll(async () => {
    await server.close();
  });

  it('the JSON API sorts with sort=date, says so, and gives each result its date', async () => {
    const res = await fetch(`${base}/api/search?q=widget&sort=date&size=3`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sort: string; results: { url: string; date?: string }[] };
    expect(body.sort).toBe('date');
    expect(body.results.map((r) => r.url)).toEqual(NEWEST_FIRST.slice(0, 3));
    expect(body.results[0]!.date).toBe('2025-06-01T09:30:00.000Z');
    const plain = (await (await fetch(`${base}/api/search?q=widget`)).json()) as { sort: string };
    expect(plain.sort).toBe('relevance');
  });

  it('refuses an order it does not know in one line', async () => {
    const res = await fetch(`${base}/api/search?q=widget&sort=price`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('sort must be relevance or date');
  });

  it('a date filter says how many pages it leaves out for want of a date, and offers the search without it', async () => {
    const some = await (await fetch(`${base}/search?q=widget+after%3A2024`)).text();
    expect(some).toContain(`${UNDATED.length} pages of the index have no date`);
    const none = await (await fetch(`${base}/search?q=widget+after%3A2030`)).text();
    expect(none).toContain('<a href="/search?q=widget">without the date filter (pages without a date are left out by it)</a>');
    expect((await (await fetch(`${base}/search?q=widget`)).text())).not.toContain('have no date');
  });

  it('the result page offers both orders, shows dates, and keeps the order in its links and its form', async () => {
    const byRelevance = await (await fetch(`${base}/search?q=widget`)).text();
    expect(byRelevance).toContain('<strong aria-current="true">relevance</strong>');
    expect(byRelevance).toContain('<a href="/search?q=widget&amp;sort=date">date, newest first</a>');
    expect(byRelevance).toContain('<time datetime="2025-06-01T09:30:00.000Z">2025-06-01</time>');
    const byDate = await (await fetch(`${base}/search?q=widget&sort=date`)).text();
    expect(byDate).toContain('<strong aria-current="true">date, newest first</strong>');
    expect(byDate).toContain('<input type="hidden" name="sort" value="date">');
    const order = [...byDate.matchAll(/<cite class="url" lang="en">([^<]*)<\/cite>/g)].map((m) => m[1]);
    expect(order.slice(0, 2)).toEqual([`${S}/2025/cafeteria`, `${S}/2024/manual`]);
  });
});
