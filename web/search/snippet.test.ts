import { describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/tokenize.js';
import { bestSnippet } from './snippet.js';

const q = (s: string) => new Set(tokenize(s));

describe('bestSnippet', () => {
  const filler = 'Lorem ipsum dolor sit amet. '.repeat(20);
  const text = `${filler}The borrow checker rejects this program. ${filler}Borrow once. ${filler}`;
  it('picks the passage holding the most distinct query words and highlights them', () => {
    const s = bestSnippet(text, 'en', q('borrow checker'), { maxChars: 120, scanChars: 50_000 });
    expect(s.text).toContain('The borrow checker rejects');
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b).toLowerCase())).toEqual(['borrow', 'checker']);
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(122);
  });
  it('without a match, starts at the beginning with no highlights', () => {
    const s = bestSnippet('Short text here.', 'en', q('absent'));
    expect(s).toEqual({ text: 'Short text here.', highlights: [] });
  });
  it('merges a Chinese word and its bigrams into one highlight', () => {
    const s = bestSnippet('我们在北京大学学习', 'zh', q('北京'));
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toEqual(['北京']);
  });
});
