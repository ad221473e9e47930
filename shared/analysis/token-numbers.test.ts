import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAIR_SEPARATOR, pairPlaces, wordPairs } from './pairs.js';
import { isStopword } from './registry.js';
import { TokenNumbers } from './token-numbers.js';

describe('TokenNumbers', () => {
  it('numbers strings in first-seen order, and none once full', () => {
    const numbers = new TokenNumbers(2);
    expect(numbers.numberOf('a')).toBe(0);
    expect(numbers.numberOf('b')).toBe(1);
    expect(numbers.numberOf('a')).toBe(0);
    expect(numbers.numberOf('c')).toBe(-1);
    expect(numbers.strings).toEqual(['a', 'b']);
  });

  it('numbers a pair by its two words as it numbers the pair spelled, spelling it only the first time', () => {
    // Thousands of pairs: the table grows past its first slots several times. Few first words, so a
    // probe meets pairs with the same first word and another second.
    const first = fc.integer({ min: 0, max: 3 }).map((n) => `w${n}`);
    const second = fc.integer({ min: 0, max: 1500 }).map((n) => `w${n}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(first, second), { minLength: 2000, maxLength: 3000 }), fc.integer({ min: 0, max: 4000 }), (pairs, maxStrings) => {
        const byPair = new TokenNumbers(maxStrings);
        const bySpelling = new TokenNumbers(maxStrings);
        const spelled = new Map<string, number>();
        for (const [a, b] of pairs) {
          const first = byPair.numberOf(a);
          const second = byPair.numberOf(b);
          bySpelling.numberOf(a);
          bySpelling.numberOf(b);
          const spelling = a + PAIR_SEPARATOR + b;
          if (first < 0 || second < 0) continue;
          let calls = 0;
          const n = byPair.pairNumberOf(first, second, () => {
            calls++;
            return spelling;
          });
          expect(n).toBe(bySpelling.numberOf(spelling));
          // Spelled once while it has a number; each time when the table had none to give it.
          if (n >= 0 && spelled.has(spelling)) expect(calls).toBe(0);
          if (n >= 0) spelled.set(spelling, n);
        }
        expect(byPair.strings).toEqual(bySpelling.strings);
      }),
      { numRuns: 20 },
    );
  });
});

/** wordPairs' rule as first written, over strings: the oracle for pairPlaces. */
function pairsAsWritten(tokens: readonly string[], isStop: (t: string) => boolean): string[] {
  const words = tokens.filter((t) => !isStop(t));
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) if (words[i] !== words[i + 1]) pairs.push(words[i]! + PAIR_SEPARATOR + words[i + 1]!);
  for (let i = 0; i + 1 < tokens.length; i++) if (isStop(tokens[i]!) !== isStop(tokens[i + 1]!)) pairs.push(tokens[i]! + PAIR_SEPARATOR + tokens[i + 1]!);
  return pairs;
}

describe('pairPlaces', () => {
  it('gives the pairs of the rule as first written, in its order', () => {
    const token = fc.constantFrom('read', 'write', 'file', 'the', 'and', 'of', 'here', 'document');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        const places: string[] = [];
        pairPlaces(tokens, (i, j) => places.push(tokens[i]! + PAIR_SEPARATOR + tokens[j]!));
        expect(places).toEqual(pairsAsWritten(tokens, isStopword));
        expect(wordPairs(tokens)).toEqual(places);
      }),
    );
  });
});
