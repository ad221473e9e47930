// A searcher that follows re-indexing: `gleaner index` while `gleaner serve` runs writes a new
// generation and points CURRENT at it; this wrapper notices (checking CURRENT at most every
// `checkIntervalMs` when asked something), loads the new generation in the background, and swaps it in
// when ready. Until then, and if loading fails (e.g. a newer format), the old one keeps answering.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_FILE, indexRoot } from '../../shared/index-format/index.js';
import type { GleanerSearchEngine, SearcherOptions } from './engine.js';

export interface LiveOptions {
  /** How often, at most, CURRENT is read. Default 2,000 ms. */
  checkIntervalMs: number;
  /** Called when a new generation was loaded, or failed to load. */
  onReload?: (outcome: { ok: true; generation: string } | { ok: false; error: unknown }) => void;
}

export const DEFAULT_LIVE_OPTIONS: Readonly<LiveOptions> = { checkIntervalMs: 2000 };

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

  const check = (): void => {
    const now = Date.now();
    if (loading || closed || now - lastCheck < live.checkIntervalMs) return;
    lastCheck = now;
    const name = currentName();
    if (name === '' || name === generation) return;
    loading = open(dataDir, searcher)
      .then((next) => {
        if (closed) { next.close(); return; }
        const old = engine;
        engine = next;
        generation = name;
        old.close();
        live.onReload?.({ ok: true, generation: name });
      })
      .catch((error: unknown) => {
        generation = name; // do not retry a generation that failed; the next one will be tried
        live.onReload?.({ ok: false, error });
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
