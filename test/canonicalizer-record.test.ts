// The indexer canonicalizes as the crawl did (issue 13 item 4): a crawl told to keep `sid` stores the
// redirect target `/b?sid=<a session id>`; the indexer must follow the redirect to that page, not to `/b`
// (what the default canonicalizer makes of it), so the link to the redirect counts for the page it reached.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/crawl.js';
import { readStoreDocuments } from '../indexer/read-store.js';
import { resolveIndexerOptions } from '../indexer/options.js';
import { recordedCanonicalizer } from '../shared/store/index.js';
import { openStore } from '../shared/store/index.js';
import { collect } from './support/store-records.js';
import { SESSION_ID, startRedirectParamsSite, type RedirectParamsSite } from './sites/redirect-params-site.js';

describe('a crawl with non-default stripParams, then index', () => {
  let site: RedirectParamsSite;
  let dataDir: string;
  beforeAll(async () => {
    site = await startRedirectParamsSite();
    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-canon-'));
    await crawl({ dataDir, seeds: [`${site.url}/`], delayMs: 0, useSitemaps: false, stripParams: ['utm_*'] });
  });
  afterAll(async () => {
    await site.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the store records the crawl canonicalizer; the indexer resolves the redirect to the page the crawl stored', async () => {
    const store = await openStore(dataDir, { mustExist: true });
    try {
      const recorded = await recordedCanonicalizer(store);
      expect(recorded.settings).toEqual({ stripParams: ['utm_*'] });
      expect((await store.getPage(`${site.url}/r`))?.finalUrl).toBe(`${site.url}/b?sid=${SESSION_ID}`);
      const documents = await collect((await readStoreDocuments(store, resolveIndexerOptions())).documents.documents);
      const landing = documents.find((d) => d.stored.url === `${site.url}/b?sid=${SESSION_ID}`);
      expect(landing?.inbound).toBe(1); // the home page's link to /r, through the redirect
      expect(landing?.stored.anchor).toEqual(['the moved page']);
    } finally {
      await store.close();
    }
  });
});
