// A language is one file: shared/analysis/languages/fr.ts is the whole of French, and the indexer and
// the searcher use it without naming it. Pages declared `fr` are stemmed with the French Snowball
// stemmer, and a query word in another inflection finds them, with a highlighted snippet and phrases.

import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languages } from '../shared/analysis/index.js';
import { openSearchEngine, type GleanerSearchEngine } from '../web/search/index.js';
import { buildFixtureIndex, query, type FixtureDir } from './support/index-fixture.js';

const S = 'http://mairie.test';

describe('adding a language is adding one file to shared/analysis/languages/', () => {
  it('every language file there is registered, with nothing else to edit', () => {
    const files = readdirSync(new URL('../shared/analysis/languages/', import.meta.url)).filter((n) => /^[a-z]{2}\.ts$/.test(n));
    expect(files).toContain('fr.ts');
    expect(languages().map((l) => `${l.code}.ts`).sort()).toEqual(files.sort());
  });
});

describe('French pages, indexed and searched through the registry', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  beforeAll(async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/bibliotheques`, title: 'Nos bibliothèques', text: 'Les bibliothèques municipales prêtent des livres à tous les habitants.', language: 'fr' },
      { url: `${S}/piscine`, title: 'La piscine', text: 'La piscine municipale ouvre le samedi.', language: 'fr' },
      { url: `${S}/library`, title: 'Library', text: 'The library lends books.', language: 'en' },
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });
  // Every-word matches: partial ones (web/search/partial.ts) may follow them.
  const search = (q: string) => engine.search(query(q), { offset: 0, limit: 10 }).hits.filter((h) => h.missing === undefined);

  it('a singular query word finds the page with the plural (French stems meet), highlighted in the snippet', () => {
    const hits = search('bibliothèque');
    expect(hits.map((h) => h.url)).toEqual([`${S}/bibliotheques`]);
    const [a, b] = hits[0]!.highlights[0]!;
    expect(hits[0]!.snippet.slice(a, b)).toBe('bibliothèques');
  });

  it('a phrase in another inflection matches the French page (phrases re-tokenize French pages in full)', () => {
    expect(search('"bibliothèque municipale"').map((h) => h.url)).toEqual([`${S}/bibliotheques`]);
  });
});
