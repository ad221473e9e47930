// The one tokenizer: the indexer turns page text into index tokens with it, and the query parser turns
// what the user typed into the same tokens, so a query word and an indexed word meet.
//
// The pipeline, each step in its own file and applied to a word alone, never to its context, so query
// and page always agree:
// - words.ts splits the text into words; words longer than MAX_WORD_LENGTH are dropped;
// - fold.ts normalises each word (NFKC, case, apostrophes);
// - registry.ts stems it with the stemmer its script or the page's language declares (languages/);
//   words with digits are not stemmed;
// - cjk.ts cuts Han, kana and Hangul runs into words, and adds Han bigrams beside them;
// - pairs.ts makes word-pair tokens of short fields;
// - identifiers.ts adds the whole token of an identifier (`pg_database_size`) beside its parts, and
//   of a word with a symbol suffix (`c++`, `c#`) beside the word;
// - accents.ts adds the fold token of an accented word (`configurée` -> `~configure`) beside it;
// - compounds.ts finds hyphenated compounds, whose joined word (`e-mail` -> `email`) the indexer adds.
// Identifier and fold tokens are `extra` (as CJK bigrams): term search finds them, phrases skip them.
// Stopwords are NOT removed here (phrases like "to be or not to be" must stay searchable); the searcher
// leaves them out of scoring when a query has other words: see registry.ts `isStopword`.

import { isCjk, scanCjk, type TokenSink } from './cjk.js';
import { ASCII, foldWord } from './fold.js';
import { foldToken, isFoldToken } from './accents.js';
import { identifierAt, identifierWhole, isIdentifierToken, mayStartIdentifier, memberStart, symbolSuffix } from './identifiers.js';
import { stemmerKey, stemWord } from './registry.js';
import { foundWord, MAX_WORD_LENGTH, nextWord, wordAt } from './words.js';
import { WordTable, wordHash, type WordEntry } from './word-table.js';
import type { TokenNumbers } from './token-numbers.js';

/** One index token with where its word sits in the analysed text. */
export interface TokenSpan {
  /** The index token (folded, stemmed). */
  token: string;
  /** The word as folded but not stemmed: what a suggestion shows. */
  word: string;
  /** [start, end) offsets of the word in the original text (UTF-16 code units). */
  start: number;
  end: number;
  /** Word position; a CJK bigram takes the position of the word its first character is in. */
  position: number;
  /** A CJK bigram added beside its word: matched by term search, skipped by phrase matching. */
  extra?: true;
}

// Raw word -> its token, folded word, fold token or '', and their numbers (WordEntry), per stemmer
// chain: indexing sees the same words again and again. Looked up where the word lies in the text
// (word-table.ts).
const WORD_CACHE_LIMIT = 200_000;
const wordCaches = new Map<string, WordTable>();
/** The table that numbers tokens and words as the word caches meet them (token-numbers.ts), if any. */
let numbering: TokenNumbers | undefined;

/** Numbers every token and surface word of a cached word with `numbers` from now on (undefined: no
 * numbers, the default); the sink gets them beside the strings. For a thread that only indexes. */
export function numberTokens(numbers: TokenNumbers | undefined): void {
  numbering = numbers;
  wordCaches.clear();
}

/** The table numberTokens set: a sink's numbers are this table's. */
export const tokenNumbering = (): TokenNumbers | undefined => numbering;

function wordCache(language: string): WordTable {
  const key = stemmerKey(language);
  let cache = wordCaches.get(key);
  if (!cache) wordCaches.set(key, (cache = new WordTable()));
  return cache;
}

/** The entry of the raw word text[start, end), made the first time the cache meets it; read it before
 * the next call, which may overwrite it (WordTable.found). */
function wordToken(text: string, start: number, end: number, language: string, cache: WordTable): WordEntry {
  const hash = wordHash(text, start, end);
  if (cache.find(text, start, end, hash)) return cache.found;
  const raw = text.slice(start, end);
  const word = foldWord(raw);
  const token = word === '' ? '' : stemWord(word, language);
  // Only a word whose unaccented spelling stems to another token needs a fold token. Not a single
  // letter: "š" of a digraph table met every "s" typed (":s" on Vim's docs found digraph.html
  // first, the rare fold token outscoring the common exact one), and no one letter is a word to fold.
  let fold = token === '' || word.length < 2 || ASCII.test(word) ? '' : foldToken(word, language);
  if (fold.slice(1) === token) fold = '';
  const n = numbering;
  const tokenNumber = n === undefined || token === '' ? -1 : n.numberOf(token);
  const wordNumber = n === undefined || token === '' ? -1 : word === token ? tokenNumber : n.numberOf(word);
  const entry: WordEntry = { token, word, fold, tokenNumber, wordNumber, foldNumber: n === undefined || fold === '' ? -1 : n.numberOf(fold) };
  if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
  cache.add(text, start, end, hash, entry);
  return entry;
}

