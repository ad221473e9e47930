// A query of more words than one 32-bit mask holds: each word's bit is checked as an unsigned number,
// so the word given bit 31 (or 63, ...) is found like the others. It was not: `(mask & need) === need`
// compares a signed result with an unsigned need, and every page failed that word.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, query, type FixtureDir } from '../../test/support/index-fixture.js';
import { openSearchEngine, type GleanerSearchEngine } from './index.js';

const WORDS = Array.from({ length: 70 }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}word`);

let fixture: FixtureDir;
let engine: GleanerSearchEngine;
beforeAll(async () => {
  fixture = await buildFixtureIndex([
    { url: 'http://site.test/all', title: 'Every word', text: WORDS.join(' ') },
    { url: 'http://site.test/half', title: 'Half the words', text: WORDS.slice(0, 35).join(' ') },
  ]);
  engine = await openSearchEngine(fixture.dataDir);
});
afterAll(async () => {
  engine.close();
  await fixture.cleanup();
});

describe('every word of a long query is required and found', () => {
  it.each([31, 32, 33, 40, 64, 65, 70])('%i words: the page with all of them matches', (n) => {
    const result = engine.search(query(WORDS.slice(0, n).join(' ')), { offset: 0, limit: 10 });
    const full = result.hits.filter((h) => h.missing === undefined).map((h) => h.url);
    expect(full).toContain('http://site.test/all');
    expect(full.includes('http://site.test/half')).toBe(n <= 35);
  });
});
