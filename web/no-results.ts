// What a no-results page offers instead: the same query loosened one way at a time, each a link the
// user can follow. Pure; the queries are written in the query language by formatQuery, which reads
// only each atom's kind, text and field (the loosened query is parsed again when followed).

import { formatQuery, type ParsedQuery, type QueryAtom } from './query/index.js';

export interface Relaxation {
  label: string;
  q: string;
}

const asTerms = (atom: QueryAtom): QueryAtom[] =>
  atom.kind === 'phrase' ? atom.text.split(/\s+/u).filter((w) => w !== '').map((w) => ({ kind: 'term', text: w, tokens: [w], ...(atom.field ? { field: atom.field } : {}) })) : [atom];

export function relaxations(query: ParsedQuery): Relaxation[] {
  const out: Relaxation[] = [];
  const dates = { ...(query.after !== undefined ? { after: query.after } : {}), ...(query.before !== undefined ? { before: query.before } : {}) };
  const base = { required: query.required, excluded: query.excluded, sites: query.sites, excludedSites: query.excludedSites, languages: query.languages, ...dates };
  const add = (label: string, q: string) => {
    if (q !== '' && q !== query.understood && !out.some((r) => r.q === q)) out.push({ label, q });
  };
  if (query.sites.length + query.excludedSites.length + query.languages.length > 0) {
    add('without the site: and lang: filters', formatQuery({ ...base, sites: [], excludedSites: [], languages: [] }));
  }
  if (query.after !== undefined || query.before !== undefined) {
    add('without the date filter (pages without a date are left out by it)', formatQuery({ ...base, after: undefined, before: undefined }));
  }
  if (query.required.some((g) => g.length === 1 && g[0]!.kind === 'phrase')) {
    add('without the quotes', formatQuery({ ...base, required: query.required.flatMap((g) => (g.length === 1 && g[0]!.kind === 'phrase' ? asTerms(g[0]!).map((a) => [a]) : [g])) }));
  }
  if (query.required.flat().some((a) => a.field !== undefined)) {
    add('anywhere on the page, not only in titles or URLs', formatQuery({ ...base, required: query.required.map((g) => g.map(({ field: _f, ...a }) => a)) }));
  }
  if (query.excluded.length > 0) add('without the excluded words', formatQuery({ ...base, excluded: [] }));
  if (query.required.length > 1) add('any of the words', formatQuery({ ...base, required: [query.required.flat()] }));
  return out;
}
