import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { compileQuery } from './compile.js';
import { namesAfterWords, namesOnly, plainQueryTokens, titleNamesOnly, titleWords, TitleWordsCache, type NameRanked } from './name-title.js';

const ids = new Map<string, number>();
const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
const wordsOf = (q: string) => plainQueryTokens(compileQuery(parseQuery(q), lookup));

describe('plainQueryTokens', () => {
  it('gives the words of an every-word query as tokens', () => {
    expect([...wordsOf('prepared statements')!]).toEqual(['prepar', 'statement']);
    expect([...wordsOf('spawn a thread')!]).toEqual(['spawn', 'thread']);
  });

  it('gives none when the query types a name, quotes a phrase or asks for any word', () => {
    expect(wordsOf('pg_prepared_statements')).toBeUndefined();
    expect(wordsOf('os.path.join example')).toBeUndefined();
    expect(wordsOf('"prepared statements"')).toBeUndefined();
    expect(wordsOf('prepared OR statements')).toBeUndefined();
  });
});

describe('titleNamesOnly', () => {
  const words = (...w: string[]) => new Set(w);
  it("is true when the title has the query's words, each only inside a code name", () => {
    expect(titleNamesOnly('54.16. pg_prepared_statements', 'en', words('prepar', 'statement'))).toBe(true);
    expect(titleNamesOnly('std::collections - Rust', 'en', words('iter', 'collect'))).toBe(true);
    expect(titleNamesOnly('37.11. check_constraints', 'en', words('check', 'constraint'))).toBe(true);
  });

  it('is false when one of them stands as a word too, when none is there, or when the title has no name', () => {
    expect(titleNamesOnly('PREPARE — prepare a statement for execution', 'en', words('prepar', 'statement'))).toBe(false);
    expect(titleNamesOnly('Map in std::iter - Rust', 'en', words('iter', 'map'))).toBe(false);
    expect(titleNamesOnly('std::thread::spawn and threads', 'en', words('thread'))).toBe(false);
    expect(titleNamesOnly('pg_stat_activity', 'en', words('prepar'))).toBe(false);
    expect(titleNamesOnly('Prepared Statements', 'en', words('prepar', 'statement'))).toBe(false);
  });

  it('tells a name from an accent fold or a joined compound, which are extra tokens too', () => {
    expect(titleWords('Configurée et e-mail', 'fr').inNames.size).toBe(0);
    expect(namesOnly(titleWords('e-mail settings', 'en'), words('email'))).toBe(false);
  });
});

describe('TitleWordsCache', () => {
  it('analyses a document once while either generation holds it, and again once both moved past it', () => {
    const asked: number[] = [];
    const cache = new TitleWordsCache((d) => (asked.push(d), { title: `view_${d}`, language: 'en' }), 2);
    expect(cache.get(1).inNames.has('view')).toBe(true);
    expect([...cache.get(1).all].sort()).toEqual(['1', 'view', 'view_1']);
    cache.get(2); // young: 1, 2
    cache.get(3); // old: 1, 2; young: 3
    cache.get(1); // from the old generation, back in the young one: 3, 1
    cache.get(4); // old: 3, 1; young: 4 (2 let go)
    cache.get(1);
    cache.get(2);
    expect(asked).toEqual([1, 2, 3, 4, 2]);
  });
});

