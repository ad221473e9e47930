// Recall without giving up precision, over a small indexed store: partial matches follow the full ones
// with the words they lack, and site: with a port keeps to that server.

import { describe, expect, it } from 'vitest';
import { anyOf, query, type PageSpec } from '../../test/support/index-fixture.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { parseQuery } from '../query/index.js';
import { runSearch } from '../run-search.js';
import { WEB_DEFAULTS } from '../defaults.js';
import { lackingCount, queriesLacking } from './partial.js';

const A = 'http://127.0.0.1:8081';
const B = 'http://127.0.0.1:8082';
const PAGES: PageSpec[] = [
  { url: `${A}/search`, title: 'Binary search trees', text: 'A binary search tree keeps keys in order; search walks down the tree.' },
  { url: `${A}/sorting`, title: 'Sorting', text: 'Merge sort and quicksort order a list; a tree sort uses a search tree.' },
  { url: `${A}/heap`, title: 'Heaps', text: 'A binary heap is a tree kept in an array.' },
  { url: `${A}/graphs`, title: 'Graphs', text: 'Breadth-first search visits a graph level by level.' },
  { url: `${B}/search`, title: 'Search on the other server', text: 'The other server also has a binary search tree page.' },
  { url: `${B}/cooking`, title: 'Cooking', text: 'Soup, bread and cake.' },
  { url: `${A}/partitions`, title: 'Table partitions', text: 'Partitioning splits a table; each partition holds rows. Partitioned tables need a key.' },
  { url: `${A}/es/arboles`, title: 'Árboles', text: 'Un árbol binario de búsqueda guarda las claves en orden y la búsqueda baja por el árbol.', language: '' },
  { url: `${A}/partition-keys`, title: 'Partition keys', text: 'A partition key chooses the partition of a row.' },
  { url: `${A}/json`, title: 'JSON functions', text: 'json_extract(doc, path) extracts a value; extract more with json_each. Extract, extract.' },
];

describe('partial matches and site: with a port', () => {
  const engineOf = fixtureEngine(PAGES);
  const run = (q: string, limit = 10) => engineOf().search(query(q), { offset: 0, limit });

  it('few every-word matches: partial ones follow, each naming the words it lacks, full ones first', () => {
    const r = run('binary search tree');
    expect(r.total).toBe(2);
    const full = r.hits.slice(0, 2);
    expect(full.map((h) => h.missing)).toEqual([undefined, undefined]);
    expect(new Set(full.map((h) => h.url))).toEqual(new Set([`${A}/search`, `${B}/search`]));
    const partial = r.hits.slice(2);
    expect(partial.length).toBeGreaterThanOrEqual(3);
    const byUrl = new Map(partial.map((h) => [h.url, h.missing]));
    expect(byUrl.get(`${A}/heap`)).toEqual(['search']);
    expect(byUrl.get(`${A}/sorting`)).toEqual(['binary']);
    expect(byUrl.get(`${A}/graphs`)).toEqual(['binary', 'tree']);
    // Pages with two of the three words come before the page with one.
    const at = (url: string) => partial.findIndex((h) => h.url === url);
    expect(at(`${A}/graphs`)).toBeGreaterThan(Math.max(at(`${A}/heap`), at(`${A}/sorting`)));
    expect(byUrl.has(`${B}/cooking`)).toBe(false);
  });

  it('no every-word match: the partial matches are the results, and a word unknown to the index is named', () => {
    const r = run('binary zebra');
    expect(r.total).toBe(0);
    expect(r.hits.length).toBeGreaterThan(0);
    for (const h of r.hits) expect(h.missing).toEqual(['zebra']);
  });

  it('a page full of every-word matches gets no partial ones; neither does a one-word query nor a pasted sentence', () => {
    expect(run('binary search tree', 2).hits.every((h) => h.missing === undefined)).toBe(true);
    expect(run('zebra').hits).toEqual([]);
    expect(run('binary zebra').hits.length).toBeGreaterThan(0);
    expect(run('binary zebra one two three four five six seven').hits).toEqual([]);
  });

  it('exclusions and filters hold for partial matches too', () => {
    const urls = run('binary search tree -heap').hits.map((h) => h.url);
    expect(urls).not.toContain(`${A}/heap`);
    expect(run('binary search tree site:127.0.0.1:8082').hits.map((h) => h.url)).toEqual([`${B}/search`]);
  });

  it('lang: finds a page that declares no language by the language of its text', () => {
    expect(run('binario lang:es').hits.map((h) => h.url)).toEqual([`${A}/es/arboles`]);
    expect(run('binario lang:en').hits).toEqual([]);
  });

  it('did you mean offers the surface word that was meant, not the display word of its stem', () => {
    expect(run('partioning').didYouMean?.query).toBe('partitioning');
  });

  it('did you mean leaves alone a word whose OR alternative the pages have', () => {
    // "partioning" alone is offered its correction; beside "tree", which many pages hold, it is answered.
    expect(engineOf().search(parseQuery('partioning OR tree'), { offset: 0, limit: 10 }).didYouMean).toBeUndefined();
    expect(engineOf().search(parseQuery('partioning OR zebrra'), { offset: 0, limit: 10 }).didYouMean?.query).toBe('partitioning OR zebrra');
  });

  it('did you mean corrects a misspelt part of an identifier, keeping the name whole', () => {
    // parseQuery, not the fixture's query(): it keeps the identifier whole.
    const result = engineOf().search(parseQuery('json_extrct'), { offset: 0, limit: 10 });
    expect(result.didYouMean).toEqual({ query: 'json_extract', replacements: { extrct: 'extract' }, sure: true });
  });

  it('site:host:port keeps to that server; site:host to every port of the host', () => {
    expect(run('search site:127.0.0.1:8082').hits.map((h) => h.url)).toEqual([`${B}/search`]);
    expect(run('search site:127.0.0.1:8081').hits.every((h) => h.url.startsWith(A))).toBe(true);
    expect(run('search site:127.0.0.1').hits.some((h) => h.url.startsWith(B))).toBe(true);
    expect(run('search -site:127.0.0.1:8081').hits.map((h) => h.url)).toEqual([`${B}/search`]);
    expect(run('search site:127.0.0.1:9999').hits).toEqual([]);
  });
});

