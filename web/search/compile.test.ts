import { describe, expect, it } from 'vitest';
import { registerLanguage } from '../../shared/analysis/index.js';
import { parseQuery } from '../query/index.js';
import { compileQuery, DEFAULT_TOKEN_WEIGHTS, foldVariants, tokenVariants } from './compile.js';

const atomOf = (q: string) => parseQuery(q).required[0]![0]!;

describe('query planning, remembering the analysis of each word', () => {
  it('gives a word typed in another query the same variants, frozen so that no query can change them for the next', () => {
    const first = tokenVariants(atomOf('iterators'));
    const again = tokenVariants(parseQuery('map iterators').required[1]![0]!);
    expect(again).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first[0]!.tokens as string[]).push('x')).toThrow(TypeError); // readonly in its type too
    expect(Object.isFrozen(foldVariants(atomOf('configuree')))).toBe(true);
  });

  it('analyses again once a language is registered, rather than answer from what it remembered', () => {
    const before = tokenVariants(atomOf('walruses'));
    expect(before.some((v) => v.language === 'xx')).toBe(false);
    // A query-variant language whose stems differ from every other's: its variant must appear.
    registerLanguage({ code: 'xx', stemming: { stem: (w) => `xx${w}` }, queryVariant: true });
    const after = tokenVariants(atomOf('walruses'));
    expect(after.find((v) => v.language === 'xx')?.tokens).toEqual(['xxwalruses']);
  });

  it("gives a word's stems in its languages the largest of their document frequencies", () => {
    const ids = new Map<string, number>();
    const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
    // English "proxi" on 900 pages; French and Spanish "proxy" on the 40 French and Spanish ones.
    const frequencies: Record<string, number> = { proxi: 900, proxy: 40 };
    const docFreq = (term: number) => frequencies[[...ids].find(([, id]) => id === term)![0]] ?? 1;
    const plan = compileQuery(parseQuery('proxy'), lookup, 0, DEFAULT_TOKEN_WEIGHTS, undefined, docFreq);
    const stems = plan.keys.filter((k) => k.token === 'proxi' || k.token === 'proxy');
    // One key per language the stem is looked for in: English's own, French's and Spanish's.
    expect(stems.map((k) => `${k.token}:${k.language ?? ''}`).sort()).toEqual(['proxi:', 'proxy:es', 'proxy:fr']);
    expect(stems.map((k) => k.docFreq)).toEqual([900, 900, 900]);
  });

  it('leaves out the stems of languages the index has no page in, with their alternatives, and keeps the idf they blended', () => {
    const ids = new Map<string, number>();
    const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
    // The French and Spanish stem "proxy" is the commoner here: the English key's idf comes from it.
    const frequencies: Record<string, number> = { proxi: 40, proxy: 900 };
    const docFreq = (term: number) => frequencies[[...ids].find(([, id]) => id === term)![0]] ?? 1;
    const plan = (hasLanguage?: (l: string) => boolean) => compileQuery(parseQuery('proxy server'), lookup, 0, DEFAULT_TOKEN_WEIGHTS, undefined, docFreq, hasLanguage);
    const all = plan();
    const english = plan((l) => l === 'en');
    const withFrench = plan((l) => l === 'en' || l === 'fr');
    const names = (p: ReturnType<typeof plan>) => p.keys.map((k) => `${k.token}:${k.language ?? ''}`).sort();
    expect(names(all)).toContain('proxy:es');
    expect(names(english).filter((n) => n.startsWith('proxy') || n.startsWith('proxi'))).toEqual(['proxi:']);
    expect(names(withFrench).filter((n) => n.startsWith('proxy') || n.startsWith('proxi'))).toEqual(['proxi:', 'proxy:fr']);
    // Every alternative left needs only keys the plan has; the English one stays.
    for (const p of [english, withFrench]) {
      const bits = new Set(p.keys.map((k) => k.bit));
      for (const alt of p.groups.flat().flatMap((a) => a.alternatives)) for (const b of alt.bits) expect(bits.has(b)).toBe(true);
    }
    const tokens = english.groups[0]![0]!.alternatives.map((a) => a.tokens.join(' '));
    expect(tokens).toContain('proxi');
    expect(tokens).not.toContain('proxy');
    expect(english.keys.find((k) => k.token === 'proxi')!.docFreq).toBe(900);
  });

  it('plans the same keys from remembered analyses as from fresh ones', () => {
    // Every token is in this index: each variant and the word pair become keys.
    const ids = new Map<string, number>();
    const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
    const once = compileQuery(parseQuery('narwhal tusks'), lookup, 0.5);
    const twice = compileQuery(parseQuery('narwhal tusks'), lookup, 0.5);
    expect(twice).toEqual(once);
    expect(once.keys.map((k) => k.token)).toContain('narwhal tusk');
    expect(once.groups).toHaveLength(2);
  });
});

