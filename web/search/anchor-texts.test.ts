// Anchor texts of pages that link to a reference page at its parts (`lang_corefunc.html#coalesce`
// "coalesce()", `#like` "like()"), over a small site written to a real store, indexed and searched:
// each name a page links with reaches the reference page (shared/store links.ts linkEdgesOf), so the
// page that documents coalesce() comes before pages whose prose says the word more often.

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { type PageSpec } from '../../test/support/index-fixture.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';

const S = 'http://docs.test';
// Pages run to a few paragraphs, as they do.
const PROSE = 'This page walks through the steps a database takes to answer, with examples for each case and the reasons behind the defaults. Read it before changing the schema of a database that others rely on, and test every change on a copy first, since a query plan may change with the statistics the database keeps about its tables and indexes.';
const FUNCTIONS = ['abs', 'changes', 'char', 'coalesce', 'format', 'glob', 'hex', 'ifnull', 'instr', 'length', 'like', 'lower', 'ltrim', 'max', 'min', 'nullif', 'printf', 'quote', 'random', 'replace', 'round', 'rtrim', 'substr', 'trim', 'typeof', 'upper'];
const reference: PageSpec = {
  url: `${S}/lang_corefunc.html`,
  title: 'Built-In Scalar SQL Functions',
  headings: ['Overview', 'Descriptions of built-in scalar SQL functions'],
  // Its list of the functions first, then each described.
  text: `${FUNCTIONS.map((f) => `${f}(X)`).join(' ')} ${FUNCTIONS.map((f) => `${f}(X) The ${f}() function returns a value computed from its argument X, or NULL when X is NULL.`).join(' ')}`,
};
// Pages that explain something else and name a few functions on the way, linking each to its part of
// the reference page; the first link of each is to the page as a whole.
const linking: PageSpec[] = Array.from({ length: 6 }, (_, i) => ({
  url: `${S}/guide-${i}.html`,
  title: `Guide ${i}`,
  text: `${PROSE} Guide ${i} explains queries. It uses the built-in functions, such as ${FUNCTIONS[i + 10]}() and like()${i < 3 ? ' and coalesce()' : ''}, in its examples of expressions.`,
  links: [
    [reference.url, 'built-in functions'],
    [reference.url, `${FUNCTIONS[i + 10]}()`],
    [reference.url, 'like()'],
    ...(i < 3 ? [[reference.url, 'coalesce()'] as [string, string]] : []),
  ],
}));
// Pages whose prose says the word often: an essay, an undo/redo recipe.
const prose: PageSpec[] = ['essay', 'undo'].map((name) => ({
  url: `${S}/${name}.html`,
  title: `About ${name}`,
  text: `${PROSE} The ${name} query uses coalesce to pick a value, coalesce(a, b), and coalesce again for every column. ${PROSE}`,
}));
// The rest of the site, its pages linked to each other as a site's are (each has anchor texts).
const rest: PageSpec[] = Array.from({ length: 300 }, (_, i) => ({ url: `${S}/topic-${i}.html`, title: `Topic ${i}`, text: `Topic ${i} covers tables, indexes and the values a query returns. ${PROSE}`, links: [[`${S}/topic-${(i + 1) % 300}.html`, `Topic ${(i + 1) % 300}`], [`${S}/topic-${(i + 7) % 300}.html`, `Topic ${(i + 7) % 300} and its tables`]] }));

describe('anchor texts a page links to the parts of another with', () => {
  const engineOf = fixtureEngine([reference, ...linking, ...prose, ...rest]);
  const search = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10, explain: true });

  it('reach the reference page, each name its own anchor, so the page that documents it comes first', () => {
    const hits = search('coalesce').hits;
    expect(hits[0]!.url).toBe(reference.url);
    const anchor = hits[0]!.explain!.terms.find((t) => t.field === 'anchor');
    expect(anchor?.tf).toBe(3);
  });

  it('count a page once however many texts it links with (inbound links unchanged)', () => {
    expect(search('coalesce').hits.find((h) => h.url === reference.url)?.explain?.inboundLinks).toBe(linking.length);
  });
});
