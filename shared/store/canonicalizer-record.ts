// The crawl's canonicalizer settings, kept in the store's meta: the indexer (and anything else reading
// a crawl) canonicalizes URLs exactly as the crawl that stored them did, whatever --strip-params it ran with.

import type { Store } from './store.js';
import { makeCanonicalizer, type Canonicalizer, type CanonicalizerSettings } from '../url.js';

const META_KEY = 'canonicalizer';

/** Written at crawl start: the pages this crawl stores are keyed by URLs in this form. */
export async function recordCanonicalizer(store: Store, canonicalizer: Canonicalizer): Promise<void> {
  await store.putMeta(META_KEY, canonicalizer.settings);
}

/** The canonicalizer the crawl recorded; the defaults for a store written before it was recorded. */
export async function recordedCanonicalizer(store: Store): Promise<Canonicalizer> {
  const settings = await store.getMeta<CanonicalizerSettings>(META_KEY);
  return makeCanonicalizer(settings === undefined ? {} : { stripParams: settings.stripParams });
}