describe('namesAfterWords', () => {
  interface Entry extends NameRanked {
    title: string;
  }
  const entry = (title: string, score: number): Entry => ({ title, score });
  const options = { poolSize: 3, factor: 0.8 };
  const rerank = (ranked: Entry[], query: string, o = options) => namesAfterWords(ranked, (e) => titleWords(e.title, 'en'), wordsOf(query)!, o);

  it('multiplies the named titles of the pool by the factor, sorts the pool again and leaves the rest after it', () => {
    const ranked = [entry('pg_prepared_statements', 1.0), entry('PREPARE a prepared statement', 0.9), entry('Other', 0.7), entry('Beyond', 0.95)];
    const out = rerank(ranked, 'prepared statements');
    expect(out).toBe(ranked); // the query's own candidates, reordered in place
    expect(out.map((e) => e.title)).toEqual(['PREPARE a prepared statement', 'pg_prepared_statements', 'Other', 'Beyond']);
    expect(out[1]!.score).toBeCloseTo(0.8);
    expect(out.map((e) => e.titleNames)).toEqual([1, 0.8, 1, undefined]);
  });

  it('leaves a name that holds every word when no title of the pool says one as a word', () => {
    const ranked = [entry('target_include_directories', 1.0), entry('CMP0021', 0.9), entry('CMP0027', 0.85)];
    expect(rerank(ranked, 'include directories for a target').map((e) => e.titleNames)).toEqual([1, 1, 1]);
    // A title saying one of the words as a word puts the rule back.
    const said = [entry('target_include_directories', 1.0), entry('CMP0021', 0.9), entry('include', 0.85)];
    expect(rerank(said, 'include directories for a target').map((e) => e.title)).toEqual(['CMP0021', 'include', 'target_include_directories']);
    // So does a name that holds only some of the words, as the view sql_sizing for "table size".
    const some = [entry('sql_sizing', 1.0), entry('System Administration Functions', 0.9)];
    expect(rerank(some, 'table size').map((e) => e.title)).toEqual(['System Administration Functions', 'sql_sizing']);
  });

  it('changes nothing at factor 1, and keeps ties in order', () => {
    const ranked = () => [entry('pg_prepared_statements', 1), entry('Statements prepared', 0.8)];
    expect(rerank(ranked(), 'prepared statements', { ...options, factor: 1 }).map((e) => [e.title, e.score, e.titleNames])).toEqual([
      ['pg_prepared_statements', 1, undefined],
      ['Statements prepared', 0.8, undefined],
    ]);
    expect(rerank(ranked(), 'prepared statements').map((e) => e.title)).toEqual(['pg_prepared_statements', 'Statements prepared']);
  });
});

describe('the names-in-title rule in the engine', () => {
  const S = 'http://docs.test';
  const about = 'A prepared statement is parsed and planned once, then executed many times with new parameter values, which saves the planning.';
  const pages = [
    // The view's page says the words more often and in a short title: without the rule it ranks first.
    { url: `${S}/view`, title: 'pg_prepared_statements', text: `The pg_prepared_statements view lists the prepared statements of the session. Prepared statements: ${about}` },
    { url: `${S}/prepare`, title: 'PREPARE — create a prepared statement', text: `PREPARE creates a prepared statement for the session, with parameters and a plan. ${about} ${'Other text about the command and its options follows here. '.repeat(4)}` },
    ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/other-${i}`, title: `Other ${i}`, text: `Other page ${i}.` })),
  ];
  const engine = fixtureEngine(pages);
  const without = fixtureEngine(pages, { nameTitle: { poolSize: 30, factor: 1 } });

  it('ranks the page that names the topic in words above the page of the name, and explains the factor', () => {
    expect(without().rankedUrls(parseQuery('prepared statements'), 1)[0]!.url).toBe(`${S}/view`);
    const { hits } = engine().search(parseQuery('prepared statements'), { offset: 0, limit: 10 });
    expect(hits.map((h) => h.url)).toEqual([`${S}/prepare`, `${S}/view`]);
    expect(hits[0]!.explain!.nameTitleFactor).toBe(1);
    const lowered = hits[1]!.explain!;
    expect(lowered.nameTitleFactor).toBe(0.8);
    expect(lowered.score).toBeCloseTo(lowered.textScore * lowered.linkBoost * lowered.hubFactor * lowered.listingFactor * lowered.proximityFactor * lowered.nameTitleFactor * lowered.openingFactor);
    expect(engine().rankedUrls(parseQuery('prepared statements'), 1)[0]!.url).toBe(`${S}/prepare`);
  });

  it('leaves the name first when the name is typed, and a one-word page of ten the same as the pool gives', () => {
    expect(engine().rankedUrls(parseQuery('pg_prepared_statements'), 1)[0]!.url).toBe(`${S}/view`);
    // One result asked: the rule looks at the pool all the same, as page one of ten does.
    expect(engine().rankedUrls(parseQuery('statements'), 1)[0]!.url).toBe(engine().rankedUrls(parseQuery('statements'), 10)[0]!.url);
  });
});
