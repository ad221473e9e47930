// Pages a site owner promotes for a query (`gleaner serve --promoted FILE`): "vacation" answered first
// by the leave policy, whatever ranking thinks. An intranet's search team keeps such a list (SharePoint's
// promoted results, the Google Search Appliance's KeyMatches, Solr's query elevation, Elasticsearch's
// pinned queries); Gleaner shows them above the results of page 1, marked as recommended, and leaves the
// results as ranked. The file is Solr's elevate.xml, a page's id its URL (as Nutch indexes pages into
// Solr), so a list can move between them:
//
//   <elevate>
//     <query text="vacation policy">                 the query's words, in this order
//       <doc id="http://intranet.example/hr/leave"/>  promoted, in the order listed
//     </query>
//     <query text="expenses" match="subset">         any query holding these words, in any order
//       <doc id="http://intranet.example/finance/claims"/>
//     </query>
//   </elevate>
//
// Words meet as synonyms' do (site-words.ts): case, plurals, stems and accents as search has them. A
// query meets an entry only when it is plain words: quotes, -, OR, site:, lang:, after: and before: say
// what the user wants more exactly than a list can. Pure: the caller reads the file.

import { Parser } from 'htmlparser2';
import { GleanerError } from '../../shared/errors.js';
import { canonicalizeUrl } from '../../shared/url.js';
import { entryWords, isPlainWords, wordKey } from './site-words.js';
import type { ParsedQuery, PromotedEntry, PromotedMatch, PromotedRules } from './types.js';

export type { PromotedEntry, PromotedMatch, PromotedRules };

const SHAPE = 'an elevate.xml holds <elevate>, <query text="..."> in it and <doc id="URL"/> in those';

/** An entry's text may be as long as a query (WEB_DEFAULTS.maxQueryChars; a test holds them equal). */
export const PROMOTED_ENTRY_MAX_CHARS = 512;

/**
 * The entries of an elevate.xml file's text. Throws a GleanerError (BAD_ARGUMENT) naming `source` and the
 * line of the first mistake: a list that says something else than its owner meant should stop `serve`
 * at start, not quietly promote nothing.
 */
export function parsePromoted(text: string, source: string): PromotedRules {
  const entries: PromotedEntry[] = [];
  // Set inside the parser's callbacks: objects, so the compiler does not take them for constants.
  const state: { error?: string; root: boolean; current?: { words: string[]; match: PromotedMatch; urls: string[] } } = { root: false };
  const open: string[] = [];
  // Line numbers from the parser's offsets: a line's start, found by binary search.
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  /** What is wrong with an element opened in `parent`, or undefined. */
  const opened = (name: string, attributes: Record<string, string>, parent: string | undefined): string | undefined => {
    if (name === 'elevate' && parent === undefined && !state.root) {
      state.root = true;
      return undefined;
    }
    if (name === 'query' && parent === 'elevate') {
      if (attributes.text === undefined) return 'a <query> without text="the query\'s words"';
      const words = entryWords(attributes.text.trim(), PROMOTED_ENTRY_MAX_CHARS);
      if (typeof words === 'string') return words;
      const match = attributes.match ?? 'exact';
      if (match !== 'exact' && match !== 'subset') return `match="${match}": exact (the default) or subset`;
      state.current = { words: words.map(wordKey), match, urls: [] };
      return undefined;
    }
    if (name === 'doc' && parent === 'query' && state.current !== undefined) {
      const id = (attributes.id ?? '').trim();
      if (attributes.exclude === 'true') return `exclude="true" on ${id}: Gleaner promotes pages and hides none (to keep a page out of the index, exclude it from the crawl)`;
      // As the crawler writes URLs (host in lower case, no default port, no fragment), so it meets the index's.
      const url = canonicalizeUrl(id);
      if (url === undefined) return `a <doc> whose id is not a page's URL (http:// or https://): "${id}"`;
      if (!state.current.urls.includes(url)) state.current.urls.push(url);
      return undefined;
    }
    if (parent === undefined && state.root) return `a second root element <${name}>`;
    return `<${name}> inside ${parent === undefined ? 'nothing' : `<${parent}>`}: ${SHAPE}`;
  };
  const fail = (why: string | undefined): void => {
    if (why === undefined || state.error !== undefined) return;
    state.error = `${source} line ${lineOf(parser.startIndex)}: ${why}`;
    parser.pause();
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const parent = open.at(-1);
        open.push(name);
        fail(opened(name, attributes, parent));
      },
      onclosetag(name) {
        open.pop();
        const query = state.current;
        if (name !== 'query' || query === undefined) return;
        if (query.urls.length === 0) fail('<query text> promotes no page: list one <doc id="URL"/> or more');
        entries.push(query);
        state.current = undefined;
      },
      ontext(data) {
        if (data.trim() !== '') fail(`text "${data.trim().slice(0, 40)}" where only elements belong`);
      },
    },
    { xmlMode: true },
  );
  parser.end(text.replace(/^\uFEFF/, ''));
  if (state.error !== undefined) throw new GleanerError('BAD_ARGUMENT', state.error);
  if (!state.root) throw new GleanerError('BAD_ARGUMENT', `${source}: no <elevate> element: ${SHAPE}`);
  const exact = new Map<string, number[]>();
  const subsetByWord = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const [map, key] = e.match === 'exact' ? [exact, e.words.join(' ')] : [subsetByWord, e.words[0]!];
    map.set(key, [...(map.get(key) ?? []), i]);
  });
  return { entries, urls: [...new Set(entries.flatMap((e) => e.urls))], exact, subsetByWord };
}

/** The URLs promoted for `query`, in the order the file lists them (entries first to last), each once;
 * empty when the query is not plain words or meets no entry. Pure. */
export function promotedUrls(query: ParsedQuery, rules: PromotedRules): string[] {
  if (rules.entries.length === 0 || !isPlainWords(query)) return [];
  const typed = query.required.map((g) => wordKey(g[0]!));
  const typedSet = new Set(typed);
  const met = [...(rules.exact.get(typed.join(' ')) ?? [])];
  for (const word of typedSet) {
    for (const i of rules.subsetByWord.get(word) ?? []) if (rules.entries[i]!.words.every((w) => typedSet.has(w))) met.push(i);
  }
  const urls = new Set<string>();
  for (const i of met.sort((a, b) => a - b)) for (const url of rules.entries[i]!.urls) urls.add(url);
  return [...urls];
}
