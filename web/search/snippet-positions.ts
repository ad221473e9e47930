// Snippets and sections placed by the index instead of by reading the page: the query words' body
// positions (shared/index-format positions.ts) say where they are, the page's word map (word-map.ts)
// says which bytes of the stored body hold those words, and only those few hundred bytes are read and
// cut into a snippet by the same rules as before (snippet.ts, sections.ts). A long reference page
// then costs what a short one does, and no result reads more than its header and one passage.

import { WORD_MAP_STEP, WordMap, type IndexGeneration } from '../../shared/index-format/index.js';
import { isCjk, isFoldToken, isIdentifierToken, primaryTokens, tokenAt } from '../../shared/analysis/index.js';
import { bodyPositions } from './body-positions.js';
import { choosePart, endAtMark, throughHeadedText, headingLength, headingOpensWith, leafNamed, placeAtLeast, type ChosenPart, type ChosenSection, type Places, type SectionShape } from './sections.js';
import { headingAt, idAt } from './section-columns.js';
import { bestSnippet, headingsHolding, tokensIn, type Snippet, type SnippetOptions } from './snippet.js';
import type { SnippetHeader, StoredFields } from './stored-fields.js';

const NONE: ReadonlySet<string> = new Set();
/** A page without sections. */
const NO_SECTIONS: SectionShape = { length: 0, terms: new Uint32Array(0), linkable: 0 };

export interface PlacedSnippetOptions {
  /** Words a snippet's matches may span: about SnippetOptions.maxChars at 8 characters a word. */
  windowWords: number;
  /** Words read before the first match and after the last, so the snippet can centre them. */
  contextWords: number;
}

export const DEFAULT_PLACED_SNIPPET_OPTIONS: Readonly<PlacedSnippetOptions> = { windowWords: 28, contextWords: 16 };

/**
 * The body places of `tokens` in document `doc`, ascending; undefined when a token that is in the body
 * has no positions there and cannot be placed from its parts or source words (a CJK bigram token
 * stands beside its word without a place of its own): only reading the text can find those. An
 * identifier's whole token (`prompt_command`) has no positions either, but stands where its parts
 * stand one after another ("prompt" then "command"): it is placed there, at its first part, so the
 * section and the snippet that hold the name itself are found without reading a long page's text
 * (`language` is the page's: its parts were indexed with that language's stemmer). An accent-folded
 * token (`~resum`) stands where the words it was folded from stand ("résumé"): see foldPlaces. A
 * word the indexer joined (a compound's, a snake_case name's) is left out: nothing places it.
 */
export function bodyPlaces(
  gen: IndexGeneration,
  termId: (token: string) => number | undefined,
  doc: number,
  tokens: ReadonlySet<string>,
  language = '',
): Places | undefined {
  const list = tokens.size > 0 ? [...tokens] : [];
  const perToken: Int32Array[] = [];
  let n = 0;
  for (let t = 0; t < list.length; t++) {
    const token = list[t]!;
    const term = termId(token);
    const body = term === undefined ? undefined : bodyPositions(gen, term, doc);
    if (body === undefined) continue;
    let placed = body.length > 0 ? body : undefined;
    if (placed === undefined && isIdentifierToken(token)) placed = identifierPlaces(gen, termId, doc, primaryTokens(token, language));
    else if (placed === undefined && isFoldToken(token)) placed = foldPlaces(gen, termId, doc, term!, language);
    // A word the indexer joined (a hyphenated compound's "email", a snake_case name run together,
    // `create_server`'s "createserver") has no place, and the text search does not find it in the
    // text either: the page is placed by its other words. Reading the text for it instead cost up to
    // 150 KB decoded and searched a result (a page of 10 of `http.createServer` at a million pages, 45 ms).
    else if (placed === undefined && !isCjk(token)) continue;
    if (placed === undefined || placed.length === 0) return undefined;
    perToken[t] = placed;
    n += placed.length;
  }
  // The tokens' places merged in order (each list is ascending; on one place the earlier token first):
  // a query has a few tokens, and a common one stands thousands of times in a long page.
  const at = new Int32Array(n);
  const token = new Uint16Array(n);
  const cursor = new Int32Array(list.length);
  for (let i = 0; i < n; i++) {
    let next = -1;
    let nextPlace = Infinity;
    for (let t = 0; t < list.length; t++) {
      const places = perToken[t];
      if (places !== undefined && cursor[t]! < places.length && places[cursor[t]!]! < nextPlace) {
        nextPlace = places[cursor[t]!]!;
        next = t;
      }
    }
    at[i] = nextPlace;
    token[i] = next;
    cursor[next]!++;
  }
  return { at, token, from: 0, to: n, tokens: list };
}

