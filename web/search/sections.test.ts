import { describe, expect, it } from 'vitest';
import { analyze } from '../../shared/analysis/index.js';
import { bestSection, sectionUrl } from './sections.js';

const tokens = (q: string) => new Set(analyze(q, 'en').map((t) => t.token));

/** A stored body made of sections, each heading followed by its text, with their start offsets. */
function doc(parts: [id: string, heading: string, text: string][], intro = 'A page description.') {
  let body = intro;
  const sections = parts.map(([id, heading, text]) => {
    body += ' ';
    const start = body.length;
    body += `${heading} ${text}`;
    return { id, heading, start };
  });
  return { body, language: 'en', sections };
}

const page = doc([
  ['top', 'Collections', 'This module implements container datatypes. Containers hold things.'],
  ['deque', 'deque objects', 'Returns a new deque object initialized left-to-right. Deques support thread-safe appends.'],
  ['counter', 'Counter objects', 'A counter tool is provided to support convenient and rapid tallies.'],
  ['ordered', 'OrderedDict objects', 'Ordered dictionaries are just like regular dictionaries, remembering insertion order of appends.'],
]);

describe('bestSection', () => {
  it('picks the section whose heading and text hold the query words, with the text after its heading', () => {
    const s = bestSection(page, tokens('deque appends'));
    expect(s?.id).toBe('deque');
    expect(s?.heading).toBe('deque objects');
    expect(page.body.slice(s!.start, s!.end).trim()).toBe('Returns a new deque object initialized left-to-right. Deques support thread-safe appends.');
  });

  it('prefers the section holding more of the query words over one repeating a single word', () => {
    expect(bestSection(page, tokens('ordered insertion'))?.id).toBe('ordered');
  });

  it('a word in a heading outweighs the same word once in another section text', () => {
    expect(bestSection(page, tokens('counter'))?.id).toBe('counter');
  });

  it('prefers the section whose heading names the query words over a long one repeating them', () => {
    const manual = doc([
      ['params', 'Shell Parameter Expansion', 'The expansion of a parameter. '.repeat(40) + 'Arithmetic is done elsewhere; arithmetic again.'],
      ['arith', 'Arithmetic Expansion', 'Evaluates an arithmetic expression and substitutes the result.'],
    ]);
    expect(bestSection(manual, tokens('arithmetic expansion'))?.id).toBe('arith');
  });

  it('gives no section when the page top matches best, the page has one section, or none', () => {
    expect(bestSection(page, tokens('container datatypes'))).toBeUndefined();
    expect(bestSection(doc([['only', 'Only', 'deque here']]), tokens('deque'))).toBeUndefined();
    expect(bestSection({ body: 'deque', language: 'en' }, tokens('deque'))).toBeUndefined();
  });

  it('ignores sections past the part of the body that was read', () => {
    const cut = { ...page, body: page.body.slice(0, page.sections[2]!.start - 1) };
    expect(bestSection(cut, tokens('counter tallies'))).toBeUndefined();
  });
});

describe('sectionUrl', () => {
  it('puts the id in the fragment, replacing one, percent-encoding what a fragment cannot hold', () => {
    expect(sectionUrl('http://h/p.html', 'method.push')).toBe('http://h/p.html#method.push');
    expect(sectionUrl('http://h/p.html#old', 'GIN-INTRO')).toBe('http://h/p.html#GIN-INTRO');
    expect(sectionUrl('http://h/p', 'a b"é')).toBe('http://h/p#a%20b%22%C3%A9');
  });
});
