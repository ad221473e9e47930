// Phrase matching against a stored document's text, re-analysed with the tokenizer. Pure.

import { FIELDS, fieldTexts, type Field, type StoredDoc } from '../../shared/index-format/index.js';
import { isCjk, nextWordStart, scanTokens, stemSearchPrefix, stemsArePrefixes, tokenAt } from '../../shared/analysis/index.js';
import { escapeRegExp } from './regexp.js';

/**
 * Whether `tokens` (without CJK bigrams) occur consecutively in one of the document's fields (or in `field` only).
 * Punctuation is not a word, so "new york" matches "New-York". For Chinese and Japanese, where the
 * segmenter may cut the phrase differently inside a sentence, the phrase's `text` (its characters,
 * spaces aside) found in a row also matches.
 */
export function containsPhrase(doc: StoredDoc, tokens: readonly string[], field?: Field, text?: string): boolean {
  if (tokens.length === 0) return false;
  // Each heading and each anchor text on its own: a phrase does not run from one into the next.
  const texts = fieldTexts(doc);
  const segments: string[][] = texts.map((t) => [t]);
  segments[FIELDS.indexOf('headings')] = doc.headings;
  segments[FIELDS.indexOf('anchor')] = doc.anchor;
  const cjk = text !== undefined && tokens.every(isCjk);
  const cjkText = cjk ? squeeze(text) : undefined;
  for (let f = 0; f < FIELDS.length; f++) {
    if (field !== undefined && FIELDS[f] !== field) continue;
    for (const segment of segments[f]!) if (inText(segment, doc.language, tokens, cjkText)) return true;
  }
  return false;
}

function inText(text: string, language: string, tokens: readonly string[], cjkText: string | undefined): boolean {
  if (cjkText !== undefined && squeeze(text).includes(cjkText)) return true;
  // Latin and Cyrillic phrases: find the first word by its stem prefix, then read the words after it.
  // (Where stems are not prefixes, as Spanish ones that drop accents, a page is tokenized in full.)
  if (cjkText === undefined && stemsArePrefixes(language)) return bySearch(text, language, tokens);
  // The last n words seen, in a ring; compared with the phrase whenever a word ends a possible match.
  const n = tokens.length;
  const ring = new Array<string>(n).fill('');
  let seen = 0;
  let found = false;
  scanTokens(text, language, (token, _word, _start, _end, _position, extra) => {
    if (found || extra) return;
    ring[seen % n] = token;
    seen++;
    if (seen < n || token !== tokens[n - 1]) return;
    for (let k = 0; k < n; k++) if (ring[(seen - n + k) % n] !== tokens[k]) return;
    found = true;
  });
  return found;
}

function bySearch(text: string, language: string, tokens: readonly string[]): boolean {
  const first = tokens[0]!;
  const prefix = escapeRegExp(stemSearchPrefix(first));
  const starts = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}'’])${prefix}`, 'giu');
  outer: for (const m of text.matchAll(starts)) {
    let word = tokenAt(text, m.index, language);
    if (word?.token !== first) continue;
    for (let k = 1; k < tokens.length; k++) {
      // The next word that yields a token (one too long to index is skipped, as the tokenizer does).
      let at = word.end;
      let next: ReturnType<typeof tokenAt>;
      do {
        const start = nextWordStart(text, at);
        if (start < 0) return false;
        next = tokenAt(text, start, language);
        at = next?.end ?? start + 1;
      } while (next?.token === undefined);
      if (next.token !== tokens[k]) continue outer;
      word = next;
    }
    return true;
  }
  return false;
}

function squeeze(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}
