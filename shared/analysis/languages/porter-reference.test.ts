// Our Porter stemmer (porter.ts) against a well-kept implementation of the same algorithm, the npm
// `stemmer` package (wooorm), over a real English word list: Debian's wamerican. Measured 2026-11:
// 88,142 distinct words (lower-cased, apostrophes dropped, as foldWord does), 0 differences. So ours is
// kept for the reason porter.ts gives (no dependency for 130 lines that agree everywhere), and any
// future difference must be listed in DELIBERATE_DIFFERENCES with its reason.
//
// @orama/stemmers' English stemmer (which we do not use) differs on 944 of these words, 860 of them
// -ion/-ions words ("connection" -> "connec" but "connected" -> "connect"): the last test keeps that reason true.

import { readFileSync } from 'node:fs';
import { stemmer as oramaEnglish } from '@orama/stemmers/english';
import { stemmer as reference } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { requireResource } from '../../../test/support/resources.js';
import { foldWord } from '../fold.js';
import { porterStem } from './porter.js';

const WORD_LIST = '/usr/share/dict/american-english';
const present = requireResource('the Porter stemmer comparison over Debian wamerican', WORD_LIST);

/** Word -> [ours, reference, why ours differs on purpose]. None today. */
const DELIBERATE_DIFFERENCES = new Map<string, [string, string, string]>();

function wordList(): string[] {
  const words = readFileSync(WORD_LIST, 'utf8').split('\n').map(foldWord);
  // The words our English analyzer stems (en.ts): ASCII letters only.
  return [...new Set(words.filter((w) => /^[a-z]+$/.test(w)))];
}

describe.skipIf(!present)('Porter stemmer: ours agrees with the npm stemmer package over wamerican', () => {
  it('every word of the list stems the same, except the listed deliberate differences', () => {
    const words = wordList();
    expect(words.length).toBeGreaterThan(50_000);
    const differences = words.filter((w) => porterStem(w) !== reference(w)).map((w) => [w, porterStem(w), reference(w)]);
    expect(differences).toEqual([...DELIBERATE_DIFFERENCES].map(([w, [ours, theirs]]) => [w, ours, theirs]));
  });

  it('why not @orama/stemmers English: it splits "-ction" nouns from their "-cted" verbs, ours joins them', () => {
    const words = new Set(wordList());
    const pairs = [...words].filter((w) => w.endsWith('ction') && words.has(w.slice(0, -3) + 'ed')).map((w) => [w, w.slice(0, -3) + 'ed'] as const);
    // Porter keeps "-ion" after a one-syllable stem ("action", "acted"): those two pairs stay apart in both.
    const joined = pairs.filter(([noun, verb]) => porterStem(noun) === porterStem(verb));
    expect(joined.length).toBeGreaterThan(pairs.length * 0.9);
    expect(joined.filter(([noun, verb]) => oramaEnglish(noun) === oramaEnglish(verb))).toEqual([]);
  });
});
