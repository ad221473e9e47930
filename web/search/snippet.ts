// The snippet: the passage of a page's text where the query's words are densest, with their offsets. Pure.

import { charBefore, identifierTails, isFoldToken, isIdentifierToken, scanTokens, stemSearchPrefix, stemsArePrefixes, symbolSuffix, tokenAt, wordHolding } from '../../shared/analysis/index.js';

export interface SnippetOptions {
  /** Longest snippet in characters (before the ellipses). */
  maxChars: number;
  /** Only this much of the text is searched for a passage: long pages cost no more than this. */
  scanChars: number;
}

export const DEFAULT_SNIPPET_OPTIONS: Readonly<SnippetOptions> = { maxChars: 220, scanChars: 50_000 };

export interface Snippet {
  text: string;
  /** [start, end) offsets into `text`. */
  highlights: [number, number][];
}

const ELLIPSIS = '…';

/**
 * The window of at most `maxChars` characters that holds the most distinct query tokens (then the most
 * matches), cut at word boundaries. Without any match: the text's beginning and no highlights.
 */
/** How far back a snippet may start to begin at the start of the token its first match is part of. */
const MAX_WORD_BACKTRACK_CHARS = 40;

export function bestSnippet(
  text: string,
  language: string,
  queryTokens: ReadonlySet<string>,
  options: SnippetOptions = DEFAULT_SNIPPET_OPTIONS,
  /** Whether `text` is a part of a longer text that goes on before it, after it (an ellipsis there). */
  more: { before: boolean; after: boolean } = { before: false, after: false },
  /** Whether a query token may stand in `text` (querySpans). */
  present: (token: string) => boolean = MAY_BE_ANYWHERE,
): Snippet {
  const scanned = text.length > options.scanChars ? text.slice(0, options.scanChars) : text;
  const spans = querySpans(scanned, language, queryTokens, present);
  if (spans.length === 0) return { text: (more.before ? ELLIPSIS : '') + cut(text, 0, options.maxChars, more.after), highlights: [] };

  // Slide a window over the matches: [i, j] fits when its span is at most maxChars (a span longer
  // than that is a window of its own). A count per token keeps the window's distinct tokens.
  let bestI = 0;
  let bestJ = 0;
  let bestDistinct = 0;
  let bestCount = 0;
  const counts = new Map<string, number>();
  let distinct = 0;
  let j = -1;
  for (let i = 0; i < spans.length; i++) {
    if (j < i) {
      j = i;
      if ((counts.get(spans[i]!.token) ?? 0) === 0) distinct++;
      counts.set(spans[i]!.token, (counts.get(spans[i]!.token) ?? 0) + 1);
    }
    while (j + 1 < spans.length && spans[j + 1]!.end - spans[i]!.start <= options.maxChars) {
      j++;
      const n = counts.get(spans[j]!.token) ?? 0;
      if (n === 0) distinct++;
      counts.set(spans[j]!.token, n + 1);
    }
    if (distinct > bestDistinct || (distinct === bestDistinct && j - i + 1 > bestCount)) {
      bestI = i;
      bestJ = j;
      bestDistinct = distinct;
      bestCount = j - i + 1;
    }
    const n = counts.get(spans[i]!.token)!;
    if (n === 1) distinct--;
    counts.set(spans[i]!.token, n - 1);
  }
  const first = spans[bestI]!;
  const last = spans[bestJ]!;
  // Centre the matches in the window, then snap to word boundaries.
  const slack = Math.max(0, options.maxChars - (last.end - first.start));
  let start = Math.max(0, first.start - Math.floor(slack / 2));
  let end = Math.min(text.length, start + options.maxChars);
  start = Math.max(0, Math.min(start, end - options.maxChars));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < first.start) start = space + 1;
  }
  // A match inside a longer token (an identifier's part: `pending` in gin_pending_list_limit) opens
  // the snippet at that token's beginning, not mid-word.
  if (start > 0 && text[start - 1] !== ' ') {
    const wordStart = text.lastIndexOf(' ', start) + 1;
    if (start - wordStart <= MAX_WORD_BACKTRACK_CHARS) {
      start = wordStart;
      end = Math.max(last.end, Math.min(end, start + options.maxChars));
    }
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > last.end) end = space;
  }
  const prefix = start > 0 || more.before ? ELLIPSIS : '';
  const suffix = end < text.length || more.after ? ELLIPSIS : '';
  const shift = prefix.length - start;
  const highlights: [number, number][] = [];
  for (const s of spans) {
    if (s.start < start || s.end > end) continue;
    const h: [number, number] = [s.start + shift, s.end + shift];
    const previous = highlights[highlights.length - 1];
    // Overlapping spans (a CJK word and its bigrams) become one highlight.
    if (previous && h[0] <= previous[1]) previous[1] = Math.max(previous[1], h[1]);
    else highlights.push(h);
  }
  return { text: prefix + text.slice(start, end) + suffix, highlights };
}

