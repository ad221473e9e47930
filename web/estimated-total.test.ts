// A total that is estimated says so: phrase matches past those checked are counted on a sample
// (web/search/phrase-check.ts), and the page then reads "About N results" and the API answer carries
// totalIsEstimate, as large engines and Xapian say "about". And a page of results the phrase checks
// stopped short of settling says that too: pages past those checked may hold the phrase.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { createApp } from './app.js';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { parseQuery } from './query/index.js';
import { listen, type RunningServer } from './server.js';
import { runSearch } from './run-search.js';
import { WEB_DEFAULTS } from './defaults.js';

let fixture: FixtureDir;
let engine: GleanerSearchEngine;
let server: RunningServer;

// 60 pages have both words, every third one as the phrase "amber lantern". 30 pages have "copper" and
// "kettle", and only the one that says them least often as the phrase "copper kettle": it ranks last.
const pages = [
  ...Array.from({ length: 60 }, (_, i) => ({
    url: `http://lamps.test/${i}`,
    title: `Lamp ${i}`,
    text: i % 3 === 0 ? `an amber lantern by the door, number ${i}` : `a lantern, and amber glass, number ${i}`,
  })),
  ...Array.from({ length: 30 }, (_, i) => ({
    url: `http://kitchen.test/${i}`,
    title: `Kitchen ${i}`,
    text: i === 0 ? 'a copper kettle on the stove' : `copper pans, copper pots, copper lids; a kettle, a kettle, a kettle, item ${i}`,
  })),
];

beforeAll(async () => {
  fixture = await buildFixtureIndex(pages);
  // Few checks, so the phrase's total must be estimated beyond them.
  engine = await openSearchEngine(fixture.dataDir, { maxPhraseChecks: 5, phraseSampleSize: 20 });
  server = await listen(createApp({ engine }), '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
  engine.close();
  await fixture.cleanup();
});

describe('estimated totals', () => {
  it('are marked by the engine, and exact totals are not', () => {
    const phrase = engine.search(parseQuery('"amber lantern"'), { offset: 0, limit: 3 });
    expect(phrase.totalIsEstimate).toBe(true);
    expect(phrase.total).toBeGreaterThan(5);
    expect(phrase.total).toBeLessThanOrEqual(60);
    const words = engine.search(parseQuery('amber lantern'), { offset: 0, limit: 3 });
    expect(words.total).toBe(60);
    expect(words.totalIsEstimate).toBeUndefined();
  });

  it('read "About N results" on the page and carry totalIsEstimate in the API', async () => {
    const html = await (await fetch(`${server.url}search?q=${encodeURIComponent('"amber lantern"')}`)).text();
    expect(html).toMatch(/About \d+ results/);
    const exact = await (await fetch(`${server.url}search?q=amber+lantern`)).text();
    expect(exact).toMatch(/>60 results/);
    const api = (await (await fetch(`${server.url}api/search?q=${encodeURIComponent('"amber lantern"')}`)).json()) as { totalIsEstimate?: boolean };
    expect(api.totalIsEstimate).toBe(true);
    const apiExact = (await (await fetch(`${server.url}api/search?q=amber+lantern`)).json()) as Record<string, unknown>;
    expect('totalIsEstimate' in apiExact).toBe(false);
    expect('phraseCheckStopped' in apiExact).toBe(false);
  });

  it('say when the phrase checks stopped before the page was sure, in the engine, the page and the API', async () => {
    const rare = engine.search(parseQuery('"copper kettle"'), { offset: 0, limit: 10 });
    // Five checks among the 29 best candidates: the one page with the phrase, the 30th, is never reached.
    expect(rare.hits.map((h) => h.url)).not.toContain('http://kitchen.test/0');
    expect(rare.phraseCheckStopped).toEqual({ checked: 5, candidates: 30 });
    // With checks enough, the same query finds it and the page is sure.
    const thorough = await openSearchEngine(fixture.dataDir, { maxPhraseChecks: 100 });
    try {
      const found = thorough.search(parseQuery('"copper kettle"'), { offset: 0, limit: 10 });
      expect(found.hits.map((h) => h.url)).toEqual(['http://kitchen.test/0']);
      expect(found.phraseCheckStopped).toBeUndefined();
    } finally {
      thorough.close();
    }
    const html = await (await fetch(`${server.url}search?q=${encodeURIComponent('"copper kettle"')}`)).text();
    expect(html).toMatch(/looked for in the best 5 of the 30 pages holding all its words/);
    const words = await (await fetch(`${server.url}search?q=copper+kettle`)).text();
    expect(words).not.toMatch(/looked for in the best/);
    const api = (await (await fetch(`${server.url}api/search?q=${encodeURIComponent('"copper kettle"')}`)).json()) as { phraseCheckStopped?: unknown };
    expect(api.phraseCheckStopped).toEqual({ checked: 5, candidates: 30 });
  });

  it('never lead to an empty page: pages are counted up to what the checks reach, and a short page is the last', async () => {
    // The estimate is about 20 matches. The 40 best candidates are pages without the phrase, so 44
    // checks reach four matches; at 2 a page the estimate would promise 10 pages. The pages are walked
    // by the links each offers: every one holds results, and the last offers none after it.
    const checked = await openSearchEngine(fixture.dataDir, { maxPhraseChecks: 44, phraseSampleSize: 20 });
    try {
      const at = (page: number) => runSearch(checked, '"amber lantern"', page, 2, WEB_DEFAULTS);
      const first = at(1);
      expect(first.result.totalIsEstimate).toBe(true);
      expect(first.result.total).toBeGreaterThan(4);
      let run = first;
      for (;;) {
        expect(run.result.hits.length, `page ${run.page}`).toBeGreaterThan(0);
        if (run.page >= run.pages) break;
        run = at(run.page + 1);
      }
      expect(run.page).toBe(2);
      expect(run.result.reachable).toBe(4);
      expect(() => at(3)).toThrow('this search has 2 pages of results, not 3');
      expect(() => at(9)).toThrow('this search has 2 pages of results, not 9');
      expect(checked.search(parseQuery('amber lantern'), { offset: 0, limit: 2 }).reachable).toBeUndefined();
    } finally {
      checked.close();
    }
  });
});
