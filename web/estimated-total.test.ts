// A total that is estimated says so: phrase matches past those checked are counted on a sample
// (web/search/phrase-check.ts), and the page then reads "About N results" and the API answer carries
// totalIsEstimate, as large engines and Xapian say "about".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { createApp } from './app.js';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { parseQuery } from './query/index.js';
import { listen, type RunningServer } from './server.js';

let fixture: FixtureDir;
let engine: GleanerSearchEngine;
let server: RunningServer;

// 60 pages have both words, every third one as the phrase "amber lantern".
const pages = Array.from({ length: 60 }, (_, i) => ({
  url: `http://lamps.test/${i}`,
  title: `Lamp ${i}`,
  text: i % 3 === 0 ? `an amber lantern by the door, number ${i}` : `a lantern, and amber glass, number ${i}`,
}));

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
  });
});
