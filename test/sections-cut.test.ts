// A page with more linkable headings than a page keeps (crawler/field-limits.ts maxSections, 2,000):
// the last kept section ran to the end of the text, so on a page of 10,000 headings (a hostile page;
// a one-page specification or a manual's index of terms) a query for the 9,999th linked to
// `page#h1999`, under the heading "headingword1999". The crawler now ends the kept sections with a
// mark where the first one cut starts (shared/store END_OF_SECTIONS), and a result whose words are
// past it links to the page, with its snippet from where they are.

import { describe, expect, it } from 'vitest';
import { analyzeBody } from '../crawler/analyze.js';
import { DEFAULT_FIELD_LIMITS } from '../crawler/field-limits.js';
import { parseQuery } from '../web/query/index.js';
import { fixtureEngine } from './support/fixture-engine.js';

const COUNT = DEFAULT_FIELD_LIMITS.maxSections + 200;
const html = `<title>Many headings</title>${Array.from({ length: COUNT }, (_, i) => `<h2 id="s${i}">Heading heading${i}</h2><p>Text about para${i} here.</p>`).join('')}`;
const extracted = analyzeBody({ body: new TextEncoder().encode(html), contentType: 'text/html', contentTypeHeader: 'text/html; charset=utf-8', url: 'http://cut.test/p', agent: 'gleaner', stripParams: [], xRobotsTag: [] }).extracted;
const engine = fixtureEngine([
  { url: 'http://cut.test/p', title: extracted.title, text: extracted.text, headings: extracted.headings, ...(extracted.sections ? { sections: extracted.sections } : {}) },
  { url: 'http://cut.test/other', title: 'Other page', text: 'Nothing of note.' },
]);
const search = (q: string) => engine().search(parseQuery(q), { offset: 0, limit: 10 }).hits.find((h) => h.url === 'http://cut.test/p');

describe('a page with more sections than are kept', () => {
  const last = DEFAULT_FIELD_LIMITS.maxSections - 1;
  it('links a match past the kept sections to the page, not to the last kept section', () => {
    const hit = search(`para${COUNT - 2}`);
    expect(hit).toBeDefined();
    expect(hit!.section).toBeUndefined();
    expect(hit!.snippet).toContain(`para${COUNT - 2}`);
  });
  it('still links a match in a kept section to it, the last one included, which ends where the cut began', () => {
    expect(search('para1500')?.section?.id).toBe('s1500');

    const hit = search(`para${last}`);
    expect(hit?.section?.id).toBe(`s${last}`);
    expect(hit!.snippet).not.toContain(`para${last + 1}`);
  });
  it('offers no heading for the mark', () => {
    expect(extracted.sections!.at(-1)).toMatchObject({ id: '', heading: '' });
    expect(extracted.sections!.filter((s) => s.id !== '')).toHaveLength(DEFAULT_FIELD_LIMITS.maxSections);
  });
});
