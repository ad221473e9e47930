// Ranking set over a small site written to a real store, indexed and searched: each case names the
// query, the page expected on top, and why.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/index.js';
import { DEFAULT_LEAD_OPTIONS, DEFAULT_RANK_PARAMS, openSearchEngine, type GleanerSearchEngine, type RankParams } from './index.js';
import { anyOf, query, tempDataDir, writePages, type PageSpec } from '../../test/support/index-fixture.js';
import { isStopword, tokenize } from '../../shared/analysis/index.js';

const S = 'http://intranet.test';
const PAGES: PageSpec[] = [
  { url: `${S}/`, title: 'Acme intranet', text: 'Welcome to the Acme intranet. Find the handbook, the canteen menu and the library.', links: [[`${S}/handbook`, 'Employee handbook'], [`${S}/canteen`, 'Canteen menu'], [`${S}/library`, 'Library']] },
  { url: `${S}/handbook`, title: 'Employee handbook', headings: ['Holidays', 'Expenses'], text: 'The handbook explains holidays, expenses and travel rules for every employee.', links: [`${S}/`, `${S}/travel`] },
  { url: `${S}/travel`, title: 'Travel policy', text: 'Book travel through the portal. Expenses for travel are refunded within a month. Holidays are not travel.', links: [[`${S}/handbook`, 'handbook']] },
  { url: `${S}/canteen`, title: 'Canteen menu', text: 'Monday: soup. Tuesday: fish. The canteen opens at noon.', links: [[`${S}/handbook`, 'Employee handbook']] },
  { url: `${S}/library`, title: 'Library', text: 'The library lends books and journals. Ask the librarian about the reading room.', links: [[`${S}/handbook`, 'rules']] },
  { url: `${S}/blog/expenses`, title: 'A post about expenses', text: 'Expenses expenses expenses: a rant about filling forms for expenses.', links: [] },
  { url: `${S}/es/biblioteca`, title: 'Biblioteca', text: 'Las bibliotecas públicas prestan libros a todos los empleados.', language: 'es', links: [[`${S}/library`, 'library']] },
  { url: `${S}/zh/about`, title: '关于我们', text: '我们在北京大学旁边工作。公司的图书馆很大。', language: 'zh', links: [`${S}/`] },
  { url: `${S}/ru/news`, title: 'Новости', text: 'Новая библиотека открылась для сотрудников. Книги можно брать домой.', language: 'ru', links: [`${S}/`] },
  { url: `${S}/secret`, title: 'Secret handbook draft', text: 'Handbook draft, do not index.', index: false, links: [[`${S}/handbook`, 'handbook']] },
  { url: `${S}/copy`, title: 'Canteen menu', text: 'Monday: soup. Tuesday: fish. The canteen opens at noon.', state: 'duplicate', duplicateOf: `${S}/canteen` },
  { url: `${S}/old`, title: 'Old page', text: 'gone', state: 'gone' },
  { url: `${S}/food/lunch`, title: 'Lunch', text: 'Lunch specials of the week.', links: [] },
  { url: `${S}/news/lunch`, title: 'Lunch', text: 'Lunch specials of this week.', links: [] },
  { url: `${S}/a`, title: 'A', text: 'x', links: [`${S}/food/lunch`] },
  { url: `${S}/b`, title: 'B', text: 'y', links: [`${S}/food/lunch`, `${S}/news/lunch`] },
  { url: `${S}/c`, title: 'C', text: 'z', links: [`${S}/food/lunch`] },
  { url: `${S}/people`, title: 'People', text: 'Lin Wei runs the front desk.', links: [] },
  { url: `${S}/rooms/quiet`, title: 'Quiet rooms', headings: ['Study room', 'Reading room'], text: 'Rooms for quiet work, reading or writing. Book a room at the desk.', links: [] },
  { url: `${S}/news/move`, title: 'We moved', text: 'Reading the news about the move: the room for the library is bigger. Reading lists and room plans follow, room by room.', links: [] },
  { url: `http://other.test/`, title: 'Other site handbook', text: 'Another handbook on another host.', links: [[`${S}/handbook`, 'Acme handbook']] },
];

