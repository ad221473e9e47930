// Which section of a result page answers the query best (issue 14 item 3): the result then links to
// `page#id`, shows the section's heading under the page title and takes its snippet from the section,
// as Algolia DocSearch and Pagefind do. Pure, and run only on the results shown: the ranking of pages is
// unchanged, a page is chosen first and its best section after, over the sections the indexer stored
// with the page (shared/store PageSection, start offsets into the stored body).
//
// A section's score: per distinct query word, 2 when its heading has the word, plus 1 + ln(1 + n) when
// its text has it n times (a heading names what a section is about; repetitions count, but less and
// less). Sections are compared first by how many distinct query words they hold, then by how many of
// them their heading names, then by that score: in a long manual a long section mentions every word
// often, and "arithmetic expansion" went to "Shell Parameter Expansion" (expansion 40 times) over the
// section headed "Arithmetic Expansion". Between headings that name every query word, one that opens
// with a query word comes before the score: "setTimeout" went to `timersPromises.setTimeout()`, which
// says the word more often than the section headed `setTimeout(callback[, delay])`.
// The first section is the page's top: choosing it links to the page itself, as before. Query words
// the page's title holds are held by every section (`given`): the result shows the title above the
// section's heading, so a section is chosen by the other words ("python 3.10 pattern matching" on
// "What's New In Python 3.10": "PEP 634: Structural Pattern Matching", not "Deprecated", which says
// "Python 3.10" throughout).
// Definition terms (`<dt id>`, crawler/sections.ts; PageSection.term) are parts within a section, not
// sections: a section is chosen over the headings alone (a term does not take the rest of its
// section's text), then a term the query names (bestTerm: every query word in its text, one in the
// name it defines), one inside that section first (`str.split(sep=None)` in "String Methods",
// `coalesce(X,Y,...)` in "Descriptions of built-in scalar SQL functions"); the result links to the
// term and its snippet comes from the term's text.

import { linkableSections, type StoredDoc } from '../../shared/index-format/index.js';
import { querySpans, tokensIn } from './snippet.js';
import { foldWord, identifierAt, tokenAt, tokenize } from '../../shared/analysis/index.js';

/** Weight of a query word in a section's heading against one occurrence in its text. */
const HEADING_WEIGHT = 2;

export interface ChosenSection {
  id: string;
  heading: string;
  /** [start, end) of the section's text after its heading, in the stored body. */
  start: number;
  end: number;
}

/** What choosing a part reads of a page's sections besides their places: how many there are, which are
 * definition terms (their indexes, ascending: few or none), and how many may be linked
 * (linkableSections). The searcher keeps one with each cached header (section-columns.ts), so choosing
 * a long reference page's section makes no object per section. */
export interface SectionShape {
  readonly length: number;
  readonly terms: Uint32Array;
  readonly linkable: number;
}

/** The shape of sections given as objects (a stored record's). */
export function shapeOf(sections: readonly { term?: boolean; id?: string }[]): SectionShape {
  const terms: number[] = [];
  sections.forEach((s, i) => {
    if (s.term === true) terms.push(i);
  });
  return { length: sections.length, terms: Uint32Array.from(terms), linkable: linkableSections(sections) };
}

/** Whether section `i` is a definition term. */
export function isTermAt(shape: SectionShape, i: number): boolean {
  const { terms } = shape;
  if (terms.length === 0) return false;
  const at = lowerBound(terms, i);
  return at < terms.length && terms[at] === i;
}

