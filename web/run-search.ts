// One search as both the HTML page and the JSON API run it: parse, check the page bounds, ask the
// engine, time it. Pure apart from the clock; the routes only read request parameters and render.

import { applySynonyms, capQueryText, parseQuery, promotedUrls, type ParsedQuery } from './query/index.js';
import type { SearchEngine, SearchHit, SearchResult, SortOrder } from './search/index.js';
import type { QueryLimits, WebOptions } from './defaults.js';
import { HttpError } from './http-error.js';
import type { LruCache } from './lru.js';

export interface SearchRun {
  /** What the user typed, cut as the parser cuts it (maxQueryChars): the search box, the paging and
   * trace links echo this, so a 15 KB query no longer made a 292 KB page of copies of it. */
  input: string;
  query: ParsedQuery;
  result: SearchResult;
  page: number;
  size: number;
  /** Pages that hold results, at most `maxPage`. */
  pages: number;
  /** Parse plus search, in milliseconds. */
  elapsedMs: number;
  /** The query has nothing to look for (only exclusions, filters or ignored parts). */
  needsWord: boolean;
  /** Set when the typed query matched nothing and its spelling correction was searched instead
   * ("Showing results for vacuum freeze; search instead for vacum freeze"): `query` and `result` are
   * then the correction's, `literal` what the user typed (searched as typed with `literal=1`). */
  corrected?: { literal: string };
  /** Set when the search was asked as you type (RunOptions.complete), the query as typed had no
   * every-word match, and its last word, still being typed, was completed ("habitat wom" -> "habitat
   * wombat") and searched in its place: `query` and `result` are then the completion's, `typed` the input. */
  completed?: { typed: string };
  /** The order of the results (SearchOptions.sort). */
  sort: SortOrder;
  /** Pages the site promotes for the query (WebOptions.promoted), shown above page 1's results;
   * absent on later pages and when none is promoted or indexed. */
  promoted?: SearchHit[];
}

/** Search options of a run: `literal` turns the automatic spelling correction off (the "search instead
 * for" link sets it, as large engines' `nfpr=1` does). Default false. */
export interface RunOptions {
  literal?: boolean;
  /** Explain each hit (SearchOptions.explain). Default true. */
  explain?: boolean;
  /** The order of the results (SearchOptions.sort). Default 'relevance'. */
  sort?: SortOrder;
  /** As you type (a search box that searches at each keystroke, as Pagefind's and DocSearch's do): a
   * last word with no space after it may be the start of a word, so when the query as typed has no
   * every-word match, its last word's completion (what /api/suggest offers first) is searched in its
   * place. Default false: a query sent whole means its words as typed. */
  complete?: boolean;
}

/** The last word of `q` and what precedes it: completions replace the last word. */
export function splitLastWord(q: string): { head: string; last: string } {
  const m = /^(.*?)(\S*)$/su.exec(q.trimStart());
  return { head: m?.[1] ?? '', last: m?.[2] ?? '' };
}

/** The query with its last word completed, as typed at a keystroke: undefined when the input ends in a
 * space (the word is finished), its last word is an operator, a name or inside quotes (completions are
 * of words), or no longer word begins with it. Pure but for the engine's word list. */