export interface Span {
  token: string;
  start: number;
  end: number;
}

const MAY_BE_ANYWHERE = (): boolean => true;

/**
 * Every word of `text` whose token is a query token, in text order. `present`: whether a query token
 * may stand in `text`, each may unless the caller knows better (snippet-positions.ts reads a passage
 * the index places some in): when a prefix search finds none of one that may, the words past ASCII are
 * read too (withWordsPastAscii), and a token merely absent from a passage costs nothing.
 */
export function querySpans(text: string, language: string, queryTokens: ReadonlySet<string>, present: (token: string) => boolean = MAY_BE_ANYWHERE): Span[] {
  let spans = findBySearch(text, language, queryTokens);
  if (missesSome(spans, queryTokens, present)) spans = withWordsPastAscii(text, language, queryTokens, spans);
  // Where stems are not prefixes (Spanish drops accents: "públicas" -> "public"), a prefix search misses: tokenize then.
  return spans.length === 0 && !stemsArePrefixes(language) ? findByTokenizing(text, language, queryTokens) : spans;
}

/** Whether one of `tokens` that a word past ASCII may hold, and that may be `present`, has no span:
 * not a CJK token (looked up as it is) nor an identifier's whole token (no one word holds it). */
function missesSome(spans: readonly Span[], tokens: ReadonlySet<string>, present: (token: string) => boolean): boolean {
  next: for (const t of tokens) {
    for (const s of spans) if (s.token === t) continue next;
    if (!CJK_TOKEN.test(t) && !isIdentifierToken(t) && present(t)) return true;
  }
  return false;
}

/** A character past ASCII (a surrogate pair's first half is one: wordHolding reads the pair). */
const PAST_ASCII = /[^\x00-\x7f]/g;

/**
 * `found` and the spans a prefix search cannot find: words whose lower case does not begin with their
 * token, all of them spelled with a character past ASCII (an accent folded away, "résumé" for the fold
 * token of "resume"; a width or ligature NFKC folds, "Ｆｕｌｌｗｉｄｔｈ" for "fullwidth"). Only the
 * words holding such a character are tokenized: an English page has few, and tokenizing all of a
 * long page's text for each result is what findBySearch exists to avoid.
 */
function withWordsPastAscii(text: string, language: string, queryTokens: ReadonlySet<string>, found: Span[]): Span[] {
  let more: Span[] | undefined;
  let known: Set<string> | undefined;
  PAST_ASCII.lastIndex = 0;
  for (let m = PAST_ASCII.exec(text); m !== null; m = PAST_ASCII.exec(text)) {
    const word = wordHolding(text, m.index);
    if (word === undefined) continue;
    PAST_ASCII.lastIndex = word.end;
    const raw = text.slice(word.start, word.end);
    if (ALL_CJK.test(raw)) continue; // CJK tokens were looked up as they are
    scanTokens(raw, language, (token, _word, start, end) => {
      if (!queryTokens.has(token) || CJK_TOKEN.test(token)) return;
      // The word's own token may have been found by its prefix ("résumé" typed with its accents).
      known ??= new Set(found.map((s) => `${s.start} ${s.token}`));
      if (known.has(`${word.start + start} ${token}`)) return;
      (more ??= []).push({ token, start: word.start + start, end: word.start + end });
    });
  }
  // In text order, a word's own span before its fold token's (a stable sort).
  return more === undefined ? found : [...found, ...more].sort((a, b) => a.start - b.start);
}

/** Every word of `text` whose token is a query token, by tokenizing all of it. */
function findByTokenizing(text: string, language: string, queryTokens: ReadonlySet<string>): Span[] {
  const spans: Span[] = [];
  scanTokens(text, language, (token, _word, start, end) => {
    if (queryTokens.has(token)) spans.push({ token, start, end });
  });
  return spans.sort((a, b) => a.start - b.start); // CJK bigrams come after their run
}

const CJK_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A word of CJK characters only (a Latin word may be glued to a CJK one: "日本’well"). */
const ALL_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{M}]+$/u;

