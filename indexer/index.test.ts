// buildIndex against a real LevelDB store in a temp dir: incremental re-indexing, --full, the format
// version check, and the atomic generation swap.

import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_FILES, currentGeneration, decodeTermTable, indexRoot, readCurrentGeneration } from '../shared/index-format/index.js';
import { openSearchEngine, readIndexStats } from '../web/search/index.js';
import { openStore } from '../shared/store/index.js';
import { query, tempDataDir, writePages, type PageSpec } from '../test/support/index-fixture.js';
import { buildIndex } from './index.js';

const S = 'http://site.test';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function dataDir(): Promise<string> {
  const t = await tempDataDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
async function urlsFor(dir: string, q: string): Promise<string[]> {
  const engine = await openSearchEngine(dir);
  try {
    return engine.search(query(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);
  } finally {
    engine.close();
  }
}

const BASE: PageSpec[] = [
  { url: `${S}/a`, title: 'Alpha', text: 'apples and oranges' },
  { url: `${S}/b`, title: 'Beta', text: 'bananas' },
  { url: `${S}/c`, title: 'Gamma', text: 'cherries' },
];

describe('buildIndex: incremental', () => {
  it('a second run with nothing changed re-analyses nothing and answers the same', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    const first = await buildIndex(dir);
    expect(first).toMatchObject({ full: true, documents: 3, analysed: 3, reused: 0 });
    const before = await urlsFor(dir, 'bananas');
    const second = await buildIndex(dir);
    expect(second).toMatchObject({ full: false, documents: 3, analysed: 0, reused: 3, removed: 0 });
    expect(await urlsFor(dir, 'bananas')).toEqual(before);
  });

  it('keeps the word positions of reused pages: their phrases still match, in order only', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    await writePages(dir, [{ url: `${S}/b`, title: 'Beta', text: 'oranges and apples' }]);
    expect(await buildIndex(dir)).toMatchObject({ analysed: 1, reused: 2 });
    expect(await urlsFor(dir, '"apples_and_oranges"')).toEqual([`${S}/a`]);
    expect(await urlsFor(dir, '"oranges_and_apples"')).toEqual([`${S}/b`]);
  });

  it('re-analyses only changed and new pages, drops gone ones', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    await writePages(dir, [
      { url: `${S}/b`, title: 'Beta', text: 'blueberries' },
      { url: `${S}/c`, state: 'gone' },
      { url: `${S}/d`, title: 'Delta', text: 'dates' },
    ]);
    const s = await buildIndex(dir);
    expect(s).toMatchObject({ full: false, documents: 3, analysed: 2, reused: 1, removed: 1 });
    expect(await urlsFor(dir, 'blueberries')).toEqual([`${S}/b`]);
    expect(await urlsFor(dir, 'bananas')).toEqual([]);
    expect(await urlsFor(dir, 'cherries')).toEqual([]);
    expect(await urlsFor(dir, 'dates')).toEqual([`${S}/d`]);
    expect(await urlsFor(dir, 'apples')).toEqual([`${S}/a`]);
  });

  it('re-analyses a page whose inbound anchor text changed, though the page itself did not', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    await writePages(dir, [{ url: `${S}/e`, title: 'Echo', text: 'links', links: [[`${S}/a`, 'fruit salad']] }]);
    const s = await buildIndex(dir);
    expect(s).toMatchObject({ analysed: 2, reused: 2 });
    expect(await urlsFor(dir, 'salad')).toEqual([`${S}/a`]);
  });

  it("keeps terms' other surface words, for corrections, also for the pages a later run reuses", async () => {
    const dir = await dataDir();
    await writePages(dir, [...BASE, { url: `${S}/p`, title: 'Partitions', text: 'Partitioning a table: one partition per month.' }]);
    await buildIndex(dir);
    const formsOf = async (word: string) => {
      const terms = decodeTermTable(await readFile(join((await currentGeneration(dir))!, INDEX_FILES.terms)));
      return terms.forms?.at(terms.words.indexOf(word));
    };
    expect(await formsOf('partition')).toBe('partitioning partitions'); // one page each: ties alphabetical
    await writePages(dir, [{ url: `${S}/d`, title: 'Delta', text: 'dates' }]);
    expect(await buildIndex(dir)).toMatchObject({ analysed: 1, reused: 4 });
    expect((await formsOf('partition'))!.split(' ').sort()).toEqual(['partitioning', 'partitions']);
  });

  it('--full re-analyses everything', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    expect(await buildIndex(dir, { full: true })).toMatchObject({ full: true, analysed: 3, reused: 0 });
  });

  it('reports progress through the callback', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    const phases = new Set<string>();
    await buildIndex(dir, { onProgress: (p) => phases.add(p.phase) });
    expect([...phases]).toEqual(['read', 'links', 'analyze', 'write']);
  });
});

