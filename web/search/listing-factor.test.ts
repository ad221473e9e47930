import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RANK_PARAMS, listingFactor } from './rank.js';
import { openSearchEngine, type GleanerSearchEngine } from './index.js';
import { buildFixtureIndex, query, type FixtureDir } from '../../test/support/index-fixture.js';

describe('listingFactor', () => {
  const p = { ...DEFAULT_RANK_PARAMS, listingWeight: 0.5, listingFrom: 0.8 };
  it('leaves pages at or below listingFrom alone and demotes in proportion above it, up to listingWeight', () => {
    expect(listingFactor(p, 0)).toBe(1);
    expect(listingFactor(p, 0.8)).toBe(1);
    expect(listingFactor(p, 0.9)).toBeCloseTo(0.75);
    expect(listingFactor(p, 1)).toBeCloseTo(0.5);
  });
  it('does nothing with listingWeight 0', () => {
    expect(listingFactor({ ...p, listingWeight: 0 }, 1)).toBe(1);
  });
});

// Django's shape: the reference page documents JsonResponse in prose; the viewcode page of the test
// client is its source, saying "return", "json" and "response" in every other line.
const S = 'https://docs.example';
const CODE = Array.from({ length: 40 }, (_, i) => `def get_json_${i}(self, response):\n    return json.loads(response.content)  # json response\n`).join('');
const PROSE = 'Views return a response object; this page describes the request and response objects and their attributes. ';

describe('a source listing in search', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  beforeAll(async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/ref/request-response`, title: 'Request and response objects', headings: ['JsonResponse objects'], text: `${PROSE.repeat(12)} JsonResponse: an HttpResponse subclass that helps to create a JSON-encoded response. ${PROSE.repeat(12)}` },
      { url: `${S}/_modules/test/client`, title: 'django.test.client', headings: ['Source code for django.test.client'], text: `Source code for django.test.client ${CODE}`, codeShare: CODE.length / (CODE.length + 36) },
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });

  it('ranks the page documenting the code above the listing of it, and says why', () => {
    const hits = engine.search(query('return json response'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => h.url)).toEqual([`${S}/ref/request-response`, `${S}/_modules/test/client`]);
    const listing = hits[1]!.explain!;
    expect(listing.listingShare).toBeGreaterThan(0.95);
    expect(listing.listingFactor).toBeLessThan(0.6);
    expect(listing.textScore * listing.linkBoost * listing.hubFactor * listing.listingFactor * listing.proximityFactor).toBeCloseTo(hits[1]!.score, 6);
    // Without the demotion the listing, saying the words more often, would come first.
    expect(listing.textScore).toBeGreaterThan(hits[0]!.explain!.textScore);
  });
});
