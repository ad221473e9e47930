// Phrase matching against a stored document's text, re-analysed with the tokenizer. Pure.

import { FIELDS, fieldTexts, type Field, type StoredDoc } from '../../shared/index-format.js';
import { analyze, detectScript } from '../../shared/tokenize.js';

/**
 * Whether `tokens` occur consecutively in one of the document's fields (or in `field` only).
 * Punctuation is not a word, so "new york" matches "New-York". For Chinese and Japanese, where the
 * segmenter may cut the phrase differently inside a sentence, the phrase's characters in a row match.
 */
export function containsPhrase(doc: StoredDoc, tokens: readonly string[], field?: Field): boolean {
  if (tokens.length === 0) return false;
  const texts = fieldTexts(doc);
  const cjk = tokens.every((t) => detectScript(t) === 'zh' || detectScript(t) === 'ja' || detectScript(t) === 'ko');
  for (let f = 0; f < FIELDS.length; f++) {
    if (field !== undefined && FIELDS[f] !== field) continue;
    const text = texts[f]!;
    if (cjk && text.replace(/\s+/g, '').toLowerCase().includes(tokens.join(''))) return true;
    const words = analyze(text, doc.language).filter((s) => !s.extra);
    outer: for (let i = 0; i + tokens.length <= words.length; i++) {
      for (let k = 0; k < tokens.length; k++) if (words[i + k]!.token !== tokens[k]) continue outer;
      return true;
    }
  }
  return false;
}
