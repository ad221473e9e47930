// A real data dir for gateway tests and benches: pages written to a real LevelDB store the way the
// crawler writes them (commitFetch), then indexed by the real indexer. Nothing is mocked.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { buildIndex } from '../../indexer/index.js';
import { openStore } from '../../shared/store.js';
import type { CrawlStats, PageRecord } from '../../shared/types.js';

export interface FixturePage {
  url: string;
  title: string;
  text: string;
  /** Absolute URLs this page links to. */
  links?: string[];
  language?: string;
  headings?: string[];
  /** META robots noindex. */
  noindex?: boolean;
}

export function pageRecord(p: FixturePage, fetchedAt = new Date().toISOString()): PageRecord {
  return {
    url: p.url,
    finalUrl: p.url,
    state: 'ok',
    status: 200,
    fetchedAt,
    contentType: 'text/html',
    title: p.title,
    description: '',
    headings: p.headings ?? [],
    text: p.text,
    language: p.language ?? 'en',
    links: (p.links ?? []).map((url) => ({ url, text: '', rel: [], kind: 'a' as const })),
    contentHash: createHash('sha1').update(p.text).digest('hex'),
    robots: { index: !p.noindex, follow: true },
    truncated: false,
    depth: 0,
  };
}

export interface FixtureDir {
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Writes `pages` (and optional crawl counters) into a fresh temp data dir and builds its index. */
export async function buildFixtureIndex(pages: readonly FixturePage[], crawl?: CrawlStats): Promise<FixtureDir> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gleaner-web-'));
  const store = await openStore(dataDir);
  try {
    for (const page of pages) await store.commitFetch(undefined, pageRecord(page), []);
    if (crawl) await store.putCrawlStats(crawl);
  } finally {
    await store.close();
  }
  await buildIndex(dataDir, { full: true });
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}