/** The section of `doc` that best matches `queryTokens`, or undefined when the page's top does as well. */
export function bestSection(doc: Pick<StoredDoc, 'body' | 'language' | 'sections'>, queryTokens: ReadonlySet<string>, given?: ReadonlySet<string>): ChosenSection | undefined {
  const sections = doc.sections;
  if (sections === undefined || sections.length === 0 || queryTokens.size === 0) return undefined;
  const { body, language } = doc;
  const tokens = [...queryTokens];
  const spans = querySpans(body, language, queryTokens);
  const places: Places = { at: Int32Array.from(spans, (s) => s.start), token: Uint16Array.from(spans, (s) => tokens.indexOf(s.token)), from: 0, to: spans.length, tokens };
  const starts = sections.map((s) => Math.min(s.start, body.length));
  // Sections beyond the part of the body that was read are not chosen.
  const read = sections.findIndex((s, i) => i > 0 && s.start >= body.length);
  const shape = shapeOf(sections);
  const { linkable } = shape;
  const inHeading = tokensIn(queryTokens, language);
  const { index, next } = choosePart(
    shape,
    read < 0 ? linkable : Math.min(read, linkable),
    (i) => starts[i]!,
    linkable < sections.length ? starts[linkable]! : body.length,
    places,
    (i) => inHeading(sections[i]!.heading),
    undefined,
    (i) => headingOpensWith(sections[i]!.heading, queryTokens, language),
    (i) => leafNamed(sections[i]!.heading, queryTokens, language, inHeading),
    given,
  );
  if (index < 0) return undefined;
  const section = sections[index]!;
  const { next: through } = throughHeadedText(endAtMark({ index, next }, linkable), shape, (i) => starts[i]!, headingLength(body, section.start, section.heading) + 1);
  const end = through < sections.length ? starts[through]! : body.length;
  // The heading is shown apart: the snippet starts after it.
  return { id: section.id, heading: section.heading, start: Math.min(section.start + headingLength(body, section.start, section.heading), end), end };
}

/**
 * `part`, run on to the next sections while it has no text of its own (`headingSize`: its heading's
 * length in the unit of `start`): a heading over subheadings only ("HOOKS", then "applypatch-msg" and
 * the other hooks, each a section) had an empty snippet; it shows what it heads. Not a definition term.
 */
export function throughHeadedText(
  part: ChosenPart,
  sections: SectionShape,
  start: (i: number) => number,
  /** The size, or a function giving it, asked only when the next section is near enough to need it. */
  headingSize: number | (() => number),
  /** An upper bound of the size, when `headingSize` is a function: the next section's start past it is text between. */
  atMost = Infinity,
): ChosenPart {
  // A definition term with no text of its own (an index entry, a constant listed in a row) is not
  // the heading of what follows: its neighbour's text would be shown as if it were its own.
  if (part.index < 0 || isTermAt(sections, part.index)) return part;
  // Not past the mark where the crawler cut the page's sections: the text after it is no section's.
  const count = sections.linkable;
  let next = part.next;
  if (next >= count || start(next) - start(part.index) > atMost) return part;
  const size = typeof headingSize === 'number' ? headingSize : headingSize();
  while (next < count && start(next) - start(part.index) <= size) next++;
  return next === part.next ? part : { index: part.index, next };
}

/** `part`, its text ending at the mark where the crawler cut the page's sections (`linkable`:
 * linkableSections) rather than at the end of the page. */
export function endAtMark(part: ChosenPart, linkable: number): ChosenPart {
  return part.index >= 0 && part.next > linkable ? { index: part.index, next: linkable } : part;
}

/** The part of a page choosePart chose: `index` into its sections (-1: the page's top, its whole text),
 * and `next`, the section its text runs to (the sections' length: to the end). */
export interface ChosenPart {
  index: number;
  next: number;
}

/**
 * The section or definition term of a page that best matches, by the rules in this file's header.
 * `sections` say which are terms; the first `count` may be chosen; `start(i)` is where section i starts
 * in the unit of `places`, `end` where the text ends. `headingTokens`, `named` and `opens` are as for
 * pickSection, by index into `sections`.
 */
