// The forgiving query parser: any string becomes a ParsedQuery, never an error. What cannot be used is
// dropped and listed in `ignored` with the reason, so the result page can say "showing results for
// ..., ignored: ...". Words become index tokens through the same tokenizer the indexer used.
//
// Language: words (all required), "exact phrase", -word, -"phrase", `a OR b` (also `a | b`),
// site:host and -site:host, intitle:word / intitle:"phrase", inurl:word, lang:xx, after:2024-03 and
// before:2025 (date-filter.ts).

import type { ParsedQuery, QueryAtom } from './types.js';
import { WEB_DEFAULTS, type QueryLimits } from '../defaults.js';
import { cleanInput, lex, type Item } from './lex.js';
import { dateBound, narrower } from './date-filter.js';
import { tokenize as sharedTokenize } from '../../shared/analysis/index.js';
import { DROPPED_URL_EXTENSIONS, urlWords } from '../../shared/index-format/index.js';

/** Text to index tokens, as the indexer does it. */
export type Tokenize = (text: string) => string[];

export interface ParseOptions {
  /** Defaults to the indexer's tokenizer; tests may pass another. */
  tokenize?: Tokenize;
  limits?: Partial<QueryLimits>;
}

type WordItem = Extract<Item, { type: 'word' | 'phrase' }>;

/** How an item is written back in the query language, for `understood` and for notices. */
function show(item: WordItem): string {
  const body = item.type === 'phrase' ? `"${item.text}"` : item.text;
  return `${item.negated ? '-' : ''}${item.operator ? item.operator + ':' : ''}${body}`;
}

function showAtom(atom: QueryAtom): string {
  const body = atom.kind === 'phrase' ? `"${atom.text}"` : atom.text;
  return (atom.field === 'title' ? 'intitle:' : atom.field === 'url' ? 'inurl:' : '') + body;
}

/** A query written back in the query language: what `understood` holds, and what relaxed queries use. */
export function formatQuery(q: Pick<ParsedQuery, 'required' | 'excluded' | 'sites' | 'excludedSites' | 'languages' | 'after' | 'before'>): string {
  return [
    ...q.required.map((group) => group.map(showAtom).join(' OR ')),
    ...q.excluded.map((atom) => '-' + showAtom(atom)),
    ...q.sites.map((host) => `site:${host}`),
    ...q.excludedSites.map((host) => `-site:${host}`),
    ...q.languages.map((code) => `lang:${code}`),
    ...(q.after !== undefined ? [`after:${q.after}`] : []),
    ...(q.before !== undefined ? [`before:${q.before}`] : []),
  ].join(' ');
}

/** The host a `site:` value names (`https://Docs.Example.com/x` -> `docs.example.com`), with its port
 * when one is given (`127.0.0.1:8081`: two servers on one host are two sites), or undefined. */
export function siteHost(value: string): string | undefined {
  const bare = value
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '')
    .replace(/^\*?\.+/, '')
    .replace(/\.+$/, '');
  if (bare === '' || /[\s@]/u.test(bare)) return undefined;
  try {
    const url = new URL(`http://${bare}/`);
    if (url.hostname === '') return undefined;
    // An explicit port is kept even when it is http's default: the filter compares it with the page's.
    const port = /:(\d+)$/.exec(bare)?.[1];
    return port === undefined ? url.hostname : `${url.hostname}:${Number(port)}`;
  } catch {
    return undefined;
  }
}

