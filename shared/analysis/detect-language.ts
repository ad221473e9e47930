// The language of a text that does not declare one (a page without `<html lang>`), for the indexer:
// `lang:` then finds it, and its words get their language's stemmer. Two cheap signals, no model:
// - script: Hangul is Korean, kana Japanese, other Han Chinese, Cyrillic Russian (the CJK and
//   Cyrillic languages shared/analysis knows);
// - function words: for Latin script, the registered languages' stopword lists (en, es, fr) are
//   counted over the first words; the language with clearly the most wins.
// Unsure answers are '' (unknown), never a guess: a wrong language would stem a page wrongly.
// Pure.

import { foldWord } from './fold.js';
import { languages } from './registry.js';

export interface DetectOptions {
  /** Characters read from the start of the text. Default 5,000. */
  sampleChars: number;
  /** Latin script: at least this many function words of the winner ... Default 4. */
  minStopwords: number;
  /** ... and this many times the runner-up's count ... Default 1.5. */
  minMargin: number;
  /** ... and this share of all the words read (function words shared with a language we have no list
   * for, German "in", "an", are few in its text). Default 0.1. */
  minShare: number;
  /** A script (Hangul, kana, Han, Cyrillic) decides when at least this share of the letters is in it. Default 0.3. */
  minScriptShare: number;
}

export const DETECT_DEFAULTS: Readonly<DetectOptions> = { sampleChars: 5000, minStopwords: 4, minMargin: 1.5, minShare: 0.1, minScriptShare: 0.3 };

const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Hangul}/u, 'ko'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
];
const LETTER = /\p{L}/u;
const WORD = /\p{L}+/gu;

// Stopword sets of the registered languages, rebuilt when the registry changes size.
let stopwordSets: { code: string; words: Set<string> }[] = [];
let builtFor = -1;

function latinStopwords(): { code: string; words: Set<string> }[] {
  const all = languages();
  if (builtFor !== all.length) {
    stopwordSets = all
      .filter((l) => l.stopwords !== undefined && /\p{Script=Latin}/u.test(l.stopwords))
      .map((l) => ({ code: l.code, words: new Set(l.stopwords!.split(' ').filter((w) => w !== '').map(foldWord)) }));
    builtFor = all.length;
  }
  return stopwordSets;
}

/** The primary language subtag of `text` ('en', 'ru', 'zh'...), or '' when the signals are too weak. */
export function detectLanguage(text: string, options: Partial<DetectOptions> = {}): string {
  const o = { ...DETECT_DEFAULTS, ...options };
  const sample = text.slice(0, o.sampleChars);
  let letters = 0;
  const byScript = new Array<number>(SCRIPTS.length).fill(0);
  for (const ch of sample) {
    if (!LETTER.test(ch)) continue;
    letters++;
    const code = ch.codePointAt(0)!;
    if (code < 0x370) continue; // Latin and its accents: the common case, no script test
    for (let i = 0; i < SCRIPTS.length; i++) {
      if (SCRIPTS[i]![0].test(ch)) {
        byScript[i]!++;
        break;
      }
    }
  }
  if (letters === 0) return '';
  // Kana among Han characters make Japanese even when Han is the larger part.
  const cjk = byScript[0]! + byScript[1]! + byScript[2]!;
  if (cjk >= o.minScriptShare * letters) {
    if (byScript[0]! >= byScript[1]! + byScript[2]!) return SCRIPTS[0]![1];
    return byScript[1]! >= 0.1 * cjk ? SCRIPTS[1]![1] : SCRIPTS[2]![1];
  }
  if (byScript[3]! >= o.minScriptShare * letters) return SCRIPTS[3]![1];

  const sets = latinStopwords();
  const hits = new Array<number>(sets.length).fill(0);
  let words = 0;
  for (const m of sample.matchAll(WORD)) {
    words++;
    const word = foldWord(m[0]);
    for (let i = 0; i < sets.length; i++) if (sets[i]!.words.has(word)) hits[i]!++;
  }
  let best = -1;
  let second = 0;
  for (let i = 0; i < sets.length; i++) {
    if (best < 0 || hits[i]! > hits[best]!) {
      if (best >= 0) second = Math.max(second, hits[best]!);
      best = i;
    } else second = Math.max(second, hits[i]!);
  }
  if (best < 0 || hits[best]! < o.minStopwords || hits[best]! < o.minMargin * second || hits[best]! < o.minShare * words) return '';
  return sets[best]!.code;
}
