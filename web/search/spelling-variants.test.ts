import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchEngine, type GleanerSearchEngine } from './index.js';
import { buildFixtureIndex, query, type FixtureDir } from '../../test/support/index-fixture.js';

// The libxslt docs say "released under the MIT Licence"; the word typed is "license"
// (shared/analysis spelling-variants.ts).
const S = 'https://docs.example';

describe('British and American spellings in search', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  beforeAll(async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/intro`, title: 'Introduction', text: 'This library is released under the MIT Licence. It is a fast XSLT processor.' },
      { url: `${S}/tutorial`, title: 'Tutorial', text: 'Permission is granted to copy this document under the terms of the license. Colours of the output are set by the stylesheet.' },
      { url: `${S}/options`, title: 'Options', text: 'The output colour and the default behavior of the processor.' },
      {
        url: `${S}/analyze`,
        title: 'ANALYZE',
        text: 'ANALYZE gathers statistics about tables. Usage. Run ANALYZE after loading data. Approximate analysis. To analyse a large database, ANALYZE reads a sample of rows.',
        sections: [
          { id: 'usage', heading: 'Usage', start: 41 },
          { id: 'approximate', heading: 'Approximate analysis', start: 80 },
        ],
      },
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });
  const urls = (q: string) => engine.search(query(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);

  it('finds the page written in the other spelling, the page written as typed first', () => {
    expect(urls('license')).toEqual([`${S}/tutorial`, `${S}/intro`]);
    expect(urls('licence')).toEqual([`${S}/intro`, `${S}/tutorial`]);
    expect(urls('color')).toEqual(expect.arrayContaining([`${S}/tutorial`, `${S}/options`]));
    // Every word on one page; the others follow as partial matches, lacking "behaviour".
    const hits = engine.search(query('behaviour processor'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => [h.url, h.missing ?? []])).toEqual([[`${S}/options`, []], [`${S}/intro`, ['behaviour']]]);
  });
  it('highlights the word as the page spells it, and offers no correction for it', () => {
    const result = engine.search(query('license'), { offset: 0, limit: 10 });
    const intro = result.hits.find((h) => h.url === `${S}/intro`)!;
    expect(intro.highlights.map(([from, to]) => intro.snippet.slice(from, to))).toEqual(['Licence']);
    expect(result.didYouMean).toBeUndefined();
    expect(engine.search(query('behaviour'), { offset: 0, limit: 10 }).didYouMean).toBeUndefined();
  });
  it('links to the page whose title names the word, though a section holds its other spelling too', () => {
    const hit = engine.search(query('analyze'), { offset: 0, limit: 10 }).hits.find((h) => h.url === `${S}/analyze`);
    expect(hit?.section).toBeUndefined();
  });
  it('looks for no other spelling of a word that has none', () => {
    expect(urls('exercise')).toEqual([]);
    expect(urls('more')).toEqual([]);
  });
});