/** The places where `parts` stand one right after another in the body (at the first part's place). */
function identifierPlaces(gen: IndexGeneration, termId: (token: string) => number | undefined, doc: number, parts: readonly string[]): Int32Array | undefined {
  if (parts.length < 2) return undefined;
  const lists: Int32Array[] = [];
  for (const part of parts) {
    const term = termId(part);
    const body = term === undefined ? undefined : bodyPositions(gen, term, doc);
    if (body === undefined || body.length === 0) return undefined;
    lists.push(body);
  }
  const places: number[] = [];
  const cursor = new Int32Array(parts.length);
  for (const first of lists[0]!) {
    let all = true;
    for (let i = 1; i < lists.length && all; i++) {
      const l = lists[i]!;
      let c = cursor[i]!;
      while (c < l.length && l[c]! < first + i) c++;
      cursor[i] = c;
      all = c < l.length && l[c] === first + i;
    }
    if (all) places.push(first);
  }
  return Int32Array.from(places);
}

/**
 * The places of the words a fold token was made from, in the page's own tokens: the fold term's
 * surface words (its shortest and up to MAX_FORMS others, over the whole index: a page's own word is
 * among them unless a term has more spellings than that) made tokens as the page's language makes
 * them ("résumé" -> "résumé" in English), each token's body places merged. A word of the same token
 * that folds elsewhere is placed too; the snippet highlights only real matches (snippet.ts). Without
 * it, a page matched by "resume" alone was searched as text, its first 50,000 characters only.
 */
function foldPlaces(gen: IndexGeneration, termId: (token: string) => number | undefined, doc: number, fold: number, language: string): Int32Array | undefined {
  const forms = gen.terms.forms?.at(fold);
  const words = forms ? [gen.terms.words.at(fold)!, ...forms.split(' ')] : [gen.terms.words.at(fold)!];
  const lists: Int32Array[] = [];
  const seen = new Set<number>();
  for (const word of words) {
    const source = tokenAt(word, 0, language)?.token;
    const term = source === undefined ? undefined : termId(source);
    if (term === undefined || seen.has(term)) continue;
    seen.add(term);
    const body = bodyPositions(gen, term, doc);
    if (body !== undefined && body.length > 0) lists.push(body);
  }
  if (lists.length <= 1) return lists[0];
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
  let n = 0;
  for (const l of lists) all.set(l, (n += l.length) - l.length);
  all.sort();
  // Two spellings of one token are one place.
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.subarray(0, kept);
}

