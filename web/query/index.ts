// The query parser's public entry: input text -> ParsedQuery (types.ts), never an error.
export type { ParsedQuery, QueryAtom } from './types.js';
export { parseQuery, formatQuery, capQueryText, siteHost, languageCode, type ParseOptions, type Tokenize } from './parse.js';
export { boundStartMs } from './date-filter.js';
export { parseSynonyms, applySynonyms, DEFAULT_SYNONYM_OPTIONS, type SynonymRules, type SynonymOptions } from './synonyms.js';
export { parsePromoted, promotedUrls, PROMOTED_ENTRY_MAX_CHARS, type PromotedRules, type PromotedEntry, type PromotedMatch } from './promoted.js';