/**
 * The same spans, found without tokenizing the whole page: the words starting like a query token (a
 * stem is a prefix of its words, give or take its last letter: "happi" for "happy") are found with
 * indexOf in the text lower-cased, and only those words are tokenized to confirm. CJK tokens are
 * looked up as they are.
 *
 * Why not one case-insensitive regex of the prefixes: every query has its own, and V8 compiles a new
 * regex to machine code on its first uses, about 4 microseconds a passage over a page of ten results
 * against 2 for the search itself (DESIGN.md, "The query engine against Xapian").
 */
function findBySearch(text: string, language: string, queryTokens: ReadonlySet<string>, lowerText?: string): Span[] {
  const spans: Span[] = [];
  let lower = lowerText;
  let starts = 0;
  let runs = 0;
  let cjk = false;
  for (const token of queryTokens) {
    if (CJK_TOKEN.test(token)) {
      for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) spans.push({ token, start: at, end: at + token.length });
      cjk = true;
      continue;
    }
    const prefix = stemSearchPrefix(token);
    lower ??= text.toLowerCase();
    if (lower.length !== text.length) {
      // Only "İ" lowers to two characters (i and a combining dot), which would shift every offset
      // after it: lowered as a plain "i" it keeps them, and only a query word with that dot (one
      // typed with "İ") needs the text tokenized.
      lower = text.replaceAll('\u0130', 'i').toLowerCase();
      if (lower.length !== text.length || [...queryTokens].some((t) => t.includes('\u0307'))) return findByTokenizing(text, language, queryTokens);
    }
    const before = starts;
    for (let at = lower.indexOf(prefix); at !== -1; at = lower.indexOf(prefix, at + 1)) {
      if (at > 0 && insideWord(text, at)) continue; // a word's start, not inside one
      if (starts === wordStarts.length) wordStarts = grown(wordStarts);
      wordStarts[starts++] = at;
    }
    if (starts > before) runs++;
  }
  if (starts > 0) {
    // Each token's starts come in order, one token's after another's. Sorted in place as numbers (a
    // typed array's sort allocates nothing, where an Array's copied every page's starts): an insertion
    // sort, which costs one pass for one token, moved each start of a second token past every later
    // start of the first, and two words each in most of a long page's headings ("impl usize") cost
    // milliseconds.
    const sorted = wordStarts;
    if (runs > 1) sorted.subarray(0, starts).sort();
    for (let i = 0; i < starts; i++) {
      const at = sorted[i]!;
      if (i > 0 && at === sorted[i - 1]) continue; // two prefixes of one word
      const found = tokenAt(text, at, language);
      if (found?.token === undefined || !queryTokens.has(found.token)) continue;
      // "C++" asked: the highlight takes the symbol in, as the tokenizing path's merged spans do.
      const symbol = symbolSuffix(text, at, found.end);
      spans.push({ token: found.token, start: at, end: symbol !== '' && queryTokens.has(found.token + symbol) ? found.end + symbol.length : found.end });
    }
  }
  // In text order already, unless CJK spans were found apart.
  return cjk ? spans.sort((a, b) => a.start - b.start) : spans;
}

/** The word starts findBySearch collects, reused by every call (it is synchronous). */
let wordStarts = new Int32Array(256);
const grown = (a: Int32Array) => {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
};

/** What may precede a match inside a word: compiled once. */
const WORD_PART = /[\p{L}\p{N}\p{M}]/u;

/**
 * Whether the character before `at` is part of a word (WORD_PART), without the regex for ASCII. An
 * apostrophe is, only with a word character before it ("don't"): an opening quote is not, and
 * "'helpheight'" (Vim's and Python's way of naming an option or a value) was never found, so the
 * snippet of a page saying it only quoted was its passage's opening words, without it.
 */
function insideWord(text: string, at: number): boolean {
  const c = text.charCodeAt(at - 1);
  if (c === 0x27 || c === 0x2019) return at >= 2 && insideWord(text, at - 1);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
  return WORD_PART.test(charBefore(text, at));
}

/** Whether every query token can be found by its prefix (findBySearch): not CJK, accent-folded or
 * whole-identifier tokens, and not in a language whose stems are not prefixes of its words. */
function prefixSearchable(queryTokens: ReadonlySet<string>, language: string): boolean {
  return stemsArePrefixes(language) && ![...queryTokens].some((t) => CJK_TOKEN.test(t) || isFoldToken(t) || isIdentifierToken(t));
}

/**
 * Which of `queryTokens` a short text (a heading) holds. A reference page has hundreds of headings and
 * most hold none: words found by their prefix, as querySpans finds them, cost one search per heading
 * instead of tokenizing it. CJK, accent-folded and whole-identifier tokens are found only by
 * tokenizing, which is what a query holding one gets.
 */
