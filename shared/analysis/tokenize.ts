// The one tokenizer: the indexer turns page text into index tokens with it, and the query parser turns
// what the user typed into the same tokens, so a query word and an indexed word meet.
//
// Choices (each applies to a word alone, never to its context, so query and page always agree):
// - Words are runs of letters, digits and combining marks; an apostrophe inside a word is dropped
//   ("don't" -> "dont"); any other character separates words ("e-mail" -> "e", "mail").
// - Each word is NFKC-normalised (full-width letters, ligatures, compatibility forms) and case-folded.
// - The stemmer is chosen by script: Cyrillic words get the Russian Snowball stemmer (@orama/stemmers);
//   Latin words get Porter (shared/porter.ts) unless `language` is `es`, which selects the Spanish
//   Snowball stemmer. The query side does not know a page's language: the searcher also tries the
//   Spanish stem of each query word (web/search), so a Spanish page is found without `lang:es`.
//   Words with digits, and words of other scripts, are not stemmed.
// - Han, Hiragana, Katakana and Hangul runs are split into words by `Intl.Segmenter` (zh, or ja when
//   the run has kana or the language is `ja`). Every two adjacent Han characters of a run also yield a
//   bigram token (marked `extra`), because the segmenter cuts finely and may cut a query differently
//   from the same characters inside a sentence: "互联" then still finds a page saying "互联网".
// - Stopwords are NOT removed here (phrases like "to be or not to be" must stay searchable); the
//   searcher leaves them out of scoring when a query has other words: see `isStopword`.
// - Words longer than MAX_WORD_LENGTH characters (base64, hashes) are dropped.

import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { stemmer as russianStemmer } from '@orama/stemmers/russian';
import { porterStem } from './porter.js';

export const MAX_WORD_LENGTH = 64;

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

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const ASCII_LETTERS = /^[a-z]+$/;
const HAS_DIGIT = /\p{N}/u;
const APOSTROPHES = /['’]/g;
const ASCII = /^[\x00-\x7f]*$/;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

// Stemming is the costly step and vocabularies are small: remember recent answers.
const STEM_CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

/** The index token of one folded, non-CJK word. */
export function stemWord(word: string, language = ''): string {
  const key = language === 'es' ? 'es\0' + word : word;
  const cached = stemCache.get(key);
  if (cached !== undefined) return cached;
  let stem = word;
  if (HAS_DIGIT.test(word)) stem = word;
  else if (CYRILLIC.test(word)) stem = russianStemmer(word);
  else if (language === 'es') stem = spanishStemmer(word);
  else if (ASCII_LETTERS.test(word)) stem = porterStem(word);
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(key, stem);
  return stem;
}

/** NFKC, lower case, apostrophes removed. */
export function foldWord(raw: string): string {
  // NFKC leaves ASCII alone: skip it for the common case.
  let w = (ASCII.test(raw) ? raw : raw.normalize('NFKC')).toLowerCase();
  if (w.includes("'") || w.includes('’')) w = w.replace(APOSTROPHES, '');
  return w;
}

/** Receives each token: its word's offsets in the text, its position, and whether it is a CJK bigram. */
export type TokenSink = (token: string, word: string, start: number, end: number, position: number, extra: boolean) => void;

// Raw word -> [token, folded word], per stemming language: indexing sees the same words again and again.
const WORD_CACHE_LIMIT = 200_000;
const wordCaches = new Map<string, Map<string, readonly [string, string]>>();

function wordToken(raw: string, language: string): readonly [string, string] {
  const lang = language === 'es' ? 'es' : '';
  let cache = wordCaches.get(lang);
  if (!cache) wordCaches.set(lang, (cache = new Map()));
  let entry = cache.get(raw);
  if (entry === undefined) {
    const word = foldWord(raw);
    entry = [word === '' ? '' : stemWord(word, lang), word];
    if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
    cache.set(raw, entry);
  }
  return entry;
}

/** Calls `sink` for every token of `text` in order: the one tokenizing loop behind `analyze` and `tokenize`.
 * Not re-entrant (one shared regex): a sink must not tokenize. */
export function scanTokens(text: string, language: string, sink: TokenSink): void {
  let position = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const raw = m[0];
    const start = m.index;
    if (!ASCII.test(raw) && CJK.test(raw)) {
      position = scanCjk(raw, start, language, position, sink);
      continue;
    }
    if (raw.length > MAX_WORD_LENGTH) continue;
    const [token, word] = wordToken(raw, language);
    if (token === '') continue;
    sink(token, word, start, start + raw.length, position++, false);
  }
}

