import { describe, expect, it } from 'vitest';
import type { StoredDoc } from '../../shared/index-format.js';
import { analyze, tokenize } from '../../shared/tokenize.js';
import { containsPhrase } from './phrase.js';

const doc = (over: Partial<StoredDoc>): StoredDoc => ({ title: '', headings: [], body: '', url: 'http://x.test/', anchor: [], language: 'en', ...over });

describe('containsPhrase', () => {
  it('matches words in a row, stemmed, across punctuation', () => {
    expect(containsPhrase(doc({ body: 'We visited New-York. Cities!' }), tokenize('new york'))).toBe(true);
    expect(containsPhrase(doc({ body: 'Running shoes for sale' }), tokenize('run shoe'))).toBe(true);
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