describe('index format and atomic swap', () => {
  it('the searcher refuses an index of another format version, saying what to do', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    const gen = (await currentGeneration(dir))!;
    const manifestPath = join(gen, INDEX_FILES.manifest);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    await writeFile(manifestPath, JSON.stringify({ ...manifest, formatVersion: 999 }));
    await expect(openSearchEngine(dir)).rejects.toMatchObject({ code: 'INDEX_FORMAT', message: expect.stringMatching(/v999.*newer Gleaner/) as unknown });
    // The indexer replaces an unreadable index with a full build.
    expect(await buildIndex(dir)).toMatchObject({ full: true, analysed: 3 });
    expect(await urlsFor(dir, 'apples')).toEqual([`${S}/a`]);
  });

  it('without an index the searcher says to run gleaner index', async () => {
    const dir = await dataDir();
    await expect(openSearchEngine(dir)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('gleaner index') as unknown });
  });

  it('without a crawl the indexer says so', async () => {
    const dir = await dataDir();
    await expect(buildIndex(dir)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a half-written generation left by a crash is ignored, then cleaned up by the next build', async () => {
    const dir = await dataDir();
    await writePages(dir, BASE);
    await buildIndex(dir);
    const crashed = join(indexRoot(dir), 'gen-crashed');
    await mkdir(crashed);
    await writeFile(join(crashed, INDEX_FILES.postings), 'partial');
    expect(await urlsFor(dir, 'apples')).toEqual([`${S}/a`]);
    await buildIndex(dir);
    const entries = await readdir(indexRoot(dir));
    expect(entries.filter((e) => e.startsWith('gen-'))).toHaveLength(1);
    expect(entries).not.toContain('gen-crashed');
  });
});

describe('what /stats reads', () => {
  it('copies the crawl counters and lists the most-linked pages, skipped pages by reason', async () => {
    const dir = await dataDir();
    await writePages(dir, [
      { url: `${S}/hub`, title: 'Hub', text: 'hub', links: [`${S}/a`, `${S}/b`] },
      { url: `${S}/a`, title: 'A', text: 'a', links: [`${S}/b`] },
      { url: `${S}/b`, title: 'B', text: 'b', links: [`${S}/a`] },
      { url: `${S}/hidden`, title: 'Hidden', text: 'x', index: false, links: [`${S}/b`] },
    ]);
    const store = await openStore(dir);
    await store.putCrawlStats({ startedAt: '2026-01-01T00:00:00.000Z', seeds: [`${S}/hub`], pagesByState: { ok: 4 }, pagesByStatus: { '200': 4 }, hosts: 1, requests: 5, bytes: 100, errors: 0, blockedByRule: {}, trapsCut: {}, duplicates: 0, outOfScope: 0 });
    await store.close();
    await buildIndex(dir);
    const stats = await readIndexStats(dir);
    expect(stats.crawl?.requests).toBe(5);
    expect(stats.documents).toBe(3);
    expect(stats.skipped).toEqual({ noindex: 1 });
    // b: linked from hub, a and the noindex page (which still links); a: from hub and b.
    expect(stats.topLinked.map((p) => [p.url, p.inbound])).toEqual([[`${S}/b`, 3], [`${S}/a`, 2]]);
    // Nothing is computed or stored that ranking does not use (PageRank measured no better: web/search/rank.ts).
    expect(Object.keys(stats.topLinked[0]!).sort()).toEqual(['inbound', 'inboundHosts', 'title', 'url']);
    expect(stats).not.toHaveProperty('pageRankIterations');
    const gen = await readCurrentGeneration(dir);
    gen.lists.close();
    expect(gen.docs).not.toHaveProperty('pageRank');
    expect(stats.bytesOnDisk).toBeGreaterThan(0);
  });
});

describe('edge cases', () => {
  it('a crawl with nothing indexable builds an empty index that answers every query with nothing', async () => {
    const dir = await dataDir();
    await writePages(dir, [{ url: `${S}/gone`, state: 'gone' }, { url: `${S}/secret`, title: 'x', text: 'secret', index: false }]);
    expect(await buildIndex(dir)).toMatchObject({ documents: 0, terms: 0 });
    const engine = await openSearchEngine(dir);
    try {
      expect(engine.search(query('secret'), { offset: 0, limit: 10 })).toMatchObject({ total: 0, hits: [] });
      expect(engine.search(query('site:site.test'), { offset: 0, limit: 10 }).total).toBe(0);
      expect(engine.suggest('se', 5)).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('searches a long page as far as extraction keeps its text (1,000,000 characters), and no further', async () => {
    // A reference page of every setting in one file (Postfix's postconf.5.html: 589,791 characters of
    // text) was searchable only to 500,000: its last hundred settings matched nothing.
    const filler = 'lorem ipsum dolor '.repeat(36_000); // 648,000 characters
    const text = `${filler}smtpdrestriction ${filler}overtheboundword`;
    const dir = await dataDir();
    await writePages(dir, [{ url: `${S}/long`, title: 'Parameters', text }]);
    await buildIndex(dir);
    expect(await urlsFor(dir, 'smtpdrestriction')).toEqual([`${S}/long`]);
    expect(await urlsFor(dir, 'overtheboundword')).toEqual([]);
  });
});
