// The page store, the crawler -> indexer hand-off: the records (types.ts), the LevelDB store (store.ts),
// how a page is encoded in it (page-codec.ts) and its links packed (links.ts). The only entry the rest of
// Gleaner imports; `export *` so a field or sublevel added to a module needs no second edit here.

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
