// The index format, the indexer -> web hand-off: what the indexer writes (index-format.ts) and how a
// generation is read back (index-read.ts). The only entry the rest of Gleaner imports.

export * from './index-format.js';
export * from './index-read.js';
export * from './damage.js';
export * from './page-typeahead.js';
export * from './positions.js';
export * from './word-map.js';
export * from './posting-lists.js';
export * from './doc-numbers.js';
export * from './doc-strings.js';
export * from './string-columns.js';
export * from './term-table.js';
export * from './term-codec.js';
export * from './stored-chunks.js';
export * from './position-blocks.js';
export * from './phrase-pairs.js';
export * from './stored-header.js';
