// A searcher that follows re-indexing: `gleaner index` while `gleaner serve` runs writes a new
// generation and points CURRENT at it; this wrapper notices (checking CURRENT at most every
// `checkIntervalMs` when asked something), loads the new generation in the background, and swaps it in
// when ready. Until then, and if loading fails (e.g. a newer format), the old one keeps answering; a
// generation that failed is tried again, less and less often: a copy or rsync can name a generation in
// CURRENT before its folder is whole.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_FILE, indexRoot } from '../../shared/index-format/index.js';
import { doublingMs } from '../../shared/timers.js';
import type { GleanerSearchEngine, SearcherOptions } from './engine.js';

export interface LiveOptions {
  /** How often, at most, CURRENT is read. Default 2,000 ms. */
  checkIntervalMs: number;
  /** After a generation fails to load, the wait before trying it again; doubled at each failure of the
   * same generation. Default 2,000 ms. */
  retryMinMs: number;
  /** The longest wait between tries of a generation that keeps failing. Default 60,000 ms. */
  retryMaxMs: number;
  /** Called when a new generation was loaded, or failed to load (and is tried again in `retryInMs`). */
  onReload?: (outcome: { ok: true; generation: string } | { ok: false; generation: string; error: unknown; retryInMs: number }) => void;
}

export const DEFAULT_LIVE_OPTIONS: Readonly<LiveOptions> = { checkIntervalMs: 2000, retryMinMs: 2000, retryMaxMs: 60_000 };

type Open = (dataDir: string, options?: Partial<SearcherOptions>) => Promise<GleanerSearchEngine>;

export async function openLive(open: Open, dataDir: string, searcher: Partial<SearcherOptions>, live: LiveOptions): Promise<GleanerSearchEngine> {
  const currentName = () => {
    try {
      return readFileSync(join(indexRoot(dataDir), CURRENT_FILE), 'utf8').trim();
    } catch {
      return '';
    }
  };
  let generation = currentName();
  let engine = await open(dataDir, searcher);
  let lastCheck = Date.now();
  let loading: Promise<void> | undefined;
  let closed = false;
  /** The generation that failed last, how often in a row, and when it may be tried again. */
  let failed: { name: string; attempts: number; retryAt: number } | undefined;

  const check = (): void => {
    const now = Date.now();
    if (loading || closed || now - lastCheck < live.checkIntervalMs) return;
    lastCheck = now;
    const name = currentName();
    if (name === '' || name === generation) return;
    if (failed?.name === name && now < failed.retryAt) return;
    loading = open(dataDir, searcher)
      .then((next) => {
        if (closed) { next.close(); return; }
        const old = engine;
        engine = next;
        generation = name;
        failed = undefined;
        old.close();
        live.onReload?.({ ok: true, generation: name });
      })
      .catch((error: unknown) => {
        const attempts = failed?.name === name ? failed.attempts + 1 : 1;
        const retryInMs = doublingMs(attempts, live.retryMinMs, live.retryMaxMs);
        failed = { name, attempts, retryAt: Date.now() + retryInMs };
        live.onReload?.({ ok: false, generation: name, error, retryInMs });
      })
      .finally(() => {
        loading = undefined;
      });
  };

  return {
    search(query, options) {
      check();
      return engine.search(query, options);
    },
    suggest(prefix, limit, context) {
      check();
      return engine.suggest(prefix, limit, context);
    },
    summary() {
      check();
      return engine.summary();
    },
    stats() {
      check();
      return engine.stats();
    },
    rankedUrls(query, limit) {
      check();
      return engine.rankedUrls(query, limit);
    },
    trace(url) {
      check();
      return engine.trace(url);
    },
    pagesAsResults(urls, query) {
      check();
      return engine.pagesAsResults(urls, query);
    },
    suggestPages(text, limit) {
      check();
      return engine.suggestPages(text, limit);
    },
    pagesReady() {
      check();
      return engine.pagesReady();
    },
    preload(maxMiB, minDocFreq) {
      return engine.preload(maxMiB, minDocFreq);
    },
    close() {
      closed = true;
      engine.close();
    },
  };
}
