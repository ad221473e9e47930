// Phrases answered from the index's word positions must find exactly the pages whose text has the
// phrase (phrase.ts reads the text, as every phrase was checked before positions were indexed).

import { describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/analysis/index.js';
import type { StoredDoc } from '../../shared/index-format/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { parseQuery } from '../query/index.js';
import { containsPhrase } from './phrase.js';
import { seededRandom as rng } from '../../test/support/seeded-random.js';

const WORDS = ['river', 'running', 'runs', 'the', 'of', 'stone', 'bridge', 'light', 'old', 'north'];

const random = rng(20261124);
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
// Punctuation between some words: it is no word, so a phrase runs across it.
const sentence = (n: number) => words(n).map((w, i) => (i % 7 === 6 ? `${w}.` : w)).join(' ');
const pages = Array.from({ length: 60 }, (_, i) => ({
  url: `http://p.test/${i}`,
  title: sentence(3),
  headings: [sentence(2), sentence(2)],
  text: sentence(25),
}));
const engine = fixtureEngine(pages);
// The same index with every term's positions read posting by posting (posting-lists.ts), as a long
// list's are: the same answers, snippets and order (proximity reads positions too).
const paged = fixtureEngine(pages, { wholePositionBytes: 0, positionCacheMiB: 0.01 });

const stored = (p: (typeof pages)[number]): StoredDoc => ({
  title: p.title,
  headings: p.headings,
  body: p.text,
  url: p.url,
  anchor: [],
  language: 'en',
});

describe('phrases from word positions', () => {
  const phrases: string[] = [];
  for (const a of WORDS) for (const b of WORDS) if (a !== b) phrases.push(`${a} ${b}`);
  for (let i = 0; i < 40; i++) phrases.push(words(3).join(' '));

  it('find exactly the pages whose text holds the phrase, in any field, never across two headings', () => {
    let found = 0;
    for (const phrase of phrases) {
      const got = new Set(engine().rankedUrls(parseQuery(`"${phrase}"`), 1000).map((h) => h.url));
      const want = new Set(pages.filter((p) => containsPhrase(stored(p), tokenize(phrase))).map((p) => p.url));
      expect([...got].sort(), phrase).toEqual([...want].sort());
      found += want.size;
    }
    expect(found).toBeGreaterThan(100); // the pages hold many of the phrases: the test is not vacuous
  });

  it('restricted to the title, find only titles holding the phrase', () => {
    for (const phrase of phrases.slice(0, 40)) {
      const got = new Set(engine().rankedUrls(parseQuery(`intitle:"${phrase}"`), 1000).map((h) => h.url));
      const want = pages.filter((p) => containsPhrase(stored(p), tokenize(phrase), 'title')).map((p) => p.url);
      expect([...got].sort(), phrase).toEqual(want.sort());
    }
  });

  it('are the same read posting by posting as read whole', () => {
    const queries = [...phrases.slice(0, 60).map((p) => `"${p}"`), ...phrases.slice(60).map((p) => p), 'river stone bridge', 'old light -north'];
    let hits = 0;
    for (const q of queries) {
      const whole = engine().search(parseQuery(q), { offset: 0, limit: 10 });
      const byPosting = paged().search(parseQuery(q), { offset: 0, limit: 10 });
      expect({ ...byPosting, tookMs: 0 }, q).toEqual({ ...whole, tookMs: 0 });
      hits += whole.hits.length;
    }
    expect(hits).toBeGreaterThan(200);
  });
});
