// `gleaner serve --recrawl-every DURATION`: keeps the served index fresh without a restart. Every
// DURATION after the last round ended, the stored sites are crawled again from the crawl's own seeds,
// under its own settings (crawler/crawl-settings.ts), with conditional GET (`recrawl`: a 304 keeps the
// stored page), the index is rebuilt (by `gleaner index` in a process of its own: bin/index-child.ts),
// and the gateway (web/search/live.ts) swaps the new generation in while it serves. Rounds never
// overlap; Ctrl-C aborts a round under way (its requests stay queued for the next). Orchestration only,
// at the CLI's edge: the web gateway never imports the crawler or the indexer.

import { crawl, resolveCrawlOptions, storedCrawlSettings, type CrawlOptions, type CrawlSettings, type CrawlSummary } from '../crawler/index.js';
import { indexInChild } from './index-child.js';
import { openStore } from '../shared/store/index.js';

export interface RecrawlLoopOptions {
  dataDir: string;
  /** Wait between the end of one round and the start of the next. */
  everyMs: number;
  /** Crawl settings for the rounds over the ones the crawl ran with (e.g. `delayMs`: serve --recrawl-delay). */
  crawl?: Partial<CrawlOptions>;
  log: (message: string) => void;
}

export interface RecrawlLoop {
  /** Rounds finished so far. */
  readonly rounds: number;
  /** Stops the loop, aborting a round under way, and waits for it. */
  stop(): Promise<void>;
}

/** One line about a finished round: what came back and what the index holds now. */
export function describeRound(summary: CrawlSummary, documents: number, seconds: number): string {
  const run = summary.thisRun;
  const unchanged = run.pagesByStatus['304'] ?? 0;
  const changed = run.pages - unchanged - run.kept;
  const kept = run.kept > 0 ? `, ${run.kept} kept as they were (their server failed for now)` : '';
  return `recrawl: ${run.pages} pages asked again in ${seconds.toFixed(1)} s, ${unchanged} unchanged (304), ${changed} fetched anew${kept}; index rebuilt (${documents} documents), now served`;
}

export function startRecrawlLoop(o: RecrawlLoopOptions): RecrawlLoop {
  let rounds = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let controller: AbortController | undefined;
  let running: Promise<void> = Promise.resolve();
  let warnedNoSettings = false;

  const round = async (): Promise<void> => {
    const started = performance.now();
    // Made before the first await: a stop while the store is read aborts this round, not the last one.
    const aborter = new AbortController();
    controller = aborter;
    const store = await openStore(o.dataDir, { mustExist: true });
    let seeds: string[];
    let settings: CrawlSettings | undefined;
    try {
      seeds = (await store.getCrawlStats())?.seeds ?? [];
      settings = await storedCrawlSettings(store);
    } finally {
      await store.close();
    }
    if (seeds.length === 0) {
      o.log('recrawl: the data dir records no seeds (no crawl has run here); nothing to crawl again');
      return;
    }
    if (settings === undefined && !warnedNoSettings) {
      warnedNoSettings = true;
      o.log('recrawl: the data dir records no crawl settings (crawled by an older Gleaner); rounds use the crawl defaults until `gleaner crawl` runs here again');
    }
    if (aborter.signal.aborted) return;
    // The crawl's own settings (scope, include and exclude, limits, agent), serve's flags over them.
    const summary = await crawl(resolveCrawlOptions({ ...settings, ...o.crawl, dataDir: o.dataDir, seeds, recrawl: true }), { signal: aborter.signal });
    if (summary.stoppedBecause === 'aborted') return;
    // In a process of its own: its heap sized to the machine, and serve answering meanwhile.
    const built = await indexInChild(o.dataDir, { signal: aborter.signal }).catch((e: unknown) => {
      if (aborter.signal.aborted) return undefined;
      throw e;
    });
    if (built === undefined) return;
    rounds++;
    o.log(describeRound(summary, built.documents, (performance.now() - started) / 1000));
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        // A failed round (a full disk, a store another process holds) is said, and the next one tried.
        .catch((e: unknown) => o.log(`recrawl failed: ${e instanceof Error ? e.message : String(e)}; trying again in ${Math.round(o.everyMs / 1000)} s`))
        .finally(schedule);
    }, o.everyMs);
  };
  schedule();

  return {
    get rounds() {
      return rounds;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      await running;
    },
  };
}
