import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Vocabulary, editDistance } from './vocabulary.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(editDistance('search', 'search', 2)).toBe(0);
    expect(editDistance('serch', 'search', 2)).toBe(1);
    expect(editDistance('saerch', 'search', 2)).toBe(1);
    expect(editDistance('seerch', 'search', 2)).toBe(1);
    expect(editDistance('sarch', 'searches', 2)).toBe(3);
  });
  it('is symmetric and zero only for equal strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b, 20)).toBe(editDistance(b, a, 20));
        expect(editDistance(a, b, 20) === 0).toBe(a === b);
      }),
    );
  });
});

describe('Vocabulary', () => {
  const words = ['python', 'pythonic', 'pyramid', 'search', 'seared', 'handbook'];
  const df = [50, 3, 10, 40, 2, 30];
  const v = new Vocabulary(words, (i) => df[i]!);
  it('completes a prefix, most frequent first, keeping earlier words', () => {
    expect(v.complete('py', 2)).toEqual(['python', 'pyramid']);
    expect(v.complete('learn PY', 1)).toEqual(['learn python']);
    expect(v.complete('zz', 5)).toEqual([]);
  });
  it('corrects to the closest frequent word, and only to one frequent enough', () => {
    expect(v.correct('pyhton', 0, 20)).toBe('python');
    expect(v.correct('serch', 0, 20)).toBe('search');
    expect(v.correct('serch', 3, 20)).toBeUndefined(); // search is not 20 x 3 documents
    expect(v.correct('zzzz', 0, 20)).toBeUndefined();
  });
  it('corrects to any surface word of a term, while completions keep its display word', () => {
    const withForms = new Vocabulary(['partition', 'table'], (i) => [30, 40][i]!, (i) => ['partitions partitioning partitioned', ''][i]);
    expect(withForms.correct('partioning', 0, 20)).toBe('partitioning');
    expect(withForms.correct('partitionned', 0, 20)).toBe('partitioned');
    expect(withForms.complete('parti', 5)).toEqual(['partition']);
    expect(new Vocabulary(['partition'], () => 30).correct('partioning', 0, 20)).toBeUndefined();
  });
});
