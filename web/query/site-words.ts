// How a query's words meet the words of a list a site owner writes (synonyms.ts, promoted.ts): by their
// index tokens, accents folded, so `Kubernetes` meets `kubernetes`, a plural its singular and "cafe"
// "café", as search meets them. Pure.

import { accentFold, isFoldToken } from '../../shared/analysis/index.js';
import { parseQuery } from './parse.js';
import type { ParsedQuery, QueryAtom } from './types.js';

/** The key a word meets a listed word by. */
export const wordKey = (atom: QueryAtom): string =>
  accentFold(
    atom.tokens
      .filter((t) => !isFoldToken(t)) // an accented word's extra token, which its unaccented twin lacks
      .join(' '),
  );

/** Whether a query holds plain words only, each alone in its group: no quotes, -, OR, field or filter. */
export function isPlainWords(parsed: ParsedQuery): boolean {
  const plain = parsed.required.every((g) => g.length === 1 && g[0]!.kind === 'term' && g[0]!.field === undefined);
  const filtered = parsed.sites.length + parsed.excludedSites.length + parsed.languages.length > 0 || parsed.after !== undefined || parsed.before !== undefined;
  return plain && !filtered && parsed.excluded.length === 0 && parsed.required.length > 0;
}

/** A listed entry's words as query atoms (one per word), or why it cannot be one. */
export function entryWords(entry: string, maxChars: number): QueryAtom[] | string {
  if (entry === '') return 'an empty entry';
  // Longer than a query may be, it could never be typed whole (and is not echoed whole either).
  if (entry.length > maxChars) return `an entry of ${entry.length} characters, longer than a query may be (${maxChars})`;
  const parsed = parseQuery(entry);
  if (!isPlainWords(parsed) || parsed.ignored.length > 0) {
    return `\`${entry}\` is not plain words (no quotes, -, OR, site:, lang:, after:, before: or intitle: in an entry)`;
  }
  return parsed.required.map((g) => g[0]!);
}
