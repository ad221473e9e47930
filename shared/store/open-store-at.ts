// Where a store is: a data dir (LevelDB, the default for one machine) or a `postgres://` URL (the
// shared store of a crawl on several machines, pg-store.ts). The one place that tells them apart.

import { isPostgresUrl, PgStore } from './pg-store.js';
import { openStore, type OpenStoreOptions, type Store } from './store.js';

export function openStoreAt(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  return isPostgresUrl(location) ? PgStore.open(location) : openStore(location, options);
}
