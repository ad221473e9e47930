import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { letterCount, visibleCount } from './char-count.js';

// Characters each class turns on: ASCII edges, Latin-1 (no-break space, ª, ×), other scripts, combining
// marks (\p{M}: neither letter nor digit), astral letters and digits (two UTF-16 units), lone surrogates,
// and Unicode spaces.
const PICKS = ['a', 'z', 'A', 'Z', '0', '9', '@', '[', '`', '{', '/', ':', ' ', '\t', '\n', '\v', '\f', '\r', '\u0000', '\u001c', '\u00a0', '\u00aa', '\u00d7', 'é', 'ß', 'Ж', '中', '٣', '\u0301', '\u2003', '\u3000', '\u2028', '\ufeff', '\u{1d400}', '\u{1d7ce}', '\u{1f600}', '\ud800', '\udc00', '¶'];
const text = fc.array(fc.oneof(fc.constantFrom(...PICKS), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 40 }).map((parts) => parts.join(''));

describe('character counts', () => {
  it('letterCount is the length of the text with all but letters and digits replaced away', () => {
    fc.assert(fc.property(text, (s) => letterCount(s) === s.replace(/[^\p{L}\p{N}]+/gu, '').length));
    expect(letterCount('Docs » Library » 𝐀1')).toBe(14); // 𝐀 is two units
  });

  it('visibleCount is the length of the text with whitespace replaced away', () => {
    fc.assert(fc.property(text, (s) => visibleCount(s) === s.replace(/\s+/g, '').length));
    expect(visibleCount(' a\u00a0b\u3000c\t')).toBe(3);
  });
});