/** Whether a token counts in its field's length: identifier wholes and fold tokens stand beside words
 * already counted (CJK bigrams, the segmenter's second opinion, are counted as they always were). */
export const countsInLength = (token: string, extra: boolean): boolean => !extra || !(isIdentifierToken(token) || isFoldToken(token));

/** Calls `sink` for every token of `text` in order: the one tokenizing loop behind `analyze` and `tokenize`.
 * Not re-entrant (words.ts nextWord's shared state): a sink must not tokenize. */
export function scanTokens(text: string, language: string, sink: TokenSink): void {
  const cache = wordCache(language);
  let position = 0;
  // The end of the last identifier found: its later parts do not start another.
  let identEnd = 0;
  let from = 0;
  while (nextWord(text, from)) {
    const { start, end, ascii } = foundWord;
    from = end;
    // A word is cut out of the text only when it may be CJK, or is new to the cache (wordToken).
    if (!ascii) {
      const raw = text.slice(start, end);
      if (!ASCII.test(raw) && isCjk(raw)) {
        position = scanCjk(raw, start, language, position, sink);
        continue;
      }
    }
    if (end - start > MAX_WORD_LENGTH) continue;
    const entry = wordToken(text, start, end, language, cache);
    const { token, word, fold, tokenNumber, wordNumber, foldNumber } = entry;
    if (token === '') continue;
    const at = position++;
    sink(token, word, start, end, at, false, tokenNumber, wordNumber);
    if (fold !== '') sink(fold, word, start, end, at, true, foldNumber, wordNumber);
    const symbol = symbolSuffix(text, start, end);
    if (symbol !== '') sink(word + symbol, word + symbol, start, end + symbol.length, at, true);
    if (start >= identEnd && mayStartIdentifier(text, start, end)) {
      const id = identifierAt(text, start);
      if (id !== undefined) {
        // A member after `#` (`Enumerable#each_with_object`) is still the name it is alone: Ruby's docs
        // refer to a method so more often than by its bare name, and the whole qualified name took the
        // member's own token from the pages that say it most (Ruby "each_with_object" 1 -> 2).
        // So is a function after its module and one `:` (`file:read_file` also `read_file`).
        const member = memberStart(id.raw);
        identEnd = member >= 0 ? id.start + member : id.end;
        const whole = identifierWhole(id.raw);
        if (whole !== '') sink(whole, whole, id.start, id.end, at, true);
      }
    }
  }
}

/**
 * The (non-CJK) word starting at `index` of `text`: where it ends, and its token, which is undefined
 * for a word the tokenizer skips (longer than MAX_WORD_LENGTH). Undefined when no word starts there.
 */
export function tokenAt(text: string, index: number, language = ''): { token: string | undefined; end: number } | undefined {
  const raw = wordAt(text, index);
  if (raw === undefined) return undefined;
  const end = index + raw.length;
  if (raw.length > MAX_WORD_LENGTH) return { token: undefined, end };
  const { token } = wordToken(raw, 0, raw.length, language, wordCache(language));
  return { token: token === '' ? undefined : token, end };
}

/** Every token of `text` with its offsets and positions, in order. `language` is a primary subtag or ''. */
export function analyze(text: string, language = ''): TokenSpan[] {
  const out: TokenSpan[] = [];
  scanTokens(text, language, (token, word, start, end, position, extra) => {
    out.push(extra ? { token, word, start, end, position, extra } : { token, word, start, end, position });
  });
  return out;
}

/** The index tokens of `text`, in order (with repeats). */
export function tokenize(text: string, language?: string): string[] {
  const out: string[] = [];
  scanTokens(text, language ?? '', (token) => out.push(token));
  return out;
}

/** The primary tokens of a text: without the CJK bigrams added beside words. */
export function primaryTokens(text: string, language = ''): string[] {
  const out: string[] = [];
  scanTokens(text, language, (token, _w, _s, _e, _p, extra) => {
    if (!extra) out.push(token);
  });
  return out;
}
