// The whole pipeline, end to end, as a user runs it: the demo intranet on 127.0.0.1, a crawl into a temp
// data dir with real LevelDB, an index build, and the real HTTP gateway answering queries.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FACTS as F } from '../bin/demo/facts.js';
import { startDemoSite, type DemoSite } from '../bin/demo/server.js';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { serve, type RunningServer } from '../web/index.js';

interface ApiResult {
  total: number;
  results: { url: string; title: string; snippet: string; score: number }[];
}

describe('crawl -> LevelDB -> index -> web, on the demo intranet', () => {
  let site: DemoSite;
  let dataDir: string;
  let summary: CrawlSummary;
  let server: RunningServer;
  const pages = new Map<string, PageRecord>();

  async function search(q: string): Promise<ApiResult> {
    const res = await fetch(new URL(`api/search?q=${encodeURIComponent(q)}&size=20`, server.url));
    expect(res.status).toBe(200);
    return (await res.json()) as ApiResult;
  }
  const path = (url: string) => new URL(url).pathname + new URL(url).search;

  beforeAll(async () => {
    site = await startDemoSite();
    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-e2e-'));
    summary = await crawl({ dataDir, seeds: [`${site.url}/`], delayMs: 0 });
    const store = await openStore(dataDir, { mustExist: true });
    for await (const p of store.pages()) pages.set(path(p.url), p);
    await store.close();
    await buildIndex(dataDir);
    server = await serve({ dataDir, port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await server.close();
    await site.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('crawls the public site and stores every reachable page', () => {
    expect(summary.stoppedBecause).toBe('done');
    for (const p of [F.seedPath, F.mostLinkedPath, F.lessLinkedPath, F.areaOnlyPath, F.baseHrefOnlyPath, F.allowedException.path, F.trackingLink.canonicalPath]) {
      expect(pages.get(p)?.state, p).toBe('ok');
    }
    for (const q of Object.values(F.languageQueries)) expect(pages.get(q.path)?.state, q.path).toBe('ok');
  });

  it('never requests what robots.txt disallows, and reads robots.txt first', () => {
    const requested = site.requests.map((r) => r.path);
    expect(requested[0]).toBe('/robots.txt');
    const disallowed = requested.filter((p) => p.startsWith(F.disallowedPrefix) && p !== F.allowedException.path);
    expect(disallowed).toEqual([]);
    for (const blocked of F.wildcardBlockedUrls) expect(requested).not.toContain(blocked);
    // ...while those URLs were found, and counted as blocked by the rules that decided.
    expect(Object.keys(summary.stats.blockedByRule).join('\n')).toMatch(/disallow \/internal\//);
    expect(site.requests.every((r) => r.userAgent.startsWith('Gleaner/'))).toBe(true);
  });

  it('does not follow nofollow links, and stores duplicates and gone pages as such', () => {
    expect(site.requests.map((r) => r.path)).not.toContain(F.nofollowOnly.path);
    const states = F.duplicatePaths.map((p) => pages.get(p)?.state).sort();
    expect(states).toEqual(['duplicate', 'ok']);
    expect(pages.get('/news/2019-archive.html')?.state).toBe('gone');
    expect(pages.get(F.noindexPath)?.robots.index).toBe(false);
  });

  it('keeps the noindex page out of the results', async () => {
    const r = await search(F.noindexWord);
    expect(r.results.map((x) => path(x.url))).not.toContain(F.noindexPath);
  });

  it.each(Object.entries(F.languageQueries))('a query in %s finds its page', async (_lang, q) => {
    const r = await search(q.query);
    expect(r.total).toBeGreaterThan(0);
    expect(path(r.results[0]!.url)).toBe(q.path);
  });

  it('ranks the most-linked page first for a term it shares with a less-linked page', async () => {
    const r = await search(F.sharedTerm);
    const order = r.results.map((x) => path(x.url));
    expect(order).toContain(F.lessLinkedPath);
    expect(order[0]).toBe(F.mostLinkedPath);
  });

  it('serves the search page for a browser', async () => {
    const res = await fetch(new URL(`search?q=${encodeURIComponent(F.sharedTerm)}`, server.url));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`${site.url}${F.mostLinkedPath}`);
  });
});
