import { describe, expect, it } from 'vitest';
import { MAX_SCANNED, MAX_WORDS, Vocabulary } from './vocabulary.js';

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

describe('a correction costs the same however many words one page made up', () => {
  // A hostile page of 36,000 numbered words (`linktext1` ... `linktext36000`) or 200,000 random ones
  // filled the lists a misspelt word is compared with: every query with a rare word then took
  // 60-500 ms in `correct`, on every site of the index. Only the most frequent MAX_SCANNED spellings
  // of a first letter and length are compared.
  const numbered = (n: number) => Array.from({ length: n }, (_, i) => `linktext${i}`);
  // 90,000 words of 13 letters (linktext10000 ... linktext99999) against 4,000 of 9 to 12.
  const big = new Vocabulary([...numbered(100_000), 'linktextabcde'], (i) => (i === 100_000 ? 9 : 1));
  it('compares only the most frequent maxScanned spellings of a first letter and length', () => {
    // Five spellings of "l" and 9 letters, most frequent first; the one a typo is closest to is the rarest.
    const words = ['linktexta', 'linktextb', 'linktextc', 'linktextd', 'lmnopqrsz'];
    const df = [50, 40, 30, 20, 10];
    const all = new Vocabulary(words, (i) => df[i]!, undefined, undefined, 5);
    const four = new Vocabulary(words, (i) => df[i]!, undefined, undefined, 4);
    expect(all.correct('lmnopqrst', 0, 1)).toBe('lmnopqrsz');
    expect(four.correct('lmnopqrst', 0, 1)).toBeUndefined();
    expect(four.correct('linktextz', 0, 1)).toBe('linktexta');
  });
  it('still finds the frequent word among them', () => {
    expect(big.correct('linktextabcdf', 0, 20)).toBe('linktextabcde');
    expect(big.correct('linktextacbde', 0, 20)).toBe('linktextabcde');
  });
  it('is unchanged below the limit: the closest, then the most frequent, then the first listed', () => {
    const v = new Vocabulary(['linktexta', 'linktextb', 'linktextc', 'linktex'], (i) => [1, 3, 3, 2][i]!);
    expect(v.correct('linktextd', 0, 1)).toBe('linktextb');
    expect(v.correct('linktexz', 0, 1)).toBe('linktex');
    expect(MAX_SCANNED).toBeGreaterThanOrEqual(872);
  });
});

describe('a vocabulary of millions of made-up words', () => {
  // Built at the first query with a rare word, inside that request: 3.2 million terms (80 pages of
  // made-up words) took 9.9 s. It holds the MAX_WORDS most frequent words; the rarest are left out.
  const words = ['orchard', 'orchestra', 'ordinal', 'orchidx', 'orchidy', 'orchidz'];
  const df = [40, 30, 20, 1, 1, 1];
  it('keeps the most frequent words, the first listed of equal frequency, and leaves the others out', () => {
    const v = new Vocabulary(words, (i) => df[i]!, undefined, undefined, MAX_SCANNED, 4);
    expect(v.complete('or', 10)).toEqual(['orchard', 'orchestra', 'ordinal', 'orchidx']);
    expect(v.correct('orchidw', 0, 1)).toBe('orchidx');
    expect(v.correct('orchidzz', 0, 1)).toBe('orchidx');
  });
  it('keeps every word below the limit', () => {
    const v = new Vocabulary(words, (i) => df[i]!, undefined, undefined, MAX_SCANNED, 6);
    expect(v.complete('orchid', 10)).toEqual(['orchidx', 'orchidy', 'orchidz']);
    expect(MAX_WORDS).toBeGreaterThanOrEqual(110_000);
  });
});
