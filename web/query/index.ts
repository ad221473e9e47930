// The query parser's public entry: input text -> ParsedQuery (shared/query.ts), never an error.
export { parseQuery, formatQuery, siteHost, languageCode, type ParseOptions, type Tokenize } from './parse.js';
