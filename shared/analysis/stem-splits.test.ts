import { describe, expect, it } from 'vitest';
import { stemSplits, stemWord } from './index.js';

describe('stemSplits: the other stem of a word Porter parts from its inflections', () => {
  it('a singular in vowel + "s" is offered the stem its plural and participles share', () => {
    expect(stemWord('alias')).not.toBe(stemWord('aliases'));
    expect(stemSplits('alias')).toEqual([{ token: stemWord('aliases'), surface: 'alias', prefix: true }]);
    expect(stemSplits('status')).toEqual([{ token: stemWord('statuses'), surface: 'status', prefix: true }]);
  });
  it('a plural or participle is offered the singular\u2019s stem, confirmed by the singular itself', () => {
    for (const w of ['aliases', 'aliased', 'aliasing']) expect(stemSplits(w)).toEqual([{ token: stemWord('alias'), surface: 'alias', prefix: false }]);
    expect(stemSplits('focused')).toEqual([{ token: stemWord('focus'), surface: 'focus', prefix: false }]);
  });
  it('offers nothing where the stems already agree or the word is no such singular', () => {
    for (const w of ['class', 'classes', 'process', 'buses', 'series', 'goes', 'this', 'has', 'news', 'map', 'Alias', 'o\u2019s']) expect(stemSplits(w)).toEqual([]);
  });
});