export function completedQuery(engine: Pick<SearchEngine, 'suggest'>, input: string): string | undefined {
  if (/\s$/u.test(input) || (input.match(/"/g)?.length ?? 0) % 2 === 1) return undefined;
  const { head, last } = splitLastWord(input);
  if (!/^[\p{L}\p{N}]+$/u.test(last)) return undefined;
  const word = last.normalize('NFKC').toLowerCase();
  const completion = engine.suggest(word, 1, head)[0];
  return completion === undefined || completion === word ? undefined : head + completion;
}

/** `text` parsed as a search runs it: the site's synonyms (WebOptions.synonyms) added as OR
 * alternatives, which `understood` then says. What "why this result" ranks too. */
export function parseAsSearched(text: string, options: Pick<WebOptions, 'synonyms' | keyof QueryLimits>): ParsedQuery {
  const parsed = parseQuery(text, { limits: options });
  return options.synonyms === undefined ? parsed : applySynonyms(parsed, options.synonyms);
}

const EMPTY: SearchResult = { total: 0, hits: [], tookMs: 0 };

export function runSearch(
  engine: SearchEngine,
  typed: string,
  page: number,
  size: number,
  options: WebOptions,
  cache?: LruCache<SearchResult>,
  run: RunOptions = {},
): SearchRun {
  const started = performance.now();
  const input = capQueryText(typed, options.maxQueryChars).text;
  const parse = (text: string) => parseAsSearched(text, options);
  let query = parse(typed);
  const needsWord = query.required.length === 0;
  const offset = (page - 1) * size;
  const explain = run.explain !== false;
  const sort = run.sort ?? 'relevance';
  const search = (q: ParsedQuery): SearchResult => {
    // `understood` writes out every part of the query that the engine reads, so with the index
    // generation (a re-index is picked up by a running server) it names the answer.
    const key = (explained: boolean) => `${engine.summary().builtAt}\u0000${q.understood}\u0000${offset}\u0000${size}\u0000${sort}\u0000${explained ? 'e' : ''}`;
    // An answer with explanations serves a request without (the API leaves them out).
    let found = cache?.get(key(true)) ?? (explain ? undefined : cache?.get(key(false)));
    if (found === undefined) {
      found = engine.search(q, { offset, limit: size, explain, sort });
      cache?.set(key(explain), found);
    }
    return found;
  };
  let result = needsWord ? EMPTY : search(query);
  let corrected: SearchRun['corrected'];
  let completed: SearchRun['completed'];
  /** The correction or completion searched in the typed query's place, as it reads before synonyms. */
  let correction: string | undefined;
  // As you type, a last word that starts a word is read as that word before it is read as a typo.
  const completion = !needsWord && run.complete === true && run.literal !== true && result.total === 0 ? completedQuery(engine, input) : undefined;
  if (completion !== undefined) {
    const whole = parse(completion);
    const wholeResult = search(whole);
    if (wholeResult.total > 0) {
      completed = { typed: input };
      correction = completion;
      query = { ...whole, ignored: query.ignored };
      result = wholeResult;
    }
  }
  // A typo that leaves no every-word match: a sure correction is searched at once, if it finds pages;
  // an unsure one is only offered, beside the partial matches of the query as typed.
  if (!needsWord && run.literal !== true && result.total === 0 && result.didYouMean?.sure === true) {
    const fixed = parse(result.didYouMean.query);
    const fixedResult = search(fixed);
    if (fixedResult.total > 0) {
      corrected = { literal: input };
      correction = result.didYouMean.query;
      query = { ...fixed, ignored: query.ignored };
      result = fixedResult;
    }
  }
  // Pages are counted up to the matches they can show (SearchResult.reachable), not past them to an
  // estimate: "in a" said "about 7,091 results, page 41 of 100" over an empty page, to the 100th.
  const pages = Math.min(options.maxPage, Math.ceil(Math.min(result.total, result.reachable ?? result.total) / size));
  if (page > 1 && page > pages) {
    throw new HttpError(404, pages === 0 ? 'this search has no results' : `this search has ${pages} page${pages === 1 ? '' : 's'} of results, not ${page}`);
  }
  const promoted = page === 1 ? promotedHits(engine, options, correction === undefined ? [typed] : [typed, correction], query) : [];
  return {
    input,
    query,
    result,
    page,
    size,
    pages,
    elapsedMs: performance.now() - started,
    needsWord,
    sort,
    ...(corrected ? { corrected } : {}),
    ...(completed ? { completed } : {}),
    ...(promoted.length > 0 ? { promoted } : {}),
  };
}

/** The pages promoted for the first of `texts` that meets an entry (the query as typed, then the
 * correction searched in its place), as results of `query`. The words typed are met, not their synonyms. */
function promotedHits(engine: SearchEngine, options: WebOptions, texts: readonly string[], query: ParsedQuery): SearchHit[] {
  if (options.promoted === undefined || engine.pagesAsResults === undefined) return [];
  for (const text of texts) {
    const urls = promotedUrls(parseQuery(text, { limits: options }), options.promoted);
    if (urls.length > 0) return engine.pagesAsResults(urls, query);
  }
  return [];
}
