// The page store, the crawler -> indexer hand-off: the records (types.ts), the LevelDB store (store.ts)
// and its repair (repair.ts), the same store in PostgreSQL (pg-store.ts) and which of the two a data dir
// or URL names (open-store-at.ts), how a page is encoded in it (page-codec.ts) and its links packed
// (links.ts), what a resumed crawl reads of each page (page-facts.ts), the crawl's canonicalizer settings
// (canonicalizer-record.ts) and the raw responses kept for export (raw-response.ts). The only entry the
// rest of Gleaner imports; `export *` so a field or sublevel added to a module needs no second edit here.

export * from './types.js';
export * from './store.js';
export * from './repair.js';
export * from './page-codec.js';
export * from './links.js';
export * from './page-facts.js';
export * from './canonicalizer-record.js';
export * from './raw-response.js';
export * from './pg-store.js';
export * from './open-store-at.js';
