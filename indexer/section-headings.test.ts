import { describe, expect, it } from 'vitest';
import { headingsWithSections } from './section-headings.js';

describe('headingsWithSections', () => {
  it('adds the section headings the crawler did not read as headings, in order, each once', () => {
    const headings = ['Basic Shell Features', '3.6 Redirections'];
    const sections = [{ heading: 'Basic Shell Features' }, { heading: '3.6 Redirections' }, { heading: '3.6.6 Here Documents' }, { heading: '' }, { heading: '3.6.7 Here Strings' }, { heading: '3.6.6 Here Documents' }];
    expect(headingsWithSections(headings, sections)).toEqual(['Basic Shell Features', '3.6 Redirections', '3.6.6 Here Documents', '3.6.7 Here Strings']);
    expect(headings).toEqual(['Basic Shell Features', '3.6 Redirections']);
  });

  it('leaves definition terms out: a reference page defines its names, it is not headed by each', () => {
    const sections = [{ heading: 'Built-in Functions' }, { heading: 'abs(x)', term: true as const }, { heading: 'len(s)', term: true as const }];
    expect(headingsWithSections(['Built-in Functions'], sections)).toEqual(['Built-in Functions']);
  });

  it('keeps the headings as they are when there are no sections or none is new', () => {
    const headings = ['Options'];
    expect(headingsWithSections(headings, undefined)).toBe(headings);
    expect(headingsWithSections(headings, [{ heading: 'Options' }])).toBe(headings);
  });
});
