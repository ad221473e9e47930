import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeDocStrings, encodeDocStrings, siteKey } from './doc-strings.js';
import { CodedStrings, PackedStrings } from './string-columns.js';

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
// Few distinct values, as languages and hosts are.
const few = fc.constantFrom('', 'en', 'de', 'zh', 'ru', 'docs.example.org');

const columns = fc.integer({ min: 0, max: 30 }).chain((n) =>
  fc.record({
    url: fc.array(text, { minLength: n, maxLength: n }),
    title: fc.array(text, { minLength: n, maxLength: n }),
    language: fc.array(few, { minLength: n, maxLength: n }),
    host: fc.array(few, { minLength: n, maxLength: n }),
  }),
);

describe('doc-strings.bin', () => {
  it('gives back every value of every column, in order, and a site key per page', () => {
    fc.assert(
      fc.property(columns, (c) => {
        const back = decodeDocStrings(encodeDocStrings(c));
        expect([...back.url]).toEqual(c.url);
        expect([...back.title]).toEqual(c.title);
        expect([...back.language]).toEqual(c.language);
        expect([...back.host]).toEqual(c.host);
        expect([...back.site]).toEqual(c.url.map((u, i) => siteKey(c.host[i]!, u)));
        for (let i = 0; i < c.url.length; i++) {
          expect(back.url.at(i)).toBe(c.url[i]);
          expect(back.url.indexOf(c.url[i]!)).toBe(c.url.indexOf(c.url[i]!));
          expect(back.host.indexOf(c.host[i]!)).toBe(c.host.indexOf(c.host[i]!));
        }
        expect(back.url.at(c.url.length)).toBeUndefined();
        expect(back.url.at(-1)).toBeUndefined();
        expect(back.url.indexOf('not among them \u0000')).toBe(-1);
        // A coded column holds each distinct value once, whatever the number of pages.
        expect(back.language.values).toHaveLength(new Set(c.language).size);
        for (const value of ['', 'en', 'xx']) expect(back.language.count(value)).toBe(c.language.filter((l) => l === value).length);
      }),
    );
  });

  it('keys a site by host and the port its URL names, none when it names none', () => {
    expect(siteKey('a.test', 'http://a.test:8082/x')).toBe('a.test:8082');
    expect(siteKey('a.test', 'https://user@a.test/x:9')).toBe('a.test:');
    expect(siteKey('::1', 'http://[::1]:80/')).toBe('::1:80');
  });

  it('reads a column out of a file whose bytes start at any offset (a pooled Buffer)', () => {
    const bytes = encodeDocStrings({ url: ['http://a.test/é'], title: ['Été'], language: ['fr'], host: ['a.test'] });
    const shifted = new Uint8Array(bytes.byteLength + 3).subarray(3);
    shifted.set(bytes);
    const back = decodeDocStrings(shifted);
    expect(back.title.at(0)).toBe('Été');
    expect(back.site.at(0)).toBe('a.test:');
  });

  it('refuses bytes cut short, with bytes left over, or with a code past its values', () => {
    const bytes = encodeDocStrings({ url: ['u0', 'u1'], title: ['t0', 't1'], language: ['en', 'en'], host: ['h', 'h'] });
    expect(() => decodeDocStrings(bytes.subarray(0, bytes.byteLength - 8))).toThrow(/ends inside site/);
    expect(() => decodeDocStrings(Buffer.concat([bytes, Buffer.alloc(8)]))).toThrow(/has \d+ bytes, not the \d+ of 2 documents/);
    const bad = Buffer.from(bytes);
    // The site codes are the file's last 8 bytes: two Uint32.
    bad.writeUInt32LE(5, bad.byteLength - 4);
    expect(() => decodeDocStrings(bad)).toThrow(/site code 5 of document 1 is past its 1 values/);
  });

  it('takes arrays as the build gives them, of the same length', () => {
    expect(() => encodeDocStrings({ url: ['a', 'b'], title: ['a'], language: ['', ''], host: ['', ''] })).toThrow(/1 titles for 2 urls/);
    expect(new PackedStrings(Buffer.alloc(0), new Float64Array(0)).length).toBe(0);
    expect(new CodedStrings(['x'], new Uint32Array(3)).at(2)).toBe('x');
  });
});
