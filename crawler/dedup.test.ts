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
