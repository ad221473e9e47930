// Chinese, Japanese and Korean have no spaces between words: a run of Han, Hiragana, Katakana or
// Hangul characters is cut into words by `Intl.Segmenter` in the locale the registry picks
// (registry.ts segmentationLocale). Every two adjacent Han characters of a run also yield a bigram
// token (marked `extra`), because the segmenter cuts finely and may cut a query differently from the
// same characters inside a sentence: "互联" then still finds a page saying "互联网".
// Thai, Lao, Khmer and Burmese write no spaces between words either, and ICU's segmenter cuts them
// by its dictionaries as it cuts Chinese (Elasticsearch's icu_tokenizer and thai tokenizer do the same):
// their runs go the same way, without bigrams. Read as one word a run, a Thai sentence was one token,
// and no word of it found the page.

import { foldWord } from './fold.js';
import { segmentationLocale, stemWord } from './registry.js';
import { MAX_WORD_LENGTH } from './words.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;

/** Whether a word (or token) has a Han, kana, Hangul, Thai, Lao, Khmer or Burmese character: a word the
 * segmenter cuts out of a run. The segmenter never mixes scripts in one word. */
export function isCjk(word: string): boolean {
  return CJK.test(word);
}

/** Receives each token: its word's offsets in the text, its position, and whether it is a CJK bigram.
 * With numberTokens on (tokenize.ts), a word's token and surface word come with their numbers too
 * (-1: the table is full and the string has none); a token made any other way comes without. */
export type TokenSink = (token: string, word: string, start: number, end: number, position: number, extra: boolean, tokenNumber?: number, wordNumber?: number) => void;

/** Longest piece of a run handed to the segmenter at once. ICU's dictionary segmenter turns pathological
 * past 65,535 characters (a 66,000-character run of Han: 20 s for its first 19,335 words, against
 * 0.6 s for all of 65,000), and one such run on a page held the indexer for minutes. Real text breaks
 * runs at punctuation every few dozen characters, so pieces this long cut a word only in text that has
 * no punctuation at all; the bigrams below still span the cut. */
export const MAX_SEGMENTED_CHARS = 1_000;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

type HanChar = { char: string; start: number; position: number; word: string };

/** A short run's tokens as scanRun sent them, offsets and positions relative to the run: token,
 * word, start, end, position, extra, ...; then the positions the run took. */
type RunTokens = { tokens: (string | number | boolean)[]; positions: number };

/** Runs at most this long are remembered: Korean writes a space between words, so each word is a run,
 * and segmenting a short string costs about 25 us (a 400 KB Korean page took 2.1 s to index, 13
 * distinct words; 200,000 distinct Latin words take 0.2 s). */
const CACHED_RUN_CHARS = 24;
const RUN_CACHE_LIMIT = 100_000;
const runCache = new Map<string, RunTokens>();

/** Sends the tokens of one CJK run (at `offset` of the text) to `sink`, from word `position`; returns the next position. */
export function scanCjk(run: string, offset: number, language: string, position: number, sink: TokenSink): number {
  if (run.length > CACHED_RUN_CHARS) return scanRun(run, offset, language, position, sink);
  const key = `${language}\u0000${run}`;
  let cached = runCache.get(key);
  if (cached === undefined) {
    const tokens: (string | number | boolean)[] = [];
    const positions = scanRun(run, 0, language, 0, (token, word, start, end, at, extra) => tokens.push(token, word, start, end, at, extra));
    cached = { tokens, positions };
    if (runCache.size >= RUN_CACHE_LIMIT) runCache.clear();
    runCache.set(key, cached);
  }
  const t = cached.tokens;
  for (let i = 0; i < t.length; i += 6) sink(t[i] as string, t[i + 1] as string, offset + (t[i + 2] as number), offset + (t[i + 3] as number), position + (t[i + 4] as number), t[i + 5] as boolean);
  return position + cached.positions;
}

/** scanCjk without the cache. */
function scanRun(run: string, offset: number, language: string, position: number, sink: TokenSink): number {
  // Han characters of the run with the position of the word each fell in, for the bigrams below.
  const han: HanChar[] = [];
  const words = segmenter(segmentationLocale(run, language));
  for (let from = 0; from < run.length; ) {
    let to = Math.min(run.length, from + MAX_SEGMENTED_CHARS);
    const last = run.charCodeAt(to - 1);
    if (to < run.length && last >= 0xd800 && last <= 0xdbff) to--; // never between a surrogate pair
    position = scanPiece(run.slice(from, to), offset + from, language, position, words, han, sink);
    from = to;
  }
  for (let i = 0; i + 1 < han.length; i++) {
    const a = han[i]!;
    const b = han[i + 1]!;
    if (a.char === '' || b.char === '' || b.start !== a.start + a.char.length) continue;
    const bigram = a.char + b.char;
    if (bigram === a.word || bigram === b.word) continue; // already a token
    sink(bigram, bigram, a.start, b.start + b.char.length, a.position, true);
  }
  return position;
}

/** The words of one piece of a run (at `offset` of the text), each Han character noted in `han`. */
function scanPiece(piece: string, offset: number, language: string, position: number, words: Intl.Segmenter, han: HanChar[], sink: TokenSink): number {
  for (const seg of words.segment(piece)) {
    if (!seg.isWordLike) continue;
    const start = offset + seg.index;
    const end = start + seg.segment.length;
    const word = foldWord(seg.segment);
    if (word === '' || word.length > MAX_WORD_LENGTH) continue;
    // Latin letters or digits glued to CJK text ("iPhone手机") come out as their own segments.
    const token = CJK.test(word) ? word : stemWord(word, language);
    sink(token, word, start, end, position, false);
    if (HAN_ONLY.test(word)) {
      let at = start;
      for (const char of word) {
        han.push({ char, start: at, position, word });
        at += char.length;
      }
    } else {
      han.push({ char: '', start, position, word });
    }
    position++;
  }
  return position;
}