describe('a correction is searched at once only when it is sure', () => {
  const S = 'http://docs.test';
  const pages: PageSpec[] = [
    { url: `${S}/redirection`, title: 'Redirection', text: 'Redirect the standard error of a command with 2> file; redirect output with >.' },
    { url: `${S}/signals`, title: 'Signals', text: 'The SIGERR signal is sent on an error return; a trap may redirect its output.' },
    { url: `${S}/vacuum`, title: 'Vacuum', text: 'Vacuum reclaims storage; vacuum freeze marks rows frozen.' },
    ...Array.from({ length: 6 }, (_, i) => ({ url: `${S}/other-${i}`, title: `Other ${i}`, text: `Other page ${i}.` })),
  ];
  const engineOf = fixtureEngine(pages);

  it('offers a rare word two edits away, but searches the query as typed, its partial matches first', () => {
    const run = runSearch(engineOf(), 'redirect stderr', 1, 10, WEB_DEFAULTS);
    expect(run.result.didYouMean).toMatchObject({ query: 'redirect sigerr' });
    expect(run.result.didYouMean?.sure).toBeUndefined();
    expect(run.corrected).toBeUndefined();
    expect(run.result.hits[0]?.url).toBe(`${S}/redirection`);
  });

  it('searches a word one edit away at once', () => {
    const run = runSearch(engineOf(), 'vacum', 1, 10, WEB_DEFAULTS);
    expect(run.corrected).toEqual({ literal: 'vacum' });
    expect(run.result.hits[0]?.url).toBe(`${S}/vacuum`);
  });
});

