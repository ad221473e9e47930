// Words the English stemmer parts from their own inflections. Porter strips a final "s" as a plural's,
// so a singular that ends in a vowel and "s" loses it ("alias" -> "alia", "status" -> "statu", "focus"
// -> "focu") while its plural and participles keep it ("aliases", "aliased", "aliasing" -> "alias"):
// a search for "type alias" never met a page titled "Type aliases". The stemmer stays as Porter wrote
// it (porter-reference.test.ts holds it to his word list); the query side asks for the other stem too,
// when the index shows the two belong together (compile.ts checks the surface words).

import { isStopword, stemWord } from './registry.js';

/** A stem a query word may also match, and the surface word the index must hold under that stem for
 * the two to be one word (`prefix`: any surface word starting with `surface`, as "aliased" does "alias"). */
export interface StemSplit {
  token: string;
  surface: string;
  prefix: boolean;
}

// A vowel and "s", not "es" (a plural or a verb: "aliases", "goes") nor "ss" ("class").
const SINGULAR_S = /^[a-z]{2,}[aiouy]s$/;

/** The other stems of an English `word` (lower-case), candidates the index still has to confirm. */
export function stemSplits(word: string): StemSplit[] {
  if (!/^[a-z]{4,}$/.test(word) || isStopword(word)) return [];
  const own = stemWord(word);
  const out: StemSplit[] = [];
  // "alias": its inflections' stem is the stem of "aliases", found under surface words "alias...".
  if (SINGULAR_S.test(word)) {
    const inflected = stemWord(`${word}es`);
    if (inflected !== own) out.push({ token: inflected, surface: word, prefix: true });
  }
  // "aliases", "aliased": their stem is the singular itself, and the singular's stem lost its "s".
  if (own !== word && SINGULAR_S.test(own)) {
    const singular = stemWord(own);
    if (singular !== own) out.push({ token: singular, surface: own, prefix: false });
  }
  return out;
}
