import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WordTable, wordHash, type WordEntry } from './word-table.js';

// Words of a few letters from a small alphabet (so many share a length and a start), some past ASCII
// and some outside the Basic Multilingual Plane (two UTF-16 units), each put in a text among others.
const letter = fc.constantFrom('a', 'b', 'é', 'ж', '中', '𝒜');
const word = fc.array(letter, { minLength: 1, maxLength: 6 }).map((l) => l.join(''));
const placed = fc.tuple(fc.string({ maxLength: 3 }), word, fc.string({ maxLength: 3 })).map(([before, w, after]) => ({ text: before + w + after, start: before.length, end: before.length + w.length, word: w }));

describe('WordTable', () => {
  it('finds each word where it lies in any text, as a Map of the words cut out would, growing and cleared', () => {
    type Step = { kind: 'add' | 'find'; at: { text: string; start: number; end: number; word: string } } | { kind: 'clear' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 10, arbitrary: placed.map((at) => ({ kind: 'add' as const, at })) },
      { weight: 10, arbitrary: placed.map((at) => ({ kind: 'find' as const, at })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), fc.boolean(), (steps, collide) => {
        // Two slots to begin with, so the table grows many times; with `collide` every word has the same
        // hash, so only the characters tell words apart.
        const table = new WordTable(2);
        const model = new Map<string, WordEntry>();
        // The entry found, copied (the table's next find overwrites it), or undefined.
        const find = (text: string, start: number, end: number, hash: number): WordEntry | undefined => (table.find(text, start, end, hash) ? { ...table.found } : undefined);
        const hashOf = (at: { text: string; start: number; end: number }) => (collide ? 7 : wordHash(at.text, at.start, at.end));
        steps.forEach((s, i) => {
          if (s.kind === 'clear') {
            table.clear();
            model.clear();
            return;
          }
          const found = find(s.at.text, s.at.start, s.at.end, hashOf(s.at));
          expect(found).toEqual(model.get(s.at.word));
          if (s.kind === 'add' && found === undefined) {
            const entry = { token: `t${i}`, word: `w${i}`, fold: i % 3 === 0 ? `~f${i}` : '', tokenNumber: i, wordNumber: i % 2 === 0 ? i : -1, foldNumber: i % 3 === 0 ? i + 1 : -1 };
            table.add(s.at.text, s.at.start, s.at.end, hashOf(s.at), entry);
            model.set(s.at.word, entry);
          }
          expect(table.size).toBe(model.size);
        });
        for (const [w, entry] of model) expect(find(` ${w}`, 1, 1 + w.length, collide ? 7 : wordHash(` ${w}`, 1, 1 + w.length))).toEqual(entry);
      }),
      { numRuns: 300 },
    );
  });

  it('hashes a word by its characters alone, wherever it lies', () => {
    fc.assert(
      fc.property(placed, placed, (a, b) => {
        if (a.word === b.word) expect(wordHash(a.text, a.start, a.end)).toBe(wordHash(b.text, b.start, b.end));
        expect(wordHash(a.text, a.start, a.end)).toBe(wordHash(a.word, 0, a.word.length));
      }),
    );
  });
});