export function tokensIn(queryTokens: ReadonlySet<string>, language: string): (text: string) => Set<string> {
  const byTokenizing = (text: string) => {
    const found = new Set<string>();
    scanTokens(text, language, (token, _word, _start, _end, _position, extra) => {
      if (queryTokens.has(token)) found.add(token);
      // A qualified name names the names it ends with (identifierTails): `ForeignKey.on_delete`, `on_delete`.
      if (extra && isIdentifierToken(token)) for (const tail of identifierTails(token)) if (queryTokens.has(tail)) found.add(tail);
    });
    return found;
  };
  if (!prefixSearchable(queryTokens, language)) return byTokenizing;
  return (text) => new Set(findBySearch(text, language, queryTokens).map((s) => s.token));
}

/** A page's section headings as one text, a line each, lower-cased beside it, and where each starts. */
export interface JoinedHeadings {
  text: string;
  lower: string;
  /** starts[i] is where heading i starts in `text`. */
  starts: Int32Array;
}

export function joinHeadings(headings: readonly string[]): JoinedHeadings {
  const starts = new Int32Array(headings.length);
  let at = 0;
  headings.forEach((h, i) => {
    starts[i] = at;
    at += h.length + 1;
  });
  // A line break is not part of any word, so no word runs from one heading into the next.
  const text = headings.join('\n');
  return { text, lower: text.toLowerCase(), starts };
}

/**
 * Per section whose heading holds some of `queryTokens`, which: the query's prefixes searched once in
 * all the headings joined, not heading by heading. A reference page may have thousands of sections
 * (a trait's implementors), and tokenizing every heading of one such result took 8-16 ms. Undefined
 * when only tokenizing can tell (see tokensIn).
 */
export function headingsHolding(
  headings: JoinedHeadings,
  queryTokens: ReadonlySet<string>,
  language: string,
  /** The headings holding one token (headingsWith), which a caller may keep per page (stored-fields.ts). */
  holdingToken: (token: string) => Int32Array = (token) => headingsWith(headings, token, language),
): Map<number, ReadonlySet<string>> | undefined {
  if (!prefixSearchable(queryTokens, language)) return undefined;
  const tokens = [...queryTokens];
  const lists = tokens.map(holdingToken);
  const found = new Map<number, ReadonlySet<string>>();
  // The tokens' lists merged, headings in page order. Headings holding the same tokens share one Set:
  // a long page has thousands of headings holding a common word, and a Set each was most of the cost.
  const shared = new Map<string, ReadonlySet<string>>();
  const cursor = new Int32Array(lists.length);
  for (;;) {
    let heading = Infinity;
    for (let k = 0; k < lists.length; k++) if (cursor[k]! < lists[k]!.length && lists[k]![cursor[k]!]! < heading) heading = lists[k]![cursor[k]!]!;
    if (heading === Infinity) break;
    let key = '';
    for (let k = 0; k < lists.length; k++) {
      if (cursor[k]! < lists[k]!.length && lists[k]![cursor[k]!] === heading) {
        key += `${k},`;
        cursor[k]!++;
      }
    }
    let held = shared.get(key);
    if (held === undefined) shared.set(key, (held = new Set(key.split(',').slice(0, -1).map((k) => tokens[Number(k)]!))));
    found.set(heading, held);
  }
  return found;
}

/**
 * The headings (indexes, ascending) holding a word whose token is `token`, found by its prefix
 * (findBySearch); for a token that only tokenizing can find (tokensIn), an empty list. A word's
 * token begins with its search prefix, so the headings holding any of a query's tokens are these
 * lists merged: a page's lists can be kept and serve every query that asks one of its words.
 */
export function headingsWith(headings: JoinedHeadings, token: string, language: string): Int32Array {
  const one = new Set([token]);
  if (!prefixSearchable(one, language)) return new Int32Array(0);
  const { starts } = headings;
  const out: number[] = [];
  for (const span of findBySearch(headings.text, language, one, headings.lower)) {
    // The heading the match starts in: the last start at or before it.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= span.start) lo = mid;
      else hi = mid - 1;
    }
    if (out.length === 0 || out[out.length - 1] !== lo) out.push(lo);
  }
  return Int32Array.from(out);
}

function cut(text: string, start: number, maxChars: number, more = false): string {
  if (text.length <= maxChars) return more ? text + ELLIPSIS : text;
  const space = text.lastIndexOf(' ', start + maxChars);
  const end = space > start + maxChars / 2 ? space : start + maxChars;
  return text.slice(start, end) + ELLIPSIS;
}
