import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foundWord, nextWord, nextWordStart, WORD, wordAt, wordHolding } from './words.js';

/** Every word of `text` as the WORD regex finds them: [start, end) pairs. */
function byRegex(text: string): [number, number][] {
  const out: [number, number][] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

function byNextWord(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; nextWord(text, from); from = foundWord.end) out.push([foundWord.start, foundWord.end]);
  return out;
}

// Letters, digits, apostrophes of both kinds, separators, and what is past ASCII: accented letters, a
// combining mark, CJK, an astral letter (a surrogate pair), a non-breaking space, a dash, an emoji, and
// the invisible characters a word reads through (soft hyphen, zero-width space and joiner, word joiner).
const PIECES = ['a', 'Z', 'q', '7', '0', "'", '’', ' ', '-', '_', '.', '\n', 'é', 'ß', '\u0301', '日本', '𝒜', '\u00a0', '—', '😀', "n't", 'don', '’s', '\u00ad', '\u200b', '\u200d', '\u2060'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

describe('nextWord', () => {
  it('finds the words WORD finds, in the same places, in any mix of ASCII and the rest (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(byNextWord(t)).toEqual(byRegex(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('says a word was found in the ASCII loop only when it is ASCII', () => {
    fc.assert(
      fc.property(text, (t) => {
        for (let from = 0; nextWord(t, from); from = foundWord.end) {
          if (foundWord.ascii) expect(/^[\x00-\x7f]*$/.test(t.slice(foundWord.start, foundWord.end))).toBe(true);
        }
      }),
    );
  });

  it('nextWordStart gives where the regex finds the next word from any offset (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(45), (t, from) => {
        WORD.lastIndex = from;
        const m = WORD.exec(t);
        expect(nextWordStart(t, from)).toBe(m === null ? -1 : m.index);
      }),
    );
  });

  it('wordAt gives the word a sticky WORD matches at any offset, or none (property)', () => {
    const sticky = new RegExp(WORD.source, 'uy');
    // Inside a surrogate pair no word starts (a sticky Unicode regex steps back to the pair's start).
    const insidePair = (t: string, at: number) => at > 0 && at < t.length && /[\uDC00-\uDFFF]/.test(t[at]!) && /[\uD800-\uDBFF]/.test(t[at - 1]!);
    fc.assert(
      fc.property(text, fc.nat(45), (t, at) => {
        sticky.lastIndex = at;
        expect(wordAt(t, at)).toBe(insidePair(t, at) ? undefined : sticky.exec(t)?.[0]);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps an apostrophe inside a word, not at its ends', () => {
    expect(byNextWord("don't 'quoted' it's’ rock’n’roll")).toEqual(byRegex("don't 'quoted' it's’ rock’n’roll"));
    const words = byNextWord("don't 'quoted' it's’").map(([s, e]) => "don't 'quoted' it's’".slice(s, e));
    expect(words).toEqual(["don't", 'quoted', "it's"]);
  });
});

describe('wordHolding', () => {
  it('gives the word WORD finds around any offset, or none when the character there is in none (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(45), (t, at) => {
        const around = byRegex(t).find(([s, e]) => s <= at && at < e);
        expect(wordHolding(t, at)).toEqual(around === undefined ? undefined : { start: around[0], end: around[1] });
      }),
      { numRuns: 3000 },
    );
  });

  it("reads back over a word's letters, a surrogate pair and the apostrophes inside it", () => {
    const t = 'the rock’n’roll café’s Ｆｕｌｌ 𝒜b';
    const word = (at: number) => {
      const w = wordHolding(t, at);
      return w && t.slice(w.start, w.end);
    };
    expect(word(t.indexOf('’'))).toBe('rock’n’roll');
    expect(word(t.indexOf('é'))).toBe('café’s');
    expect(word(t.indexOf('ｌ'))).toBe('Ｆｕｌｌ');
    expect(word(t.indexOf('b'))).toBe('𝒜b');
    expect(word(t.indexOf(' '))).toBeUndefined();
  });
});
