import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RANK_PARAMS, listingFactor, listingSites } from './rank.js';
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
  it('demotes no page of a site whose pages are mostly listings', () => {
    expect(listingFactor(p, 1, true)).toBe(1);
    // Site a: two listings of three pages; site b: one of two (half is not most).
    const sites = ['a', 'a', 'a', 'b', 'b'];
    expect([...listingSites([1, 0.95, 0.1, 1, 0], 0.8, (d) => sites[d]!)]).toEqual([1, 1, 1, 0, 0]);
    expect([...listingSites([0.8, 0.8, 0], 0.8, () => 'a')]).toEqual([0, 0, 0]);
  });
});

// A site of manual pages, each set in one <pre> by man2html (Postfix's): prose in a fixed font, and no
// page of it is demoted as a listing, as the one page of Django's source among its guides is (below).
describe('a site whose pages are all listings', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  const man = (name: string, what: string) => `${name.toUpperCase()}(1) NAME ${name} - ${what}. SYNOPSIS ${name} [options] DESCRIPTION The ${name} command ${what}.`;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(
      ['postmap', 'postqueue', 'postsuper'].map((name) => {
        const text = man(name, `manages the ${name} lookup tables of the mail system`);
        return { url: `${S}/${name}.1.html`, title: `${name}(1)`, text, codeShare: 1 };
      }),
    );
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });

  it('leaves each page its whole score, and shows the factor as 1', () => {
    const hit = engine.search(query('postmap lookup tables'), { offset: 0, limit: 10 }).hits[0]!;
    expect(hit.url).toBe(`${S}/postmap.1.html`);
    expect(hit.explain!.listingShare).toBeGreaterThan(0.95);
    expect(hit.explain!.listingFactor).toBe(1);
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
    expect(listing.textScore * listing.linkBoost * listing.hubFactor * listing.listingFactor * listing.proximityFactor * listing.openingFactor).toBeCloseTo(hits[1]!.score, 6);
    // Without the demotion the listing, saying the words more often, would come first.
    expect(listing.textScore).toBeGreaterThan(hits[0]!.explain!.textScore);
  });
});
