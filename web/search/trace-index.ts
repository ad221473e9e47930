// The index-side steps of a URL's trace (shared/trace.ts): the document as indexed, its tokens and
// stems per field, its postings, the anchor texts of the pages linking to it. Read from the loaded
// generation by the search engine (engine.ts trace), so the /trace page and `gleaner trace` agree.

import { analyze } from '../../shared/analysis/index.js';
import { FIELDS, type IndexGeneration, type StoredDoc } from '../../shared/index-format/index.js';
import { more, TRACE_LIST_LIMIT, type TraceStep } from '../../shared/trace.js';
import { findPosting } from './find-posting.js';

/** The page as the indexer saw it: its fields, their tokens and stems, and its postings. */
export function indexSteps(gen: IndexGeneration, doc: number, stored: StoredDoc, sampleChars = 300): TraceStep[] {
  const d = gen.docs;
  const fieldTexts: Record<string, string> = { title: stored.title, headings: stored.headings.join(' · '), body: stored.body, url: stored.url, anchor: stored.anchor.join(' · ') };
  const tokenFacts: [string, string][] = [];
  const stems = new Set<string>();
  for (const field of FIELDS) {
    const spans = analyze(fieldTexts[field] ?? '', stored.language);
    for (const s of spans) stems.add(s.token);
    tokenFacts.push([field, `${spans.length} tokens: ${more(spans, (s) => (s.word === s.token ? s.token : `${s.word}→${s.token}`))}`]);
  }
  const postings: [string, string][] = [];
  for (const token of [...stems].slice(0, TRACE_LIST_LIMIT)) {
    const id = gen.termIds.get(token);
    if (id === undefined) continue;
    const list = gen.lists.list(id);
    const at = findPosting(list.docs, 0, list.docs.length, doc);
    if (at < 0) continue;
    // This posting's frequencies alone: a common word's decoded whole are 5 bytes a posting.
    const one = new Uint8Array(FIELDS.length);
    list.frequencies(at, one);
    const tfs = FIELDS.map((f, i) => `${f} ${one[i]!}`).filter((s) => !s.endsWith(' 0'));
    postings.push([token, `in ${list.docs.length} documents; here ${tfs.join(', ')}`]);
  }
  return [
    {
      title: 'Indexed document',
      decidedBy: ['indexer/read-store.ts', 'indexer/templates.ts', 'indexer/page-date.ts', 'indexer/build.ts'],
      verdict: `document ${doc} of ${d.url.length}`,
      facts: [
        ['title', stored.title || '(none)'],
        ['language', stored.language || '(unknown)'],
        ['date', Number.isNaN(d.date[doc]!) ? '(none: the page declares none, and no Last-Modified the index trusts)' : new Date(d.date[doc]!).toISOString()],
        ['headings', more(stored.headings, (h) => h)],
        ['body as indexed', `${stored.body.length} characters: ${stored.body.slice(0, sampleChars)}${stored.body.length > sampleChars ? '…' : ''}`],
        ['sections', more(stored.sections ?? [], (s) => `#${s.id} ${s.heading}`)],
      ],
      note: 'The body holds the page text without its site template (navigation, headers, footers repeated across the host: indexer/templates.ts).',
    },
    {
      title: 'Tokens and stems per field',
      decidedBy: ['shared/analysis/tokenize.ts', 'shared/analysis/registry.ts'],
      verdict: `${stems.size} distinct terms`,
      facts: tokenFacts,
      note: 'word→stem where stemming changed it: a query for "runs" finds "running" because both become "run".',
    },
    {
      title: 'Index entries',
      decidedBy: ['indexer/postings.ts', 'shared/index-format/index-format.ts'],
      verdict: `${postings.length} of its terms shown with their postings`,
      facts: postings,
      note: 'Each term lists the documents that contain it, with how often per field: ranking reads these, never the page.',
    },
    {
      title: 'Inbound links',
      decidedBy: ['indexer/link-graph.ts', 'web/search/rank.ts'],
      verdict: `${stored.anchor.length} linking pages' anchor texts`,
      facts: [['anchor texts', more(stored.anchor, (a) => `"${a}"`)]],
      note: 'Words other pages use to link here are searched as the anchor field; how many pages link here boosts the score a little.',
    },
  ];
}

/** The document number of a URL in a generation, or undefined. */
export function docOf(gen: IndexGeneration, url: string): number | undefined {
  const i = gen.docs.url.indexOf(url);
  return i === -1 ? undefined : i;
}
