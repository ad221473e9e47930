import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseQuery } from '../query/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { compileQuery } from './compile.js';
import { nearFirst, neighbourPairs, standNear, type Ranked } from './proximity.js';

const ids = new Map<string, number>();
const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
const pairsOf = (q: string) => neighbourPairs(compileQuery(parseQuery(q), lookup));

describe('neighbourPairs', () => {
  it('pairs each required word with the next, stopwords dropped, none across a phrase or an OR group', () => {
    expect(pairsOf('iterate over dictionary')).toEqual([['iter', 'dictionari']]);
    expect(pairsOf('database size')).toEqual([['databas', 'size']]);
    expect(pairsOf('vacuum')).toEqual([]);
    expect(pairsOf('"database size" limit')).toEqual([]);
    expect(pairsOf('database OR cluster size')).toEqual([]);
  });
});

describe('standNear', () => {
  it('finds two places within the window, in either order', () => {
    expect(standNear([1, 50], [52], 3)).toBe(true);
    expect(standNear([60], [57], 3)).toBe(true);
    expect(standNear([1, 50], [54, 90], 3)).toBe(false);
    expect(standNear([], [1], 3)).toBe(false);
    // Only the first places asked for are read (the engine's buffers hold a longer page's after them).
    expect(standNear([1, 50], [52], 3, 1)).toBe(false);
    expect(standNear([1], [90, 2], 3, 1, 1)).toBe(false);
  });
  it('agrees with comparing every two places', () => {
    const places = fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 20 }).map((a) => a.sort((x, y) => x - y));
    fc.assert(
      fc.property(places, places, fc.integer({ min: 1, max: 5 }), (a, b, w) => {
        expect(standNear(a, b, w)).toBe(a.some((x) => b.some((y) => Math.abs(x - y) <= w)));
      }),
    );
  });
});

describe('nearFirst', () => {
  interface Entry extends Ranked {
    name: string;
    places: Record<string, number[]>;
  }
  const entry = (name: string, score: number, places: Record<string, number[]>): Entry => ({ name, score, places });
  const placesOf = (e: Entry, token: string) => {
    const list = e.places[token];
    return list === undefined ? undefined : { list, length: list.length };
  };
  const options = { poolSize: 3, windowWords: 3, weight: 0.2 };

  it('reorders the pool by score times 1 + weight x share of pairs near, and leaves the rest after it', () => {
    const ranked = [
      entry('apart', 1.0, { a: [1], b: [40], c: [80] }),
      entry('half', 0.95, { a: [1], b: [2], c: [80] }),
      entry('near', 0.9, { a: [1], b: [2], c: [3] }),
      entry('beyond', 0.89, { a: [1], b: [2], c: [3] }),
    ];
    const out = nearFirst(ranked, [['a', 'b'], ['b', 'c']], placesOf, options);
    expect(out).toBe(ranked); // the query's own candidates, reordered in place
    expect(out.map((e) => e.name)).toEqual(['near', 'half', 'apart', 'beyond']);
    expect(out[0]!.score).toBeCloseTo(0.9 * 1.2);
    expect(out[0]!.proximity).toEqual({ pairs: 2, near: 2, factor: 1.2 });
    expect(out[1]!.proximity?.factor).toBeCloseTo(1.1);
    expect(out[3]!.proximity).toBeUndefined();
  });

  it('changes nothing without pairs or weight, and keeps ties in order', () => {
    const ranked = () => [entry('x', 1, {}), entry('y', 1, {})];
    const untouched = [['x', 1, undefined], ['y', 1, undefined]];
    const seen = (out: Entry[]) => out.map((e) => [e.name, e.score, e.proximity]);
    expect(seen(nearFirst(ranked(), [], placesOf, options))).toEqual(untouched);
    expect(seen(nearFirst(ranked(), [['a', 'b']], placesOf, { ...options, weight: 0 }))).toEqual(untouched);
    expect(nearFirst(ranked(), [['a', 'b']], placesOf, options).map((e) => e.name)).toEqual(['x', 'y']);
  });
});

describe('proximity in the engine', () => {
  const S = 'http://docs.test';
  const filler = 'The page goes on about other things entirely, one sentence after another, for a while. ';
  const engine = fixtureEngine([
    // Both say each word once; the longer one says them together.
    { url: `${S}/apart`, title: 'Admin', text: `The database is large. ${filler.repeat(3)} Its size grows.` },
    { url: `${S}/together`, title: 'Functions', text: `The database size function. ${filler.repeat(4)} Done.` },
    ...Array.from({ length: 20 }, (_, i) => ({ url: `${S}/other-${i}`, title: `Other ${i}`, text: `Other page ${i}.` })),
  ]);

  it('ranks the page that says the words side by side first, and explains the factor', () => {
    // Without proximity the shorter page wins.
    expect(engine().search(parseQuery('database'), { offset: 0, limit: 10 }).hits[0]?.url).toBe(`${S}/apart`);
    const { hits } = engine().search(parseQuery('database size'), { offset: 0, limit: 10 });
    expect(hits.map((h) => h.url)).toEqual([`${S}/together`, `${S}/apart`]);
    const [first, second] = hits;
    expect(first!.explain).toMatchObject({ queryPairs: 1, nearPairs: 1, proximityFactor: 1.2 });
    expect(second!.explain).toMatchObject({ queryPairs: 1, nearPairs: 0, proximityFactor: 1 });
    const e = first!.explain!;
    expect(e.score).toBeCloseTo(e.textScore * e.linkBoost * e.hubFactor * e.proximityFactor * e.openingFactor);
    expect(engine().rankedUrls(parseQuery('database size'), 1).map((r) => r.url)).toEqual([`${S}/together`]);
  });
});
