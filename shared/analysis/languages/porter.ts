// The Porter (1980) stemmer for English, written from the published algorithm. We do not use
// @orama/stemmers' English stemmer: it strips "-tion" instead of "-ion", so "connection" becomes "connec"
// while "connected" becomes "connect", and the two never meet. Its Spanish and Russian stemmers are used.
//
// Input: a lower-case word of ASCII letters (callers leave other words alone). Pure.

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/** Whether w[i] is a consonant in Porter's sense: not a vowel, and `y` only after a vowel. */
function isConsonant(w: string, i: number): boolean {
  const c = w[i]!;
  if (VOWELS.has(c)) return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** m: the number of vowel-consonant sequences in `stem` ([C](VC)^m[V]). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y (e.g. -hop, -fil). */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  if (!isConsonant(w, n - 3) || isConsonant(w, n - 2) || !isConsonant(w, n - 1)) return false;
  const last = w[n - 1]!;
  return last !== 'w' && last !== 'x' && last !== 'y';
}

type Rule = readonly [suffix: string, replacement: string];

/** The first rule whose suffix ends `w` is the only one tried; it applies when the stem's m > minM. */
function applyRules(w: string, rules: readonly Rule[], minM: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    return measure(stem) > minM ? stem + replacement : w;
  }
  return w;
}

// Longest suffix first wherever one suffix ends another (ational/tional, ization/ation ...).
const STEP2: readonly Rule[] = ([
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
] as Rule[]).sort((a, b) => b[0].length - a[0].length);

const STEP3: readonly Rule[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

const STEP4 = [
  'ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
  'ion', 'al', 'er', 'ic', 'ou',
].sort((a, b) => b.length - a.length);

function step1ab(w: string): string {
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    /* unchanged */
  } else if (w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
    return w;
  }
  let stem: string | undefined;
  if (w.endsWith('ed')) stem = w.slice(0, -2);
  else if (w.endsWith('ing')) stem = w.slice(0, -3);
  if (stem === undefined || !hasVowel(stem)) return w;
  w = stem;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsDoubleConsonant(w)) {
    const last = w[w.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w) === 1 && endsCvc(w)) return w + 'e';
  return w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    if (suffix === 'ion') {
      const before = stem[stem.length - 1];
      if (before !== 's' && before !== 't') return w;
    }
    return measure(stem) > 1 ? stem : w;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lower-case ASCII word. */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + 'i';
  w = applyRules(w, STEP2, 0);
  w = applyRules(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