describe("a partial match's words are another language's stems only on that language's pages", () => {
  const S = 'http://lab.test';
  // French "carriers" stems to "carri", as English "carrying" does: on an English page the French
  // stem is no sign of the query word. The French page keeps the French stems in the plan.
  const pages: PageSpec[] = [
    { url: `${S}/metabolism`, title: 'Alcohol metabolism', text: 'Aldehyde dehydrogenase breaks down alcohol; people carrying the variant flush.' },
    { url: `${S}/outlets`, title: 'Alcohol outlets', text: 'The density of alcohol outlets and alcohol sales.' },
    { url: `${S}/fr`, title: 'Les transporteurs', text: 'Les carriers transportent des colis et des palettes chaque jour.', language: 'fr' },
  ];
  const engineOf = fixtureEngine(pages);

  it('names the word an English page lacks, though its words have the French stem', () => {
    const r = engineOf().search(query('carriers alcohol aldehyde'), { offset: 0, limit: 10 });
    expect(r.total).toBe(0);
    const missing = new Map(r.hits.map((h) => [h.url, h.missing]));
    expect(missing.get(`${S}/metabolism`)).toEqual(['carriers']);
    expect(missing.get(`${S}/outlets`)).toEqual(['carriers', 'aldehyde']);
    expect(r.hits[0]?.url).toBe(`${S}/metabolism`);
  });
});

describe('the pages lacking one word come before those lacking more, however low they score', () => {
  const S = 'http://pool.test';
  // Twelve short pages about "zeta" alone outscore, on any word, the one long page having both "beta"
  // and "gamma": taken from the best of the any-word query (ten for a page of two), it was never seen.
  const filler = Array.from({ length: 400 }, (_, i) => `filler${i % 50}`).join(' ');
  const pages: PageSpec[] = [
    { url: `${S}/long`, title: 'Notes', text: `${filler} beta ${filler} gamma ${filler}` },
    ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/zeta-${i}`, title: `Zeta ${i}`, text: 'Zeta zeta zeta.' })),
    ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/beta-${i}`, title: `Page ${i}`, text: 'A beta.' })),
    ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/gamma-${i}`, title: `Leaf ${i}`, text: 'A gamma.' })),
  ];
  const engineOf = fixtureEngine(pages);

  it('finds the page lacking one word first, and explains it by the words it has', () => {
    const r = engineOf().search(query('zeta beta gamma'), { offset: 0, limit: 2 });
    expect(r.total).toBe(0);
    expect(r.hits[0]?.url).toBe(`${S}/long`);
    expect(r.hits[0]?.missing).toEqual(['zeta']);
    expect(r.hits[1]?.missing?.length).toBe(2);
    // The any-word query ranks the long page below ten others: the pool it was taken from held none of it.
    const anyWord = engineOf().search(anyOf('zeta beta gamma'), { offset: 0, limit: 10 });
    expect(anyWord.total).toBeGreaterThan(10);
    expect(anyWord.hits.map((h) => h.url)).not.toContain(`${S}/long`);
    const e = r.hits[0]!.explain!;
    expect(new Set(e.terms.map((t) => t.token))).toEqual(new Set(['beta', 'gamma']));
    expect(e.textScore).toBeCloseTo(e.terms.reduce((sum, t) => sum + t.contribution, 0), 6);
  });

  it('no page lacks only one word: those lacking two are found, the fewest missing first', () => {
    // "delta" is on no page: every page lacks it and one more of the four.
    const r = engineOf().search(query('zeta beta gamma delta'), { offset: 0, limit: 3 });
    expect(r.total).toBe(0);
    expect(r.hits[0]?.url).toBe(`${S}/long`);
    expect(r.hits[0]?.missing).toEqual(['zeta', 'delta']);
    for (const h of r.hits.slice(1)) expect(h.missing?.length).toBe(3);
  });

  it('the queries lacking groups leave out every choice of them and keep the filters', () => {
    expect(queriesLacking(query('zeta'), 1)).toEqual([]);
    const one = queriesLacking(query('zeta beta -gamma site:pool.test'), 1);
    expect(one.map((q) => q.required.flat().map((a) => a.text))).toEqual([['beta'], ['zeta']]);
    for (const q of one) expect({ excluded: q.excluded.map((a) => a.text), sites: q.sites }).toEqual({ excluded: ['gamma'], sites: ['pool.test'] });
    const two = queriesLacking(query('a1 b2 c3 d4'), 2);
    expect(two.map((q) => q.required.flat().map((a) => a.text).join(' '))).toEqual(['c3 d4', 'b2 d4', 'b2 c3', 'a1 d4', 'a1 c3', 'a1 b2']);
    expect(queriesLacking(query('a1 b2 c3 d4'), 4)).toEqual([]);
    expect([lackingCount(4, 2), lackingCount(5, 2), lackingCount(8, 1), lackingCount(4, 3)]).toEqual([6, 10, 8, 4]);
  });
});