export function choosePart(
  sections: SectionShape,
  count: number,
  start: (i: number) => number,
  end: number,
  places: Places,
  headingTokens: (i: number) => ReadonlySet<string>,
  named: Iterable<number> | undefined,
  opens: (i: number) => boolean,
  leaf: TermTests['leaf'] = () => 'some',
  /** Query tokens the page's title holds (hits.ts titleTokens): every section holds them, so a section
   * is chosen by the others; a term must still name them all (as a term, "parse" alone would send
   * "parse command line arguments" on argparse's page to `parse_known_intermixed_args`). */
  given?: ReadonlySet<string>,
): ChosenPart {
  const held = given === undefined || given.size === 0 ? undefined : places.tokens.map((t) => given.has(t));
  const { headings, terms } = headingsAndTerms(sections, count);
  // Read twice (headings, then terms): an iterator would be empty the second time.
  const namedList = named === undefined ? undefined : [...named];
  const isTerm = (i: number) => i < count && isTermAt(sections, i);
  const headingsNamed = terms.length === 0 ? namedList : namedList?.filter((i) => i < count && !isTermAt(sections, i));
  // A section chosen for one word's count alone, its heading not naming it, is where the word is only
  // if most of its places are there: on a page about the word ("rtree" on "The SQLite R*Tree Module",
  // 66 times) the section saying it most ("6.2. The New xQueryFunc Callback") is no better a link than
  // the page. Several words are different: a section holding all of them is the answer under another
  // name ("ternary operator": "6.13. Conditional expressions"), wherever else they stand.
  const ownsTheWords = (i: number, to: number): boolean => {
    const h = headingTokens(i);
    if (places.tokens.length > 1 || places.tokens.some((t) => h.has(t))) return true;
    const held = placeAtLeast(places, places.from, to) - placeAtLeast(places, places.from, start(i));
    return held * 2 >= places.to - places.from;
  };
  let index = -1;
  let next = sections.length;
  if (headings.length >= 2) {
    // Over the headings alone, each running to the next heading; the first is the page's top. Without
    // terms the view is every section, by its own index (no list made: a reference page has thousands).
    const at = headings.list === undefined ? (k: number) => k : (k: number) => headings.list![k]!;
    const viewNamed = headings.list === undefined ? headingsNamed : headingsNamed?.map((i) => lowerBound(headings.list!, i));
    const best = pickSection({ count: headings.length, start: (k) => (k === 0 ? 0 : start(at(k))), end }, places, (k) => headingTokens(at(k)), viewNamed, (k) => opens(at(k)), held);
    if (best > 0) {
      index = at(best);
      next = best + 1 < headings.length ? at(best + 1) : sections.length;
      if (!ownsTheWords(index, next < sections.length ? start(next) : end)) index = -1;
    }
  }
  if (index < 0) next = sections.length;
  const term = bestTerm(terms, namedList, start, end, places, headingTokens, { opens, leaf }, sections.length, index < 0 ? undefined : [start(index), next < sections.length ? start(next) : end], isTerm);
  return term < 0 ? { index, next } : { index: term, next: term + 1 };
}

/**
 * The name a definition term defines, its last part: the term cut where a signature or value starts
 * (`(`, `[`, `{`, `=`), its last word, that word's last component (`class collections.defaultdict(...)`:
 * "defaultdict"; `max_connections (integer)`: "max_connections"; `type hint`: "hint").
 */