describe('search over an indexed store', () => {
  let engine: GleanerSearchEngine;
  let cleanup: () => Promise<void>;
  let dataDir: string;
  beforeAll(async () => {
    const tmp = await tempDataDir();
    cleanup = tmp.cleanup;
    dataDir = tmp.dir;
    await writePages(tmp.dir, PAGES);
    await buildIndex(tmp.dir);
    engine = await openSearchEngine(tmp.dir);
  });
  afterAll(async () => {
    engine.close();
    await cleanup();
  });
  // Every-word matches only: partial ones (recall.test.ts) follow them when they are few.
  const top = (q: string) => engine.search(query(q), { offset: 0, limit: 10 }).hits.filter((h) => h.missing === undefined).map((h) => h.url);

  it('handbook -> /handbook: the word is its title, and it has the most inbound links and anchors', () => {
    expect(top('handbook')[0]).toBe(`${S}/handbook`);
  });
  it('lunch specials -> /food/lunch over /news/lunch: the same words, but 3 inbound links to 1', () => {
    expect(top('lunch specials').slice(0, 2)).toEqual([`${S}/food/lunch`, `${S}/news/lunch`]);
  });
  it('expenses -> the page titled with the word beats one that only has it as a heading', () => {
    expect(top('expenses')[0]).toBe(`${S}/blog/expenses`);
  });
  it('travel rules -> every required word must match (AND)', () => {
    expect(top('travel rules')).toEqual([`${S}/handbook`]);
  });
  it('travel|canteen -> alternatives match either word', () => {
    expect(new Set(top('travel|canteen'))).toEqual(new Set([`${S}/travel`, `${S}/handbook`, `${S}/canteen`, `${S}/`]));
  });
  it('a phrase matches only words in a row', () => {
    expect(new Set(top('"reading_room"'))).toEqual(new Set([`${S}/library`, `${S}/rooms/quiet`]));
    expect(top('"room_reading"')).toEqual([]);
  });
  it('-word excludes pages with the word', () => {
    expect(top('expenses -travel')).not.toContain(`${S}/travel`);
    expect(top('expenses -travel')).not.toContain(`${S}/handbook`);
  });
  it('intitle: restricts to the title field', () => {
    expect(top('intitle:travel')).toEqual([`${S}/travel`]);
  });
  it('site: and -site: filter by host', () => {
    expect(top('handbook site:other.test')).toEqual(['http://other.test/']);
    expect(top('handbook -site:intranet.test')).toEqual(['http://other.test/']);
  });
  it('noindex, duplicate and gone pages are never results', () => {
    const all = [...top('handbook'), ...top('canteen'), ...top('gone')];
    expect(all).not.toContain(`${S}/secret`);
    expect(all).not.toContain(`${S}/copy`);
    expect(all).not.toContain(`${S}/old`);
  });
  it('Spanish: a plural query word finds the Spanish page without lang:es', () => {
    expect(top('bibliotecas')).toContain(`${S}/es/biblioteca`);
    expect(top('biblioteca lang:es')).toEqual([`${S}/es/biblioteca`]);
  });
  it('a Spanish stem of a query word counts in Spanish pages only: "line" (Spanish stem "lin") does not find "Lin Wei"', () => {
    expect(top('line')).toEqual([]);
  });
  it('reading room -> the page with the heading "Reading room" before one that has both words apart more often', () => {
    const urls = top('reading room');
    expect(urls.indexOf(`${S}/rooms/quiet`)).toBeLessThan(urls.indexOf(`${S}/news/move`));
  });
  it('Chinese: a two-character word finds its page', () => {
    expect(top('北京')).toEqual([`${S}/zh/about`]);
    expect(top('图书')).toEqual([`${S}/zh/about`]);
    expect(top('"北京大学"')).toEqual([`${S}/zh/about`]);
    expect(top('"大学北京"')).toEqual([]);
  });
  it('Russian: an inflected form finds the page', () => {
    expect(top('библиотеки')).toEqual([`${S}/ru/news`]);
  });
  it('explains each hit: per-field contributions sum to the text score, link boost times text is the score', () => {
    const hit = engine.search(query('handbook'), { offset: 0, limit: 1 }).hits[0]!;
    const sum = hit.explain!.terms.reduce((s, t) => s + t.contribution, 0);
    expect(sum).toBeCloseTo(hit.explain!.textScore, 6);
    expect(hit.explain!.textScore * hit.explain!.linkBoost * hit.explain!.hubFactor * hit.explain!.listingFactor * hit.explain!.proximityFactor * hit.explain!.openingFactor).toBeCloseTo(hit.score, 6);
    expect(hit.explain!.terms.map((t) => t.field)).toEqual(expect.arrayContaining(['title', 'anchor', 'body']));
    // /, /travel, /canteen, /library, /secret (noindex pages still link), other.test
    expect(hit.explain!.inboundLinks).toBe(6);
  });
  it('leaves explanations out when asked to, and nothing else changes', () => {
    const explained = engine.search(query('handbook'), { offset: 0, limit: 10 });
    const plain = engine.search(query('handbook'), { offset: 0, limit: 10, explain: false });
    expect(plain.hits.length).toBeGreaterThan(1);
    expect(plain.hits.every((h) => h.explain === undefined)).toBe(true);
    expect(explained.hits.every((h) => h.explain !== undefined)).toBe(true);
    const { tookMs: _a, ...a } = explained;
    const { tookMs: _b, ...b } = plain;
    expect({ ...b, hits: b.hits }).toEqual({ ...a, hits: a.hits.map(({ explain: _, ...h }) => h) });
  });
  it('"why this result" shows exactly the parts that rank: each hit\'s score follows from them alone', () => {
    const hits = engine.search(query('handbook'), { offset: 0, limit: 10 }).hits;
    expect(hits.length).toBeGreaterThan(1);
    for (const hit of hits) {
      const e = hit.explain!;
      // A figure shown here that the score does not use (PageRank, linking hosts) would be a part that does not rank.
      // The store was crawled with block boundaries: links from page content are told from template links.
      expect(Object.keys(e).sort()).toEqual(['contentLinkWeight', 'contentLinks', 'hubFactor', 'hubShare', 'inboundLinks', 'languageFactor', 'linkBoost', 'listingFactor', 'listingShare', 'nameTitleFactor', 'openingFactor', 'openingWords', 'proximityFactor', 'queryWords', 'score', 'siteLanguage', 'templateLinkWeight', 'terms', 'textScore']);
      expect(e.terms.reduce((s, t) => s + t.contribution, 0)).toBeCloseTo(e.textScore, 6);
      expect(e.contentLinkWeight).toBe(DEFAULT_RANK_PARAMS.contentLinkWeight);
      expect(e.templateLinkWeight).toBe(DEFAULT_RANK_PARAMS.templateLinkWeight);
      const content = e.contentLinks!;
      expect(e.linkBoost).toBeCloseTo(1 + e.contentLinkWeight! * Math.log(1 + content) + e.templateLinkWeight! * Math.log(1 + e.inboundLinks - content), 12);
      // One word: no pairs, so proximity multiplies by 1; no title here holds it inside a code name.
      expect(e.proximityFactor).toBe(1);
      expect(e.nameTitleFactor).toBe(1);
      expect(e.languageFactor).toBe(1);
      // One plain word: the opening rule looked at it, and its factor is 1 + weight when the page's text opens with it.
      expect(e.queryWords).toBe(1);
      expect(e.openingFactor).toBeCloseTo(1 + (DEFAULT_LEAD_OPTIONS.weight * e.openingWords!) / e.queryWords!, 12);
      expect(e.textScore * e.linkBoost * e.hubFactor * e.listingFactor * e.languageFactor * e.openingFactor).toBeCloseTo(hit.score, 6);
      expect(e.score).toBe(hit.score);
    }
  });
  it('snippets highlight the query words', () => {
    const hit = engine.search(query('librarian'), { offset: 0, limit: 1 }).hits[0]!;
    expect(hit.highlights.length).toBeGreaterThan(0);
    const [a, b] = hit.highlights[0]!;
    expect(hit.snippet.slice(a, b).toLowerCase()).toMatch(/^librar/);
    expect(hit.snippet).toContain('librarian');
  });
  it('did you mean: an unknown word gets the closest frequent word', () => {
    const result = engine.search(query('handbok'), { offset: 0, limit: 10 });
    expect(result.total).toBe(0);
    expect(result.didYouMean?.replacements).toEqual({ handbok: 'handbook' });
  });
  it('suggest completes a prefix from the vocabulary', () => {
    expect(engine.suggest('hand', 5)).toContain('handbook');
    expect(engine.suggest('the hand', 5)).toContain('the handbook');
  });
  it('an OR query of more than 32 words (two words of match bits) matches exactly the union of its words', () => {
    const words = [...new Set(PAGES.flatMap((p) => (p.text ?? '').split(/[^A-Za-z]+/)))].filter((w) => w.length > 2 && !tokenize(w).every(isStopword)).slice(0, 40);
    expect(words.length).toBeGreaterThan(32);
    const union = new Set<string>();
    for (const w of [...words, 'reading room']) for (const h of engine.search(query(w), { offset: 0, limit: 100 }).hits) union.add(h.url);
    // "reading-room" comes last, so its two bits are in the second mask word.
    const all = engine.search(anyOf([...words, 'reading-room'].join(' ')), { offset: 0, limit: 100 });
    expect(new Set(all.hits.map((h) => h.url))).toEqual(union);
    expect(all.total).toBe(union.size);
  });
  it('the pruned scan for a short result page returns the same top as a long page', () => {
    for (const text of ['handbook travel expenses canteen', 'library books reading-room soup', 'lunch week holidays']) {
      const long = engine.search(anyOf(text), { offset: 0, limit: 100 });
      const short = engine.search(anyOf(text), { offset: 0, limit: 2 });
      expect(short.hits.map((h) => h.url)).toEqual(long.hits.slice(0, 2).map((h) => h.url));
      expect(short.total).toBe(long.total);
    }
  });
  it('galloping through common words gives the same results as scanning them', async () => {
    const always = await openSearchEngine(dataDir, { gallopRatio: 0 });
    const never = await openSearchEngine(dataDir, { gallopRatio: Infinity });
    try {
      for (const q of ['handbook the', 'travel rules', 'lunch specials week', 'reading room', 'canteen -fish', 'intitle:travel the', 'expenses travel|canteen']) {
        const a = always.search(query(q), { offset: 0, limit: 20 });
        const b = never.search(query(q), { offset: 0, limit: 20 });
        expect(a.hits.map((h) => [h.url, h.score])).toEqual(b.hits.map((h) => [h.url, h.score]));
        expect(a.total).toBe(b.total);
      }
      for (const text of ['the handbook of travel expenses', 'books reading room the library']) {
        expect(always.search(anyOf(text), { offset: 0, limit: 5 }).hits.map((h) => h.url)).toEqual(never.search(anyOf(text), { offset: 0, limit: 5 }).hits.map((h) => h.url));
      }
    } finally {
      always.close();
      never.close();
    }
  });
  it('pages and total agree with offsets', () => {
    const all = engine.search(query('the'), { offset: 0, limit: 100 });
    const page2 = engine.search(query('the'), { offset: 2, limit: 2 });
    expect(page2.total).toBe(all.total);
    expect(page2.hits.map((h) => h.url)).toEqual(all.hits.slice(2, 4).map((h) => h.url));
  });
});

