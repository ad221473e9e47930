// Issue 12 class 4: a 2,000-item numbered listing beside a real next-day chain and a date calendar
// (test/sites/numbered-and-traps.ts), crawled by the real crawl loop into a real store: every item is
// stored, the traps are cut, each by its own rule, after a bounded number of URLs.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSummary } from '../bin/commands/crawl.js';
import { crawl, DEFAULT_CRAWL_OPTIONS, type CrawlSummary } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { sessionId, startNumberedSite, type NumberedSite } from './sites/numbered-and-traps.js';

const ITEMS = 2_000;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface LogEntry {
  msg: string;
  fields: Record<string, unknown> | undefined;
}

async function crawlSite(site: NumberedSite, options: Record<string, number> = {}): Promise<{ summary: CrawlSummary; pages: Map<string, PageRecord>; log: LogEntry[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gleaner-numbered-'));
  dirs.push(dataDir);
  const log: LogEntry[] = [];
  const summary = await crawl(
    { dataDir, seeds: [`${site.origin}/`], delayMs: 0, hostConnections: 4, useSitemaps: false, ...options },
    { log: (_level, msg, fields) => log.push({ msg, fields }) },
  );
  const store = await openStore(dataDir, { mustExist: true });
  const pages = new Map<string, PageRecord>();
  for await (const p of store.pages()) pages.set(new URL(p.url).pathname + new URL(p.url).search, p);
  await store.close();
  return { summary, pages, log };
}

const count = (pages: Map<string, PageRecord>, prefix: string) => [...pages.keys()].filter((p) => p.startsWith(prefix)).length;

describe('a 2,000-item numbered listing beside a calendar trap, default options', () => {
  let site: NumberedSite;
  let summary: CrawlSummary;
  let pages: Map<string, PageRecord>;
  beforeAll(async () => {
    site = await startNumberedSite({ items: ITEMS });
    ({ summary, pages } = await crawlSite(site));
  }, 180_000);
  afterAll(() => site.close());

  it('stores every item, ok (the old 500-per-shape rule kept a quarter of them, as "calendar")', () => {
    const items = [...pages].filter(([p, r]) => p.startsWith('/item/') && r.state === 'ok');
    expect(items).toHaveLength(ITEMS);
    expect(count(pages, '/list/')).toBe(ITEMS / 50);
    expect(summary.stoppedBecause).toBe('done');
    // The next-day chain, the next-month calendar and the session ids are cut, here by max-depth (20 by
    // default) first: day N, month N and session N are N hops from the home page.
    expect(count(pages, '/calendar/day/')).toBe(20);
    expect(count(pages, '/events')).toBe(20);
    expect(count(pages, '/s/')).toBe(20);
    expect(summary.stats.trapsCut['max-depth']).toBe(3);
    expect(summary.stats.trapsCut['shape-limit']).toBeUndefined();
  });
});

describe('the same site with --max-depth 1000: the chain rule cuts the calendar', () => {
  let site: NumberedSite;
  let summary: CrawlSummary;
  let pages: Map<string, PageRecord>;
  let log: LogEntry[];
  beforeAll(async () => {
    site = await startNumberedSite({ items: ITEMS });
    ({ summary, pages, log } = await crawlSite(site, { maxDepth: 1_000 }));
  }, 180_000);
  afterAll(() => site.close());

  it('stores every item, and cuts the next-day chain after maxShapeChain hops with the reason shape-chain', () => {
    expect([...pages].filter(([p, r]) => p.startsWith('/item/') && r.state === 'ok')).toHaveLength(ITEMS);
    // Day 1 is found on the home page (chain 0), then 50 same-shape hops are allowed.
    expect(count(pages, '/calendar/day/')).toBe(51);
    expect(site.requests.filter((p) => p.startsWith('/calendar/')).length).toBe(51);
    // Each session id is a new URL, but all share the shape /s/*/index.html: the same chain rule cuts them.
    expect(count(pages, '/s/')).toBe(51);
    expect(summary.stats.trapsCut).toEqual({ 'shape-chain': 2, calendar: 1 });
    expect(summary.stats.trapExamples?.['shape-chain']).toBe(`${site.origin}/calendar/day/52`);
  });

  it('cuts the date calendar by its year window (2 years ahead), with the reason calendar', () => {
    const [year, month] = site.firstMonth.split('-').map(Number) as [number, number];
    const monthsInWindow = 12 - month + 1 + 24;
    expect(count(pages, '/events')).toBe(monthsInWindow);
    expect(summary.stats.trapExamples?.['calendar']).toBe(`${site.origin}/events?month=${year + 3}-01`);
  });

  it('the summary and the log say which rule cut how many URLs, with an example', () => {
    const text = formatSummary(summary);
    expect(text).toMatch(/shape-chain 2 \(e\.g\. http:\S+\/(calendar\/day\/52|s\/[a-z0-9]{16}\/index\.html)\)/);
    expect(text).toMatch(/calendar 1 \(e\.g\. http:\S+\/events\?month=\d{4}-01\)/);
    expect(log.find((e) => e.msg === 'trap rule total' && e.fields?.reason === 'shape-chain')?.fields).toEqual({
      reason: 'shape-chain',
      urls: 2,
      example: summary.stats.trapExamples?.['shape-chain'],
    });
    const cuts = log.filter((e) => e.msg === 'URL cut as a trap' && e.fields?.reason === 'shape-chain').map((e) => [e.fields?.url, e.fields?.detail]);
    const host = site.origin.slice('http://'.length);
    expect(cuts).toContainEqual([`${site.origin}/calendar/day/52`, `51 same-shape hops in a row to ${host}/calendar/day/#, limit 50`]);
    expect(cuts).toContainEqual([`${site.origin}/s/${sessionId(51)}/index.html`, `51 same-shape hops in a row to ${host}/s/*/index.html, limit 50`]);
  });

  it('a lower --max-shape-chain cuts sooner, and 0 turns the rule off (then max-depth ends the chain)', async () => {
    const small = await startNumberedSite({ items: 20, perPage: 10 });
    try {
      const { summary: s, pages: p } = await crawlSite(small, { maxDepth: 1_000, maxShapeChain: 5 });
      expect(count(p, '/calendar/day/')).toBe(6);
      expect(s.stats.trapsCut['shape-chain']).toBe(3); // the day chain, the month chain, the session chain
      expect(count(p, '/events')).toBe(6);
      const off = await crawlSite(small, { maxDepth: 80, maxShapeChain: 0 });
      expect(off.summary.stats.trapsCut['shape-chain']).toBeUndefined();
      expect(count(off.pages, '/calendar/day/')).toBe(80);
    } finally {
      await small.close();
    }
  });
});

describe('repeated content: a print link on every item to the same login wall', () => {
  it('stores a few copies, then cuts the rest of the shape as repeated-content, also URLs queued before', async () => {
    const site = await startNumberedSite({ items: 200, perPage: 20, printPages: true });
    try {
      const { summary, pages } = await crawlSite(site);
      expect([...pages].filter(([p, r]) => p.startsWith('/item/') && r.state === 'ok')).toHaveLength(200);
      const prints = [...pages].filter(([p]) => p.startsWith('/print/'));
      // 20 duplicates make the shape repeating. Pages under way at once (the crawl's concurrency) may
      // each be stored before another copy is known, so up to that many copies are ok and up to that
      // many more were under way at the cut. All 200 print URLs were queued before any was fetched:
      // the cut happens as they come up.
      const underWay = DEFAULT_CRAWL_OPTIONS.concurrency;
      const copies = prints.filter(([, r]) => r.state === 'ok').length;
      expect(copies).toBeGreaterThanOrEqual(1);
      expect(copies).toBeLessThanOrEqual(underWay);
      expect(prints.length).toBeGreaterThanOrEqual(21);
      expect(prints.length).toBeLessThanOrEqual(20 + underWay + underWay);
      expect(summary.stats.trapsCut['repeated-content']).toBe(200 - prints.length);
      expect(site.requests.filter((p) => p.startsWith('/print/')).length).toBe(prints.length);
    } finally {
      await site.close();
    }
  });
});