const WORD_AT = new RegExp(WORD.source, 'uy');

/** Where the next word of `text` at or after `from` starts, or -1. */
export function nextWordStart(text: string, from: number): number {
  WORD_NEXT.lastIndex = from;
  const m = WORD_NEXT.exec(text);
  return m === null ? -1 : m.index;
}
const WORD_NEXT = new RegExp(WORD.source, 'gu');

/**
 * The (non-CJK) word starting at `index` of `text`: where it ends, and its token, which is undefined
 * for a word the tokenizer skips (longer than MAX_WORD_LENGTH). Undefined when no word starts there.
 */
export function tokenAt(text: string, index: number, language = ''): { token: string | undefined; end: number } | undefined {
  WORD_AT.lastIndex = index;
  const m = WORD_AT.exec(text);
  if (m === null) return undefined;
  const end = index + m[0].length;
  if (m[0].length > MAX_WORD_LENGTH) return { token: undefined, end };
  const [token] = wordToken(m[0], language);
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

function scanCjk(run: string, offset: number, language: string, position: number, sink: TokenSink): number {
  const locale = language === 'ja' || KANA.test(run) ? 'ja' : language === 'ko' ? 'ko' : 'zh';
  // Han characters of the run with the position of the word each fell in, for the bigrams below.
  const han: { char: string; start: number; position: number; word: string }[] = [];
  for (const seg of segmenter(locale).segment(run)) {
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

/** The index tokens of `text`, in order (with repeats). */
export function tokenize(text: string, language?: string): string[] {
  const out: string[] = [];
  scanTokens(text, language ?? '', (token) => out.push(token));
  return out;
}

/** The language a piece of text is most likely in, by script alone: `ru`, `zh`, `ja`, `ko`, or '' for Latin. */
export function detectScript(text: string): string {
  if (CYRILLIC.test(text)) return 'ru';
  if (KANA.test(text)) return 'ja';
  if (/\p{Script=Hangul}/u.test(text)) return 'ko';
  if (/\p{Script=Han}/u.test(text)) return 'zh';
  return '';
}

// Function words left out of scoring (not out of the index). English: the classic short list;
// Spanish and Russian: the most frequent function words. Stored as index tokens.
const STOPWORD_TEXT = {
  en:
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most my ' +
    'myself no nor not now of off on once only or other our ours ourselves out over own same she should so ' +
    'some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves',
  es:
    'de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí ' +
    'porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos ' +
    'uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él',
  ru:
    'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот ' +
    'от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь ' +
    'опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам',
} as const;

const STOPWORDS: ReadonlySet<string> = new Set(
  Object.entries(STOPWORD_TEXT).flatMap(([lang, words]) =>
    words.split(' ').flatMap((w) => [w, stemWord(foldWord(w), lang === 'es' ? 'es' : '')]),
  ),
);

/** Separates the two tokens of a word-pair token; never inside a token (tokens have no spaces). */
export const PAIR_SEPARATOR = ' ';

/**
 * Proximity as terms: the pairs of neighbouring words of a short text (a title, one heading, one
 * anchor text), stopwords skipped, each as one token "a b". The indexer adds them to those fields and
 * the searcher asks for the pairs of the query's words, so "reading and writing files" favours the
 * page whose heading says "Reading and Writing Files" over a long page that has the words far apart.
 */
export function wordPairs(tokens: readonly string[]): string[] {
  const words = tokens.filter((t) => !isStopword(t));
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) if (words[i] !== words[i + 1]) pairs.push(words[i] + PAIR_SEPARATOR + words[i + 1]);
  return pairs;
}

/** The primary tokens of a text: without the CJK bigrams added beside words. */
export function primaryTokens(text: string, language = ''): string[] {
  const out: string[] = [];
  scanTokens(text, language, (token, _w, _s, _e, _p, extra) => {
    if (!extra) out.push(token);
  });
  return out;
}

/** Whether an index token is a function word the searcher may leave out of scoring. */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}