// Long pages that repeat their words, as reference documentation does: k1 is in units of how often this
// index's pages repeat a word (rank.ts), so a body's repetitions do not drown what names a page.
describe('ranking over verbose pages', () => {
  const D = 'http://docs.test';
  const repeat = (words: string[], times: number) => Array.from({ length: times }, () => words.join(' ')).join('. ');
  const filler = ['configure', 'option', 'value', 'setting', 'default', 'return', 'argument', 'module'];
  const VERBOSE: PageSpec[] = [
    // Named "Widgets", uses the word a dozen times in a long text.
    { url: `${D}/widgets`, title: 'Widgets', text: `${repeat(['widget', ...filler.slice(0, 4)], 12)}. ${repeat(filler, 20)}`, links: [] },
    // Never named so, uses the word 16 times, and every other page links to it.
    { url: `${D}/reference`, title: 'Library reference', text: `${repeat(['widget', ...filler.slice(4)], 16)}. ${repeat(filler, 20)}`, links: [] },
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ url: `${D}/${id}`, title: `Chapter ${id}`, text: repeat(filler, 12), links: [[`${D}/reference`, 'reference'] as [string, string]] })),
  ];
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDataDir();
    await writePages(dir.dir, VERBOSE);
    await buildIndex(dir.dir);
  });
  afterAll(async () => {
    await dir.cleanup();
  });
  const top = async (rank: Partial<RankParams>, q: string) => {
    const engine = await openSearchEngine(dir.dir, { rank: { ...DEFAULT_RANK_PARAMS, ...rank } });
    try {
      return engine.search(query(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);
    } finally {
      engine.close();
    }
  };
  it('widgets -> the page titled Widgets, not the more linked page that repeats the word more often', async () => {
    expect((await top({}, 'widgets'))[0]).toBe(`${D}/widgets`);
  });
  it('with a k1 far below how often these pages repeat words, the body saturates and the title stops counting', async () => {
    expect((await top({ k1: 0.05 }, 'widgets'))[0]).toBe(`${D}/reference`);
  });
});