/** The best section (as bestSection) and snippet (as bestSnippet) of `doc`, from the places of its query words. */
export function placedSnippet(
  gen: IndexGeneration,
  stored: StoredFields,
  doc: number,
  header: SnippetHeader,
  places: Places,
  tokens: ReadonlySet<string>,
  snippetOptions: SnippetOptions,
  options: PlacedSnippetOptions = DEFAULT_PLACED_SNIPPET_OPTIONS,
  /** The tokens the page's title holds (hits.ts titleTokens): held by every section. */
  inTitle: ReadonlySet<string> = NONE,
  /** No section: the page's title names every query word, the page itself answers. */
  wholePage = false,
): { section?: ChosenSection; snippet: Snippet } {
  const map = new WordMap(gen.wordMap, gen.wordMapOffsets, doc);
  const { language, sections: columns } = header;
  const sections = columns?.shape ?? NO_SECTIONS;
  const heading = (i: number) => headingAt(columns!, i);
  // The section, chosen over word places as bestSection chooses over characters.
  let chosen: ChosenPart = { index: -1, next: sections.length };
  if (!wholePage && sections.length > 0 && map.sections === sections.length && tokens.size > 0) {
    const start = (i: number) => map.sectionPlace(i);
    // Sections cut by the crawler end in a mark: the last kept one ends there, and none is chosen after.
    const { linkable } = sections;
    const holding = headingsHolding(stored.joinedHeadings(doc), tokens, language, (token) => stored.headingsWith(doc, token));
    const opens = (i: number) => headingOpensWith(heading(i), tokens, language);
    let inText: ((text: string) => Set<string>) | undefined;
    const leaf = (i: number) => leafNamed(heading(i), tokens, language, (inText ??= tokensIn(tokens, language)));
    if (holding === undefined) {
      const headingTokens = stored.sectionHeadingTokens(doc);
      chosen = choosePart(sections, linkable, start, linkable < sections.length ? start(linkable) : Infinity, places, (i) => headingTokens[i]!, undefined, opens, leaf, inTitle);
    } else chosen = choosePart(sections, linkable, start, linkable < sections.length ? start(linkable) : Infinity, places, (i) => holding.get(i) ?? NONE, holding.keys(), opens, leaf, inTitle);
    chosen = endAtMark(chosen, linkable);
  }
  if (chosen.index >= 0) {
    // The heading's words, counted only when the next section starts near enough for it to matter: a
    // heading has no more words than characters, and tokenizing it was 4% of a page of results' CPU.
    const text = heading(chosen.index);
    chosen = throughHeadedText(chosen, sections, (i) => map.sectionPlace(i), () => primaryTokens(text, language).length, text.length);
  }
  const { index, next } = chosen;
  const from = index >= 0 ? map.sectionPlace(index) : 0;
  const to = index >= 0 && next < sections.length ? map.sectionPlace(next) : Infinity;
  const inRange = { ...places, from: placeAtLeast(places, places.from, from), to: placeAtLeast(places, places.from, to) };
  const { first, last } = densestRun(inRange, from, options.windowWords);
  // The checkpoints around the run (with context), read as one range of bytes.
  const k0 = Math.min(map.checkpoints - 1, Math.floor(Math.max(from, first - options.contextWords) / WORD_MAP_STEP));
  const k1 = Math.floor((last + options.contextWords) / WORD_MAP_STEP) + 1;
  const startChar = k0 < 0 ? 0 : map.char(k0);
  const part = stored.bodyPart(doc, k0 < 0 ? 0 : map.byte(k0), k1 < map.checkpoints ? map.byte(k1) : undefined);
  // Cut to the section, its heading left out (shown apart), as bestSection's [start, end) does.
  let a = 0;
  let b = part.text.length;
  let sectionStart = 0;
  let sectionEnd = Infinity;
  let section: ChosenSection | undefined;
  if (index >= 0) {
    const title = heading(index);
    const start = columns!.starts[index]!;
    sectionEnd = next < sections.length ? columns!.starts[next]! : Infinity;
    const rel = start - startChar;
    sectionStart = start + (rel >= 0 ? headingLength(part.text, rel, title) : 0);
    a = Math.max(0, Math.min(part.text.length, sectionStart - startChar));
    b = Math.max(a, Math.min(part.text.length, sectionEnd - startChar));
    section = { id: idAt(columns!, index), heading: title, start: sectionStart, end: sectionEnd };
  }
  const before = startChar + a > sectionStart;
  const after = startChar + b < sectionEnd && !(part.atEnd && b === part.text.length);
  // A query word stands in the text cut when the index places it in the part read, within the
  // section and past its heading (whose words are asked only then: tokenizing every heading was 4% of a page's CPU).
  const readFrom = Math.max(from, k0 < 0 ? 0 : k0 * WORD_MAP_STEP);
  const readTo = Math.min(to, k1 < map.checkpoints ? k1 * WORD_MAP_STEP : Infinity);
  let textFrom: number | undefined;
  const present = (t: string) => {
    const token = places.tokens.indexOf(t);
    if (!isPlaced(inRange, token, readFrom, readTo)) return false;
    textFrom ??= Math.max(readFrom, index >= 0 ? from + primaryTokens(section!.heading, language).length : 0);
    return isPlaced(inRange, token, textFrom, readTo);
  };
  const snippet = bestSnippet(part.text.slice(a, b), language, tokens, snippetOptions, { before, after }, present);
  return { ...(section ? { section } : {}), snippet };
}

/** Whether `places` (between its from and to) place token number `token` in [from, to). */
function isPlaced(places: Places, token: number, from: number, to: number): boolean {
  for (let i = placeAtLeast(places, places.from, from); i < places.to && places.at[i]! < to; i++) if (places.token[i] === token) return true;
  return false;
}

/**
 * The densest run of `places` within `windowWords` places: most distinct words, then most matches;
 * `from` for both ends when there are none. Two pointers and a count per word: linear, as a common
 * word may stand thousands of times in a long page.
 */
export function densestRun(places: Places, from: number, windowWords: number): { first: number; last: number } {
  const { at, token } = places;
  let first = from;
  let last = from;
  let bestDistinct = 0;
  let bestCount = 0;
  const counts = new Int32Array(places.tokens.length);
  let distinct = 0;
  let j = places.from - 1; // [i, j] is the window
  for (let i = places.from; i < places.to; i++) {
    while (j + 1 < places.to && at[j + 1]! - at[i]! <= windowWords) {
      j++;
      if (counts[token[j]!]!++ === 0) distinct++;
    }
    const count = j - i + 1;
    if (distinct > bestDistinct || (distinct === bestDistinct && count > bestCount)) {
      bestDistinct = distinct;
      bestCount = count;
      first = at[i]!;
      last = at[j]!;
    }
    if (--counts[token[i]!]! === 0) distinct--;
  }
  return { first, last };
}
