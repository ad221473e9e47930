import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { StoredDoc } from '../../shared/index-format/index.js';
import { analyze, tokenize } from '../../shared/analysis/index.js';
import { containsPhrase } from './phrase.js';

const doc = (over: Partial<StoredDoc>): StoredDoc => ({ title: '', headings: [], body: '', url: 'http://x.test/', anchor: [], language: 'en', ...over });

describe('containsPhrase', () => {
  it('matches words in a row, stemmed, across punctuation', () => {
    expect(containsPhrase(doc({ body: 'We visited New-York. Cities!' }), tokenize('new york'))).toBe(true);
    expect(containsPhrase(doc({ body: 'Running shoes for sale' }), tokenize('run shoe'))).toBe(true);
  });
  it('finds a phrase opening with a short word whose stem is not its start ("key" is "kei")', () => {
    expect(containsPhrase(doc({ body: 'Each key value pair; days off' }), tokenize('key value'))).toBe(true);
    expect(containsPhrase(doc({ body: 'Each key value pair; days off' }), tokenize('day off'))).toBe(true);
  });
  it('does not match the words in another order or apart', () => {
    expect(containsPhrase(doc({ body: 'york new' }), tokenize('new york'))).toBe(false);
    expect(containsPhrase(doc({ body: 'new big york' }), tokenize('new york'))).toBe(false);
  });
  it('handles a phrase with repeated words', () => {
    expect(containsPhrase(doc({ body: 'to be or not to be, that is the question' }), tokenize('not to be'))).toBe(true);
    expect(containsPhrase(doc({ body: 'to be to be' }), tokenize('be to be'))).toBe(true);
    expect(containsPhrase(doc({ body: 'to be or to be' }), tokenize('be to be'))).toBe(false);
  });
  it('does not run from one heading into the next', () => {
    expect(containsPhrase(doc({ headings: ['Study room', 'Reading room'] }), tokenize('room reading'))).toBe(false);
    expect(containsPhrase(doc({ headings: ['Study room', 'Reading room'] }), tokenize('reading room'))).toBe(true);
  });
  it('restricts to one field when asked', () => {
    const d = doc({ title: 'Travel policy', body: 'policy travel' });
    expect(containsPhrase(d, tokenize('travel policy'), 'title')).toBe(true);
    expect(containsPhrase(doc({ body: 'Travel policy' }), tokenize('travel policy'), 'title')).toBe(false);
  });
  it('finds a Chinese phrase however the segmenter cut the sentence', () => {
    const words = analyze('北京大学').filter((s) => !s.extra).map((s) => s.token);
    expect(containsPhrase(doc({ body: '我们在北京大学学习', language: 'zh' }), words, undefined, '北京 大学')).toBe(true);
    expect(containsPhrase(doc({ body: '我们在北京学习', language: 'zh' }), words, undefined, '北京大学')).toBe(false);
  });
});

describe('containsPhrase: the prefix search agrees with tokenizing everything (property)', () => {
  const reference = (text: string, tokens: string[]) => {
    const words = analyze(text).filter((s) => !s.extra).map((s) => s.token);
    for (let i = 0; i + tokens.length <= words.length; i++) if (tokens.every((t, k) => words[i + k] === t)) return true;
    return false;
  };
  it('on random texts from a small vocabulary with punctuation', () => {
    const word = fc.constantFrom('impl', 'Trait', 'traits', 'happy', 'happily', 'the', 'a', 'x1', "don't", 'Vec', 'vec!', 'b'.repeat(70));
    const sep = fc.constantFrom(' ', ', ', '. ', '-', '::', ' (', ') ', '\n');
    const text = fc.array(fc.tuple(word, sep), { maxLength: 30 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    const phrase = fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(text, phrase, (body, p) => {
        const tokens = analyze(p).filter((s) => !s.extra).map((s) => s.token);
        fc.pre(tokens.length > 1);
        expect(containsPhrase(doc({ body }), tokens, 'body')).toBe(reference(body, tokens));
      }),
      { numRuns: 500 },
    );
  });
});
