// A stopword in a query pairs with its neighbour (shared/analysis wordPairs): of two pages alike but for
// their headings, "here document" puts first the one headed "Here Documents".

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';

const S = 'http://manual.test';

describe('a stopword beside a query word', () => {
  const engine = fixtureEngine([
    { url: `${S}/conventions`, title: 'Conventions', headings: ['Document Conventions'], text: 'Document Conventions. This convention reads a document from the script until a delimiter line.' },
    { url: `${S}/redirections`, title: 'Redirections', headings: ['Here Documents'], text: 'Here Documents. This redirection reads a document from the script until a delimiter line.' },
    // A site's other pages: a pair is rare among them, as on any real site.
    ...Array.from({ length: 40 }, (_, i) => ({ url: `${S}/page-${i}`, title: `Builtin ${i}`, text: `Builtin ${i} runs here in the shell.` })),
  ]);

  it('ranks the heading that names the pair first', () => {
    const hits = engine().search(parseQuery('here document'), { offset: 0, limit: 10 }).hits.map((h) => h.url);
    expect(hits).toEqual([`${S}/redirections`, `${S}/conventions`]);
  });
});
