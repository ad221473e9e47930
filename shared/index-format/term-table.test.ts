import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeTermTable, encodeTermTable, TermLookup } from './term-table.js';

const term = fc.string({ unit: 'grapheme', maxLength: 10 });

describe('terms.bin', () => {
  it('gives back every term, word and form, with forms only when the build had them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 60 }), fc.boolean(), (terms, withForms) => {
        const words = terms.map((t) => t.toUpperCase());
        const forms = withForms ? terms.map((t) => `${t} ${t}s`) : undefined;
        const back = decodeTermTable(encodeTermTable({ terms, words, ...(forms ? { forms } : {}) }));
        expect([...back.terms]).toEqual(terms);
        expect([...back.words]).toEqual(words);
        expect(back.forms === undefined ? undefined : [...back.forms]).toEqual(forms);
      }),
    );
  });

  it('refuses a column cut short or bytes left over', () => {
    const bytes = encodeTermTable({ terms: ['a', 'b'], words: ['a', 'b'] });
    expect(() => decodeTermTable(bytes.subarray(0, bytes.byteLength - 9))).toThrow(/^terms\.bin ends inside words/);
    expect(() => decodeTermTable(Buffer.concat([bytes, Buffer.alloc(8)]))).toThrow(/has \d+ bytes, not the \d+ of 2 terms/);
    expect(() => encodeTermTable({ terms: ['a', 'b'], words: ['a'] })).toThrow(/1 values for 2 terms/);
  });
});

describe('TermLookup', () => {
  it('finds each term as a Map from term to number would, and nothing for the rest', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 200 }), fc.array(term, { maxLength: 30 }), (terms, asked) => {
        const lookup = new TermLookup(decodeTermTable(encodeTermTable({ terms, words: terms })).terms);
        const map = new Map(terms.map((t, i) => [t, i]));
        for (const t of [...terms, ...asked]) expect(lookup.get(t)).toBe(map.get(t));
      }),
    );
  });

  it('tells apart terms whose bytes share a prefix, and a long term past its first scratch buffer', () => {
    const long = 'ж'.repeat(300);
    const terms = ['rust', 'rus', 'rusty', 'ru\u0000', long, ''];
    const lookup = new TermLookup(decodeTermTable(encodeTermTable({ terms, words: terms })).terms);
    terms.forEach((t, i) => expect(lookup.get(t)).toBe(i));
    expect(lookup.get('ru')).toBeUndefined();
    expect(lookup.get(long + 'ж')).toBeUndefined();
  });
});