export function termLeaf(heading: string): string {
  const cut = heading.search(/[([{=]/);
  const name = (cut > 0 ? heading.slice(0, cut) : heading).trim();
  const last = name.slice(name.lastIndexOf(' ') + 1);
  const parts = last.split(/::|[.#/]/).filter((p) => /[\p{L}\p{N}]/u.test(p));
  return parts[parts.length - 1] ?? last;
}

/**
 * Among definition terms `terms`, the one the query names: its text holds every query word, and its
 * leaf (termLeaf) at least one of them. A term naming the words only in its module or its parameters
 * is not what was asked for: "parse xml" went to `xml.etree.ElementInclude.default_loader(href, parse,
 * ...)`, "asyncio" to `asyncio.run_coroutine_threadsafe(...)`. First one whose leaf the query names
 * whole ("hot standby": `hot_standby`, not `hot_standby_feedback`), then one that opens with a query
 * word, then one inside `within` (the chosen section's [start, end)), then the one whose text holds the
 * most query words, then the first. -1 when none. A term's text runs to the next section or term
 * (index + 1, of `total`).
 */
function bestTerm(
  terms: Uint32Array,
  named: readonly number[] | undefined,
  start: (i: number) => number,
  end: number,
  places: Places,
  headingTokens: (i: number) => ReadonlySet<string>,
  term: TermTests,
  total: number,
  within: [number, number] | undefined,
  isTerm: (i: number) => boolean,
): number {
  if (terms.length === 0 || places.tokens.length === 0) return -1;
  const candidates = named === undefined ? terms : [...new Set(named)].filter((i) => i < total && isTerm(i)).sort((a, b) => a - b);
  let best = -1;
  let bestKey: readonly number[] = [];
  for (const t of candidates) {
    const inHeading = headingTokens(t);
    if (!places.tokens.every((token) => inHeading.has(token))) continue;
    const leaf = term.leaf(t);
    if (leaf === 'none') continue;
    const from = start(t);
    const to = t + 1 < total ? start(t + 1) : end;
    const held = placeAtLeast(places, places.from, to) - placeAtLeast(places, places.from, from);
    const inside = within !== undefined && from >= within[0] && from < within[1];
    const key = [leaf === 'whole' ? 1 : 0, term.opens(t) ? 1 : 0, inside ? 1 : 0, held];
    if (best < 0 || before(key, bestKey)) {
      best = t;
      bestKey = key;
    }
  }
  return best;
}

/** What choosePart asks of a definition term: whether its heading opens with a query word, and how much
 * of its leaf (termLeaf) the query names: all of its words, some, or none. */
export interface TermTests {
  opens: (i: number) => boolean;
  leaf: (i: number) => 'whole' | 'some' | 'none';
}

/** How much of a term's leaf the query's tokens name, for TermTests; `inText`, when given, is
 * tokensIn(queryTokens, language), made once for many terms. */
export function leafNamed(heading: string, queryTokens: ReadonlySet<string>, language: string, inText = tokensIn(queryTokens, language)): 'whole' | 'some' | 'none' {
  const leaf = termLeaf(heading);
  if (inText(leaf).size === 0) return 'none';
  // Its words, each: "hot_standby" is "hot" and "standby".
  const words = tokenize(leaf.replace(/[^\p{L}\p{N}]+/gu, ' '), language);
  return words.length > 0 && words.every((w) => queryTokens.has(w)) ? 'whole' : 'some';
}

/** What follows a heading before its text: a permalink's mark ("¶", "#", "§": no letters or digits,
 * then a space) and the space. */
const AFTER_HEADING = /^(?:[^\p{L}\p{N}\s]{1,3}(?=\s|$))?\s*/u;

/**
 * How many characters of `text` from `at` the section heading takes: the heading itself when the text
 * opens with it, with the permalink mark the crawler left out of the heading but not out of the text
 * (Sphinx: "5.1.3. List Comprehensions¶") and the space after; 0 when the text does not open with the
 * heading.
 */
export function headingLength(text: string, at: number, heading: string): number {
  if (!text.startsWith(heading, at)) return 0;
  const after = AFTER_HEADING.exec(text.slice(at + heading.length, at + heading.length + 8));
  return heading.length + (after?.[0].length ?? 0);
}

/**
 * Where the query's words are in a text, in whatever unit the section bounds are in (characters or
 * word places): entry i, for i in [from, to), is query token `tokens[token[i]]` at `at[i]`, ascending
 * by `at`. Typed arrays, not an object per place: a common word stands hundreds of times in a long
 * page, and each result of each query was thousands of short-lived objects.
 */
export interface Places {
  at: Int32Array;
  token: Uint16Array;
  from: number;
  to: number;
  /** The query's tokens, distinct. */
  tokens: readonly string[];
}

/** Where the sections start, in the unit of the places: section i, for i in [0, count), starts at
 * `start(i)` (0 for the first), non-decreasing; the last ends at `end`. */
export interface SectionBounds {
  count: number;
  start: (i: number) => number;
  end: number;
}

/**
 * The index of the section that best matches, by the rule in this file's header: `places` are the query
 * words found, in the bounds' unit. 0 (the page's top) when no other does better, -1 when none holds a
 * query word. `named`, when given, holds every section whose heading holds a query word (ascending, as
 * callers have them; sorted first when not): then only those and the sections holding places are
 * scored, the others scoring nothing (a reference page has thousands of sections, a query's words stand
 * in a few); without it every section is.
 */
export function pickSection(
  bounds: SectionBounds,
  places: Places,
  /** The tokens of section i's heading (those of the query, or all). */
  headingTokens: (i: number) => ReadonlySet<string>,
  named?: readonly number[],
  /** Whether section i's heading opens with a query word (headingOpensWith); asked only to break a tie. */
  opens: (i: number) => boolean = () => false,
  /** Per query token, whether every section holds it (the page's title does): covered everywhere. */
  given?: readonly boolean[],
): number {
  const { tokens } = places;
  const counts = new Int32Array(tokens.length);
  let best = -1;
  let bestCovered = 0;
  let bestNamed = 0;
  let bestScore = 0;
  /** Whether the best section's heading opens with a query word; undefined until asked. */
  let bestOpens: boolean | undefined;
  let at = places.from;
  // Every section, or the candidates: an index loop, not a generator (an object a section, and a
  // rustdoc page has thousands).
  const list = named === undefined ? undefined : candidateSections(bounds, places, named);
  const n = list === undefined ? bounds.count : list.length;
  for (let k = 0; k < n; k++) {
    const i = list === undefined ? k : list[k]!;
    const from = bounds.start(i);
    const to = i + 1 < bounds.count ? bounds.start(i + 1) : bounds.end;
    counts.fill(0);
    // Places between two candidates are in no section: the candidates hold every one.
    while (at < places.to && places.at[at]! < from) at++;
    for (; at < places.to && places.at[at]! < to; at++) counts[places.token[at]!]!++;
    const inHeading = headingTokens(i);
    let covered = 0;
    let namedHere = 0;
    let score = 0;
    for (let t = 0; t < tokens.length; t++) {
      const n = counts[t]!;
      const h = inHeading.size > 0 && inHeading.has(tokens[t]!);
      if (n > 0 || h || given?.[t] === true) covered++;
      if (h) namedHere++;
      score += (h ? HEADING_WEIGHT : 0) + (n > 0 ? 1 + Math.log(1 + n) : 0);
    }
    // Between headings that name every query word, the one opening with a query word goes first
    // (`setTimeout(...)` before `timersPromises.setTimeout(...)`), as Algolia ranks a match at the
    // start of an ordered attribute first; then the score. Asked only on such a tie.
    let better: boolean;
    let opensHere: boolean | undefined;
    if (covered !== bestCovered) better = covered > bestCovered;
    else if (namedHere !== bestNamed) better = namedHere > bestNamed;
    else if (namedHere > 0 && namedHere === tokens.length && (opensHere = opens(i)) !== (bestOpens ??= opens(best))) better = opensHere;
    else better = score > bestScore;
    if (better) {
      best = i;
      bestCovered = covered;
      bestNamed = namedHere;
      bestScore = score;
      bestOpens = opensHere;
    }
  }
  return best;
}

/** What a heading may say before the name it is about: a short label and a colon (Node.js "Class:
 * EventEmitter", "Event: 'close'", "Static method: Buffer.from()"), or the keywords of a declaration
 * (Sphinx "class collections.Counter", "coroutine asyncio.sleep", rustdoc "pub fn collect"); not words
 * a heading in prose opens with as often ("type", "function", "method"). */
const HEADING_LABEL = /^[^\p{L}]*(?:\p{L}[\p{L} ]{0,24}:\s+|(?:(?:pub|async|unsafe|const|static|abstract|class|exception|coroutine|awaitable|fn|struct|enum|trait|mod|macro|def)\s+)+)/u;

/**
 * Whether `heading` opens with one of `queryTokens`: its first word's token, or the whole identifier
 * it opens with (`fs.readFile(path)`), leading numbers and marks skipped ("9.3. Arrays"), and a label
 * or declaration keywords before the name (HEADING_LABEL: "Class: EventEmitter").
 */
export function headingOpensWith(heading: string, queryTokens: ReadonlySet<string>, language: string): boolean {
  const label = HEADING_LABEL.exec(heading);
  const from = label === null ? heading.search(/\p{L}/u) : label[0].length;
  if (from < 0 || startsNone(heading, from, queryTokens)) return false;
  const word = tokenAt(heading, from, language)?.token;
  if (word !== undefined && queryTokens.has(word)) return true;
  const id = identifierAt(heading, from);
  return id !== undefined && id.raw !== '' && queryTokens.has(foldWord(id.raw));
}

/**
 * Whether no query token can be the word at `from` by its first letter alone. A word of ASCII letters
 * and digits keeps its first letter, lower-cased, in its token and in its folded identifier (a
 * stemmer changes a word's end); a word running on past ASCII ("Äpfel"), an elision ("l'homme") or
 * a token opening with anything but a lower-case letter or a digit is left to tokenizing. A
 * reference page has hundreds of headings naming a common word ("type Output = u8" on each of
 * `u8`'s operator impls), mostly opening with another: tokenizing each to break their tie was most
 * of choosing among them.
 */
function startsNone(heading: string, from: number, queryTokens: ReadonlySet<string>): boolean {
  let end = from;
  while (end < heading.length && isAsciiLetterOrDigit(heading.charCodeAt(end))) end++;
  if (end === from || heading.charCodeAt(end) >= 0x80 || heading.charCodeAt(end) === 0x27) return false;
  // Lower-cased: an ASCII letter's case is its 0x20 bit; a digit has it set already.
  const first = heading.charCodeAt(from) | 0x20;
  for (const token of queryTokens) {
    const c = token.charCodeAt(0);
    if (c === first || !((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

function isAsciiLetterOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/** A page's first `count` sections split into headings and terms: the terms' indexes, and the headings'
 * (`list`, ascending), left unmade when there are no terms below `count`: then heading k is section k. */
function headingsAndTerms(sections: SectionShape, count: number): { headings: { length: number; list?: Uint32Array }; terms: Uint32Array } {
  const terms = sections.terms.subarray(0, lowerBound(sections.terms, count));
  if (terms.length === 0) return { headings: { length: count }, terms };
  const list = new Uint32Array(count - terms.length);
  let t = 0;
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (t < terms.length && terms[t] === i) t++;
    else list[k++] = i;
  }
  return { headings: { length: list.length, list }, terms };
}

/** The first index of ascending `sorted` whose value is at least `value` (its length when none is). */
function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `a` comes before `b`: the first place they differ is larger in `a`. */
function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** The sections `named` and those holding a place, ascending (ties go to the earlier section). `named`
 * is read as it is when ascending: a long page has thousands of headings holding a common word, and a
 * copy filtered and sorted of them was most of what choosing its section allocated. */
function candidateSections(bounds: SectionBounds, places: Places, named: readonly number[]): number[] {
  const holding: number[] = [];
  let i = 0;
  for (let at = places.from; at < places.to; ) {
    i = sectionFrom(bounds, i, places.at[at]!);
    holding.push(i);
    if (i + 1 >= bounds.count) break;
    const next = bounds.start(i + 1);
    while (at < places.to && places.at[at]! < next) at++;
  }
  const others = isAscending(named) ? named : [...named].sort((a, b) => a - b);
  // The two ascending lists merged, each section once; named sections out of bounds left out.
  const out: number[] = [];
  for (let h = 0, o = 0; h < holding.length || o < others.length; ) {
    if (o < others.length && (others[o]! < 0 || others[o]! >= bounds.count)) {
      o++;
      continue;
    }
    const next = o >= others.length || (h < holding.length && holding[h]! <= others[o]!) ? holding[h++]! : others[o++]!;
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

function isAscending(list: readonly number[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1]! > list[i]!) return false;
  return true;
}

/** The section holding `place`, from section `i` on (whose start is at or before it): the last whose
 * start is at or before it, found by galloping, as most places of a page lie a section or two apart. */
function sectionFrom(bounds: SectionBounds, i: number, place: number): number {
  let lo = i;
  let step = 1;
  while (lo + step < bounds.count && bounds.start(lo + step) <= place) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo + step, bounds.count) - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (bounds.start(mid) <= place) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first entry of `places` from `lo` on whose place is at least `value` (places.to if none). */
export function placeAtLeast(places: Places, lo: number, value: number): number {
  let hi = places.to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (places.at[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `url` with `id` as its fragment (any fragment it had replaced). */
export function sectionUrl(url: string, id: string): string {
  const hash = url.indexOf('#');
  // Characters a fragment may not hold as they are (RFC 3986) are percent-encoded, the rest kept.
  return `${hash === -1 ? url : url.slice(0, hash)}#${id.replace(/[^\w\-.~!$&'()*+,;=:@/?]/gu, (c) => encodeURIComponent(c))}`;
}
