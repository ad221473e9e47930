// The analyzer registry: a language is one file under languages/ that calls `registerLanguage` with
// its stemmer, stopwords and segmentation; the pipeline (tokenize.ts) and the searcher ask the
// registry, never test a language code themselves. index.ts loads every file of languages/, so adding
// a language touches one file.

import { foldWord } from './fold.js';

/** How a language stems its words. */
export interface Stemming {
  /** Folded word -> index token. Pure. */
  stem: (word: string) => string;
  /** The words it stems (tested on the folded word); all words when absent. */
  words?: RegExp;
  /**
   * Stems the words of its script on every page, whatever the page's language (Cyrillic is Russian
   * for us: the query side does not know a page's language). Otherwise it applies on pages in this
   * language only, and the default language's stemmer elsewhere.
   */
  anyPage?: boolean;
}

/** How a CJK language cuts a run of Han, kana or Hangul characters into words (Intl.Segmenter). */
export interface Segmentation {
  /** The Intl.Segmenter locale. */
  locale: string;
  /** Runs with one of these characters are this language's on any page (kana: Japanese). */
  runs?: RegExp;
  /** The segmentation of runs that no language claims on a page of no CJK language (Chinese). */
  fallback?: boolean;
}

export interface Language {
  /** The primary language subtag pages declare (`<html lang>`, Content-Language): 'en', 'es'. */
  code: string;
  /** The analyzer of pages whose language is unknown or not registered (English). */
  isDefault?: boolean;
  stemming?: Stemming;
  /** Function words (as written, space-separated) that the searcher leaves out of scoring when a query has other words. */
  stopwords?: string;
  segmentation?: Segmentation;
  /**
   * The searcher also tries this language's stems of each query word, on pages in this language only:
   * the query does not say its language, and a page-scoped stemmer would otherwise never meet it.
   */
  queryVariant?: boolean;
  /**
   * Whether a stem is always a prefix of the folded word. When not (Spanish stems drop accents:
   * "públicas" -> "public"), phrase matching and snippets tokenize a page in full instead of finding
   * words by a stem-prefix search.
   */
  stemIsPrefix?: boolean;
}

const registry = new Map<string, Language>();
let defaultLanguage: Language | undefined;
let version = 0;

/** Adds (or replaces) a language; called once by each file of languages/. */
export function registerLanguage(language: Language): void {
  registry.set(language.code, language);
  if (language.isDefault) defaultLanguage = language;
  version++;
}

/** Changes whenever a language is added or replaced: what analysis gives may then change too, so a
 * cache of analysed words keys on it. */
export const registryVersion = (): number => version;

/** Every registered language, in registration order. */
export function languages(): readonly Language[] {
  return [...registry.values()];
}

/** The analyzer of a page in `code` ('' or unregistered: the default language's). */
export function analyzerFor(code: string): Language {
  const language = registry.get(code) ?? defaultLanguage;
  if (language === undefined) throw new TypeError('no default language registered (shared/analysis/languages/ should have one)');
  return language;
}

/** The languages whose stems the searcher also tries for each query word (see `Language.queryVariant`). */
export function queryVariantLanguages(): string[] {
  return languages().filter((l) => l.queryVariant).map((l) => l.code);
}

/** Whether `stem` of every word of a page in `code` is a prefix of the folded word. */
export function stemsArePrefixes(code: string): boolean {
  return analyzerFor(code).stemIsPrefix !== false;
}

/**
 * What every word that stems to `stem` starts with, in a language whose stems are prefixes
 * (stemsArePrefixes): the stem without its last letter, which a stemmer may change ("happi" for
 * "happy"). A stem of three letters keeps it, since two letters start too many words to confirm each,
 * unless it is the "i" of a final "y" ("kei" for "key", "dai" for "day").
 */
export function stemSearchPrefix(stem: string): string {
  return stem.length > 3 || (stem.length === 3 && stem.endsWith('i')) ? stem.slice(0, -1) : stem;
}

const HAS_DIGIT = /\p{N}/u;

/** The stemmers a page in `code` uses, most specific first: every-page script stemmers, the page's own, the default's. */
function stemmersFor(code: string): Stemming[] {
  const out = languages().flatMap((l) => (l.stemming?.anyPage ? [l.stemming] : []));
  const own = analyzerFor(code).stemming;
  if (own !== undefined && !own.anyPage) out.push(own);
  const fallback = analyzerFor('').stemming;
  if (fallback !== undefined && fallback !== own && !fallback.anyPage) out.push(fallback);
  return out;
}

// Stemming is the costly step and vocabularies are small: remember recent answers, per stemmer chain.
const STEM_CACHE_LIMIT = 200_000;
interface Stemmer {
  stemmers: Stemming[];
  cache: Map<string, string>;
}
const stemmerCache = new Map<string, Stemmer>();
let stemmerVersion = -1;

/** The stemmer chain of pages in `code`; pages whose chains are the same share one (and its cache). */
export function stemmerKey(code: string): string {
  const own = analyzerFor(code).stemming;
  return own !== undefined && !own.anyPage ? analyzerFor(code).code : analyzerFor('').code;
}

function stemmerOf(code: string): Stemmer {
  if (stemmerVersion !== version) {
    stemmerCache.clear();
    stemmerVersion = version;
  }
  const key = stemmerKey(code);
  let s = stemmerCache.get(key);
  if (!s) stemmerCache.set(key, (s = { stemmers: stemmersFor(key), cache: new Map() }));
  return s;
}

/** The index token of one folded, non-CJK word on a page in `language`. Words with digits are not stemmed. */
export function stemWord(word: string, language = ''): string {
  const s = stemmerOf(language);
  const cached = s.cache.get(word);
  if (cached !== undefined) return cached;
  let stem = word;
  if (!HAS_DIGIT.test(word)) {
    for (const st of s.stemmers) {
      if (st.words === undefined || st.words.test(word)) {
        stem = st.stem(word);
        break;
      }
    }
  }
  if (s.cache.size >= STEM_CACHE_LIMIT) s.cache.clear();
  s.cache.set(word, stem);
  return stem;
}

// Stopwords of every language, as written and as stemmed: the searcher does not know a query's language.
let stopwords: ReadonlySet<string> = new Set();
let stopwordsVersion = -1;

/** Whether an index token is a function word the searcher may leave out of scoring. */
export function isStopword(token: string): boolean {
  if (stopwordsVersion !== version) {
    stopwords = new Set(
      languages().flatMap((l) => (l.stopwords ?? '').split(' ').filter((w) => w !== '').flatMap((w) => [w, stemWord(foldWord(w), l.code)])),
    );
    stopwordsVersion = version;
  }
  return stopwords.has(token);
}

/** The Intl.Segmenter locale for a CJK run on a page in `code`. */
export function segmentationLocale(run: string, code: string): string {
  const all = languages();
  for (const l of all) if (l.segmentation?.runs?.test(run)) return l.segmentation.locale;
  const own = analyzerFor(code).segmentation;
  if (own !== undefined) return own.locale;
  const fallback = all.find((l) => l.segmentation?.fallback)?.segmentation;
  if (fallback === undefined) throw new TypeError('no fallback CJK segmentation registered (shared/analysis/languages/)');
  return fallback.locale;
}
