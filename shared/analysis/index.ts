// Text analysis, the one way page text and query text become index tokens: the indexer and the
// searcher import it only through this entry.
export * from './tokenize.js';