describe('word pairs in a plan', () => {
  const ids = new Map<string, number>();
  const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
  it('pairs a dropped stopword with its neighbour, at the stop-pair share of the pair weight', () => {
    const plan = compileQuery(parseQuery('here document'), lookup, 0.4);
    // "here" neither must match nor scores as a word; the pair scores.
    expect(plan.groups).toHaveLength(1);
    expect(plan.keys.find((k) => k.token === 'here')).toBeUndefined();
    expect(plan.keys.find((k) => k.token === 'here document')?.weight).toBeCloseTo(0.4 * DEFAULT_TOKEN_WEIGHTS.stopPair);
    expect(compileQuery(parseQuery('document tree'), lookup, 0.4).keys.find((k) => k.token === 'document tree')?.weight).toBeCloseTo(0.4);
  });
});

describe('the joined word of a hyphenated compound', () => {
  const ids = new Map<string, number>();
  const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
  const joined = (q: string, token: string) => compileQuery(parseQuery(q), lookup, 0).keys.find((k) => k.token === token);
  it('matches and scores, unless it is a stopword beside a word that scores, as a stopword typed would', () => {
    expect(joined('e-mail patch', 'email')).toMatchObject({ scored: true, weight: DEFAULT_TOKEN_WEIGHTS.compound });
    // "her-self": "her" is a stopword, "self" is not, and the joined "herself" is one.
    expect(joined('her-self patch', 'herself')).toMatchObject({ scored: false, weight: 0 });
    expect(joined('her-self patch', 'herself')!.bit).toBeGreaterThanOrEqual(0);
    // Of a query of stopwords only, the stopwords score, the joined one too.
    expect(joined('in-to', 'into')).toMatchObject({ scored: true });
  });
});

describe('word pairs of a stem split', () => {
  it('pair the other stem a split confirmed, at the split share: "type alias" meets "Type Aliases"', () => {
    const ids = new Map<string, number>();
    const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
    // The index holds "alias" as the stem of surface words "aliases": the split is confirmed.
    const plan = compileQuery(parseQuery('type alias'), lookup, 0.4, DEFAULT_TOKEN_WEIGHTS, () => true);
    expect(plan.keys.find((k) => k.token === 'type alia')?.weight).toBeCloseTo(0.4);
    expect(plan.keys.find((k) => k.token === 'type alias')?.weight).toBeCloseTo(0.4 * DEFAULT_TOKEN_WEIGHTS.split);
    // Unconfirmed, the other stem is no word of the query, nor of its pairs.
    const unconfirmed = compileQuery(parseQuery('type alias'), lookup, 0.4, DEFAULT_TOKEN_WEIGHTS, () => false);
    expect(unconfirmed.keys.map((k) => k.token)).not.toContain('type alias');
  });
});

describe('which atoms must stand in a row', () => {
  const ids = new Map<string, number>();
  const lookup = (t: string) => ids.get(t) ?? ids.set(t, ids.size).get(t);
  const flags = (q: string) => compileQuery(parseQuery(q), lookup, 0).groups.map((g) => [g[0]!.atom.text, g[0]!.phrase, g[0]!.quoted]);

  it('a quoted phrase and words joined by hyphens; only the quoted one is a phrase to ranking', () => {
    expect(flags('"hard stop" hard-stop-after x-forwarded-for e-mail')).toEqual([
      ['hard stop', true, true],
      ['hard-stop-after', true, false],
      ['x-forwarded-for', true, false],
      ['e-mail', true, false],
    ]);
  });

  it('not an identifier, a dotted name, a long option, nor the address field', () => {
    expect(flags('pg_database_size os.path.join --force-with-lease inurl:hard-stop-after')).toEqual([
      ['pg_database_size', false, false],
      ['os.path.join', false, false],
      ['--force-with-lease', false, false],
      ['hard-stop-after', false, false],
    ]);
  });
});

