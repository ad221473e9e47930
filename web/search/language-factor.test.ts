// A translation ranks below its site's own language (rank.ts languageFactor): a manual published in
// several languages, as Apache httpd's is, has every answer in each of them, with the same names, code
// and quoted messages, and the shorter translation outscored the original for an English query.

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { type PageSpec } from '../../test/support/index-fixture.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { DEFAULT_RANK_PARAMS, languageFactor, mainLanguages } from './rank.js';

describe('languageFactor and mainLanguages', () => {
  it("lowers a page whose known language is not its site's main language, and nothing else", () => {
    const p = { ...DEFAULT_RANK_PARAMS, otherLanguageFactor: 0.5 };
    expect(languageFactor(p, 'fr', 'en')).toBe(0.5);
    expect(languageFactor(p, 'en', 'en')).toBe(1);
    expect(languageFactor(p, '', 'en')).toBe(1);
    expect(languageFactor(p, 'fr', '')).toBe(1);
    expect(languageFactor({ ...p, otherLanguageFactor: 1 }, 'fr', 'en')).toBe(1);
  });

  it("takes each site's commonest known language, none when two tie", () => {
    const site = ['a', 'a', 'a', 'a', 'b', 'b', 'c', 'c'];
    const languages = ['en', 'fr', 'en', '', 'fr', '', 'en', 'de'];
    expect(mainLanguages(languages, (d) => site[d]!)).toEqual(['en', 'en', 'en', 'en', 'fr', 'fr', '', '']);
  });
});

const S = 'http://manual.test';
const F = 'http://docs.example.fr';
// The English reference page is longer: it documents another directive first (within the words of its
// opening, lead.ts, as its translations' openings hold the name too).
const OTHER = Array.from({ length: 1 }, (_, i) => `Directive${i} sets how the server handles case ${i} of a request and its connection.`).join(' ');
const en: PageSpec = { url: `${S}/en/mod/core.html`, title: 'core - HTTP Server', language: 'en', text: `${OTHER} KeepAliveTimeout is the number of seconds the server waits for a subsequent request before closing the connection. KeepAliveTimeout 5` };
// Its translations hold the section alone, so the name weighs more in their shorter text.
const fr: PageSpec = { url: `${S}/fr/mod/core.html`, title: 'core - Serveur HTTP', language: 'fr', text: "KeepAliveTimeout : le nombre de secondes pendant lesquelles le serveur attend une requête. KeepAliveTimeout 5" };
const tr: PageSpec = { url: `${S}/tr/mod/core.html`, title: 'core - HTTP Sunucusu', language: 'tr', text: 'KeepAliveTimeout: sunucunun bir sonraki isteği bekleme süresi. KeepAliveTimeout 5' };
const PAGES: PageSpec[] = [
  en,
  fr,
  tr,
  // The rest of the English manual: its main language.
  ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/en/guide-${i}.html`, title: `Guide ${i}`, language: 'en', text: `Guide ${i} explains how the server handles requests and connections.` })),
  // Another site, all in French: its pages are in its own main language.
  { url: `${F}/serveur.html`, title: 'Réglages du serveur', language: 'fr', text: 'KeepAliveTimeout : délai d’attente. KeepAliveTimeout 10' },
  { url: `${F}/autre.html`, title: 'Autre page', language: 'fr', text: 'Une autre page du serveur.' },
];

describe('a translation ranks below its site’s own language', () => {
  const engineOf = fixtureEngine(PAGES);
  const without = fixtureEngine(PAGES, { rank: { ...DEFAULT_RANK_PARAMS, otherLanguageFactor: 1 } });
  const urls = (engine: ReturnType<typeof engineOf>, q: string) => engine.search(parseQuery(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);

  it('puts the original above its shorter translations, which outscore it on text alone', () => {
    const plain = urls(without(), 'KeepAliveTimeout');
    expect(plain.indexOf(fr.url)).toBeLessThan(plain.indexOf(en.url));
    const ranked = urls(engineOf(), 'KeepAliveTimeout');
    expect(ranked.indexOf(en.url)).toBeLessThan(ranked.indexOf(fr.url));
    expect(ranked.indexOf(en.url)).toBeLessThan(ranked.indexOf(tr.url));
  });

  it('says why: the factor, the site’s language, and a score that follows from the parts', () => {
    const hits = engineOf().search(parseQuery('KeepAliveTimeout'), { offset: 0, limit: 10, explain: true }).hits;
    const byUrl = new Map(hits.map((h) => [h.url, h.explain!]));
    expect(byUrl.get(fr.url)!.languageFactor).toBe(0.5);
    expect(byUrl.get(fr.url)!.siteLanguage).toBe('en');
    expect(byUrl.get(en.url)!.languageFactor).toBe(1);
    // The French site's page is in its own site's language.
    expect(byUrl.get(`${F}/serveur.html`)!.languageFactor).toBe(1);
    expect(byUrl.get(`${F}/serveur.html`)!.siteLanguage).toBe('fr');
    for (const e of byUrl.values()) expect(e.textScore * e.linkBoost * e.hubFactor * e.listingFactor * e.languageFactor * e.proximityFactor * e.nameTitleFactor * e.openingFactor).toBeCloseTo(e.score, 6);
  });

  it('still finds a translation first when lang: asks for its language', () => {
    expect(urls(engineOf(), 'KeepAliveTimeout lang:fr site:manual.test')[0]).toBe(fr.url);
  });
});
