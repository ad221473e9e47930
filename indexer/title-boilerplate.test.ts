import { describe, expect, it } from 'vitest';
import { commonAffixes, pageTitle, stripAffixes } from './title-boilerplate.js';

const python = [
  'json — JSON encoder and decoder — Python 3.11.2 documentation',
  're — Regular expression operations — Python 3.11.2 documentation',
  'What’s New In Python 3.11 — Python 3.11.2 documentation',
  'Glossary — Python 3.11.2 documentation',
  'pathlib — Object-oriented filesystem paths — Python 3.11.2 documentation',
  'Python Documentation contents',
];

describe('title boilerplate', () => {
  it('finds the suffix most of a site’s titles share, and strips only it', () => {
    const affixes = commonAffixes(python);
    expect(affixes).toEqual({ suffix: 'Python 3.11.2 documentation' });
    expect(stripAffixes(python[0]!, affixes)).toBe('json — JSON encoder and decoder');
    expect(stripAffixes(python[3]!, affixes)).toBe('Glossary');
    expect(stripAffixes(python[5]!, affixes)).toBe('Python Documentation contents');
  });
  it('finds a shared prefix too', () => {
    const titles = ['Acme | Home', 'Acme | Handbook', 'Acme | Travel policy', 'Acme | Canteen', 'Acme | Library'];
    expect(stripAffixes(titles[2]!, commonAffixes(titles))).toBe('Travel policy');
  });
  it('splits at a double hyphen, the ASCII stand-in for a dash (Erlang/OTP: "Erlang -- ets")', () => {
    const titles = ['Erlang -- ets', 'Erlang -- lists', 'Erlang -- gen_server', 'Erlang -- Pattern Matching', 'Erlang -- timer'];
    expect(stripAffixes(titles[0]!, commonAffixes(titles))).toBe('ets');
    expect(stripAffixes('a--b -- Erlang', { suffix: 'Erlang' })).toBe('a--b');
  });
  it('leaves titles alone on a small site or without a shared part, and never empties a title', () => {
    expect(commonAffixes(['A - Site', 'B - Site'])).toEqual({});
    expect(commonAffixes(['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'])).toEqual({});
    expect(stripAffixes('Python 3.11.2 documentation', { suffix: 'Python 3.11.2 documentation' })).toBe('Python 3.11.2 documentation');
  });
});

describe('pageTitle', () => {
  it('is the title, or the first heading when the title is empty', () => {
    expect(pageTitle({ title: 'Git Howto', headings: ['How we do it'] })).toBe('Git Howto');
    expect(pageTitle({ title: '  ', headings: ['', 'How we coordinate embargoed releases'] })).toBe('How we coordinate embargoed releases');
    expect(pageTitle({ title: '', headings: [] })).toBe('');
    expect(pageTitle({ title: '', headings: ['x'.repeat(300)] })).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('a title that shows nothing', () => {
  // A title of zero-width spaces, soft hyphens, joiners, bidi marks or Hangul fillers survived
  // `trim()`: the result was an empty link, and the typeahead offered an entry with no text.
  it.each(['\u200b\u200b \u00ad ', '\u2060\ufeff', '\u200e\u200f', '\u3164', '\u0301\u0302', '\u2800 \u115f'])('%j gives way to the first heading that shows something', (title) => {
    expect(pageTitle({ title, headings: ['\u200b', 'Orchard care'] })).toBe('Orchard care');
    expect(pageTitle({ title, headings: [] })).toBe('');
  });
  it('a title with a letter among such characters is kept as it is', () => {
    expect(pageTitle({ title: '\u200bA\u200b', headings: ['Orchard care'] })).toBe('\u200bA\u200b');
    expect(pageTitle({ title: 'é', headings: ['Orchard care'] })).toBe('é');
  });
});
