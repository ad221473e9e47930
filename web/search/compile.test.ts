import { describe, expect, it } from 'vitest';
import { registerLanguage } from '../../shared/analysis/index.js';
import { parseQuery } from '../query/index.js';
import { compileQuery, foldVariants, tokenVariants } from './compile.js';

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
