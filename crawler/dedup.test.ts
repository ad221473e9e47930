import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contentFingerprint, duplicateKey, normalizeForFingerprint } from './dedup.js';

describe('content fingerprint (seed 003)', () => {
  it('is the SHA-1 hex of the normalised text', () => {
    // sha1("hello world"), a published test value.
    expect(contentFingerprint('  Hello \n\t WORLD ')).toBe('2aae6c35c94fcfb415dbe95f408b9ce91ee846ed');
  });
  it('ignores case and whitespace differences', () => {
    expect(contentFingerprint('The  Quick\nFox')).toBe(contentFingerprint('the quick fox'));
    expect(contentFingerprint('a\u00a0b')).toBe(contentFingerprint('a b'));
  });
  it('treats canonically equivalent Unicode as equal (NFC)', () => {
    expect(contentFingerprint('cafe\u0301')).toBe(contentFingerprint('caf\u00e9'));
  });
  it('tells different texts apart', () => {
    expect(contentFingerprint('page one')).not.toBe(contentFingerprint('page two'));
    expect(contentFingerprint('ab')).not.toBe(contentFingerprint('a b'));
  });
  it('is invariant under whitespace and case changes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/), { minLength: 1, maxLength: 20 }), fc.constantFrom(' ', '  ', '\n', '\t \r\n'), (words, sep) => {
        const a = words.join(' ');
        const b = sep + words.map((w) => w.toUpperCase()).join(sep) + sep;
        expect(contentFingerprint(b)).toBe(contentFingerprint(a));
      }),
    );
  });
  it('normalises idempotently', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(normalizeForFingerprint(normalizeForFingerprint(s))).toBe(normalizeForFingerprint(s));
      }),
    );
  });
});

describe('duplicateKey', () => {
  it('is undefined for pages without text, so empty pages are not duplicates of each other', () => {
    expect(duplicateKey('')).toBeUndefined();
    expect(duplicateKey(' \n\t ')).toBeUndefined();
  });
  it('is the fingerprint otherwise', () => {
    expect(duplicateKey('Some text')).toBe(contentFingerprint('some   text'));
  });
});

describe('normalizeForFingerprint fast path', () => {
  const reference = (text: string) => text.normalize('NFC').toLowerCase().replace(/[\s\u00a0]+/g, ' ').trim();
  it('equals NFC + lower case + collapsed, trimmed whitespace for any string', () => {
    const spaced = fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u3000', 'e\u0301', 'É')), { maxLength: 20 }).map((parts) => parts.join(''));
    fc.assert(fc.property(spaced, (text) => normalizeForFingerprint(text) === reference(text)), { numRuns: 2000 });
  });
});
