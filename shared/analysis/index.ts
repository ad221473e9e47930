// Text analysis, the one way page text and query text become index tokens: the indexer and the
// searcher import it only through this entry. Every file of languages/ registers one language when
// loaded here, so adding a language is adding one file (test/analysis-language.test.ts proves it with French).

import { readdirSync } from 'node:fs';
import { extname } from 'node:path';

export { isBlank } from './blank.js';
export { editDistance } from './edit-distance.js';
export { foldWord } from './fold.js';
export { accentFold, FOLD_MARK, foldToken, isFoldToken } from './accents.js';
export { identifierAt, identifierTails, identifierWhole, isIdentifierToken, symbolSuffix } from './identifiers.js';
export { camelCaseMember, definedNameOf, definedNameToken, definedStemToken, DEFINES_MARK, isCamelCase, isConstantName, isDefinedNameToken, isLongOption, memberNameToken, namespacedTypeJoined, optionToken, qualifiedForms } from './defined-names.js';
export { charBefore, MAX_WORD_LENGTH, nextWordStart, wordHolding } from './words.js';
export { isCjk, type TokenSink } from './cjk.js';
export { PAIR_SEPARATOR, pairPlaces, wordPairs } from './pairs.js';
export { hyphenCompounds, type Compound } from './compounds.js';
export { analyzerFor, isStopword, languages, queryVariantLanguages, registerLanguage, registryVersion, stemsArePrefixes, stemSearchPrefix, stemWord, type Language } from './registry.js';
export { analyze, countsInLength, numberTokens, primaryTokens, scanTokens, tokenAt, tokenize, tokenNumbering, type TokenSpan } from './tokenize.js';
export { TokenNumbers } from './token-numbers.js';
export { detectLanguage, DETECT_DEFAULTS, type DetectOptions } from './detect-language.js';
export { stemSplits, type StemSplit } from './stem-splits.js';
export { spellingVariants } from './spelling-variants.js';

// .ts when run from source (vitest), .js when built; tests and declarations are not languages.
const EXT = extname(new URL(import.meta.url).pathname);
const LANGUAGES = new URL('./languages/', import.meta.url);
for (const name of readdirSync(LANGUAGES).sort()) {
  if (name.endsWith(EXT) && !name.endsWith(`.test${EXT}`) && !name.endsWith(`.d${EXT}`)) await import(/* @vite-ignore */ new URL(name, LANGUAGES).href);
}