/** The primary language subtag a `lang:` value names (`en-GB` -> `en`), or undefined. */
export function languageCode(value: string): string | undefined {
  const primary = value.toLowerCase().split(/[-_]/)[0] ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

// Operators of other engines' query languages that this one does not have: written in capitals they are
// meant as operators, not searched for as words, so they are dropped and the user told what to write.
const BOOLEAN_WORDS = new Map([
  ['NOT', '(to leave out pages with a word, write -word)'],
  ['AND', '(every word is required already)'],
]);

/** Cuts input to `max` code points; says whether it cut. The text the parser reads, so what pages and
 * links echo back is this, never more of the input. */
export function capQueryText(input: string, max: number): { text: string; cut: boolean } {
  if (input.length <= max) return { text: input, cut: false }; // UTF-16 length >= code points
  const points = Array.from(input);
  if (points.length <= max) return { text: input, cut: false };
  return { text: points.slice(0, max).join(''), cut: true };
}

export function parseQuery(input: string, options: ParseOptions = {}): ParsedQuery {
  const tokenize = options.tokenize ?? sharedTokenize;
  const limits = { ...WEB_DEFAULTS, ...options.limits };
  const ignored: string[] = [];
  const raw = typeof input === 'string' ? input : '';
  const { text, cut } = capQueryText(raw, limits.maxQueryChars);
  if (cut) ignored.push(`input cut at ${limits.maxQueryChars} characters`);

  const required: QueryAtom[][] = [];
  const excluded: QueryAtom[] = [];
  const sites: string[] = [];
  const excludedSites: string[] = [];
  const languages: string[] = [];
  const dates: Pick<ParsedQuery, 'after' | 'before'> = {};
  let used = 0;
  let overLimit = 0;
  // An OR joins the next word to the group of the word before it; only words take part.
  let lastWasRequired = false;
  let pendingOr = false;

  const dropPendingOr = (where: string) => {
    if (pendingOr) ignored.push(`"OR" ${where}`);
    pendingOr = false;
  };

  for (const item of lex(cleanInput(text))) {
    if (item.type === 'stray') {
      ignored.push(item.text === '-' ? 'a "-" with no word after it' : `"${item.text}" with no value after it`);
      continue;
    }
    if (used >= limits.maxQueryAtoms) {
      if (item.type !== 'or') overLimit++;
      continue;
    }
    if (item.type === 'or') {
      if (pendingOr) ignored.push('a repeated "OR"');
      else if (required.length === 0 && excluded.length === 0 && sites.length + excludedSites.length + languages.length === 0 && dates.after === undefined && dates.before === undefined) {
        ignored.push('"OR" at the start');
      } else if (!lastWasRequired) ignored.push('"OR" that does not follow a word');
      else pendingOr = true;
      continue;
    }
    if (item.operator === 'site' || item.operator === 'lang') {
      dropPendingOr(`before ${show(item)} (site: and lang: filters are already alternatives)`);
      lastWasRequired = false;
      if (item.operator === 'site') {
        const host = siteHost(item.text);
        if (host === undefined) ignored.push(`${show(item)} (not a host name)`);
        else {
          const list = item.negated ? excludedSites : sites;
          if (!list.includes(host)) list.push(host);
          used++;
        }
      } else {
        const code = languageCode(item.text);
        if (item.negated) ignored.push(`${show(item)} (a language can be chosen, not excluded)`);
        else if (code === undefined) ignored.push(`${show(item)} (use a language code such as lang:en)`);
        else {
          if (!languages.includes(code)) languages.push(code);
          used++;
        }
      }
      continue;
    }
    if (item.operator === 'after' || item.operator === 'before') {
      const kind = item.operator;
      dropPendingOr(`before ${show(item)} (OR joins words to include)`);
      lastWasRequired = false;
      const bound = dateBound(item.text);
      if (item.negated) ignored.push(`${show(item)} (a date filter cannot be excluded: before: and after: bound the dates)`);
      else if (bound === undefined) ignored.push(`${show(item)} (use a year, a month or a day, such as ${kind}:2024-03-01)`);
      else {
        dates[kind] = narrower(kind, dates[kind], bound);
        used++;
      }
      continue;
    }
    if (item.type === 'word' && !item.negated && item.operator === undefined && BOOLEAN_WORDS.has(item.text)) {
      ignored.push(`"${item.text}" ${BOOLEAN_WORDS.get(item.text)!}`);
      continue;
    }
    if (item.type === 'phrase' && item.unclosed) ignored.push(`the missing closing quote after ${show(item)} (the phrase runs to the end)`);
    if (item.operator === 'inurl' && DROPPED_URL_EXTENSIONS.includes(item.text.toLowerCase().replace(/^\./, ''))) {
      ignored.push(`${show(item)} (addresses are searched without their ${DROPPED_URL_EXTENSIONS.map((e) => `.${e}`).join(', ')})`);
      continue;
    }
    const text = item.operator === 'inurl' ? urlWords(item.text) : item.text;
    const tokens = text.trim() === '' ? [] : tokenize(text);
    if (tokens.length === 0) {
      ignored.push(item.text === '' ? `${show(item)} (empty)` : `${show(item)} (no searchable words)`);
      continue;
    }
    const atom: QueryAtom = { kind: item.type === 'phrase' ? 'phrase' : 'term', text: item.text, tokens };
    if (item.operator === 'intitle') atom.field = 'title';
    if (item.operator === 'inurl') atom.field = 'url';
    used++;
    if (item.negated) {
      dropPendingOr(`before ${show(item)} (OR joins words to include)`);
      excluded.push(atom);
      lastWasRequired = false;
    } else if (pendingOr && required.length > 0) {
      required[required.length - 1]!.push(atom);
      pendingOr = false;
      lastWasRequired = true;
    } else {
      required.push([atom]);
      lastWasRequired = true;
    }
  }
  if (pendingOr) ignored.push('"OR" at the end');
  if (overLimit > 0) ignored.push(`${overLimit} more word${overLimit === 1 ? '' : 's'} (at most ${limits.maxQueryAtoms} are used)`);

  const understood = formatQuery({ required, excluded, sites, excludedSites, languages, ...dates });
  return { required, excluded, sites, excludedSites, languages, ...dates, understood, ignored };
}
