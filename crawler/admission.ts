// Which discovered URLs go into the frontier: in scope (scope.ts), not a trap (traps.ts), and judged once
// per crawl. A page links to the same navigation URLs as its neighbours, so each URL is judged at its
// first sighting only; breadth-first order makes that (nearly always) the shallowest, so depth limits stay
// right. A resumed crawl marks judged what earlier runs queued or refused (the store keeps both), so a
// cut or an out-of-scope URL is counted once per crawl. No I/O: the loop writes what this decides.

import type { FrontierEntry } from '../shared/store/index.js';
import type { CrawlCounters } from './crawl-stats.js';
import type { Logger } from '../shared/log.js';
import { queryOrderKey } from '../shared/url.js';
import { chainFromShape, shownTrapUrl, variableShape, type TrapGuard, type TrapReason, type TrapVerdict } from './traps.js';

/** Bound on the per-run cache of judged URLs (~100 bytes each); past it the cache starts again. */
const JUDGED_CACHE_LIMIT = 1_000_000;
/** Cut URLs logged one by one per rule; past it they are counted only (the summary has each rule's total
 * and an example). A link farm cut 8 million URLs in 5 minutes: 1.8 GB of log lines. */
const LOGGED_CUTS_PER_RULE = 100;

export class Admission {
  /** Judged URLs, by queryOrderKey: a query in another parameter order is the URL judged before (a faceted
   * listing linked in every order is asked once, as first linked). */
  readonly #judged = new Set<string>();
  readonly #loggedCuts = new Map<string, number>();

  constructor(
    private readonly inScope: (url: string) => boolean,
    private readonly traps: TrapGuard,
    private readonly counts: CrawlCounters,
    private readonly log: Logger,
    /** Rewrites a found URL before it is judged: drops the parameters learned to change nothing (noop-params.ts). */
    private readonly strip: (url: string) => string = (url) => url,
  ) {}

  /** Whether the URL (or another parameter order of it) was judged already. */
  judged(url: string): boolean {
    return this.#judged.has(queryOrderKey(url));
  }

  /** Marks the URL judged; false when it was already. */
  judge(url: string): boolean {
    const key = queryOrderKey(url);
    if (this.#judged.has(key)) return false;
    if (this.#judged.size >= JUDGED_CACHE_LIMIT) this.#judged.clear();
    this.#judged.add(key);
    return true;
  }

  /** In scope and not a trap: may this URL be queued at this depth, `chain` same-shape hops from a page of
   * another shape? Counts what it refuses; false without counting for a URL judged before. */
  admissible(url: string, depth: number, chain: number | (() => number)): boolean {
    return this.#verdict(url, depth, chain) === 'queue';
  }

  /** admissible's answer, saying why not: judged before, out of scope, or the trap rule that cut it. */
  #verdict(url: string, depth: number, chain: number | (() => number)): 'queue' | 'judged' | 'out-of-scope' | TrapReason {
    if (!this.judge(url)) return 'judged';
    if (!this.inScope(url)) {
      this.counts.outOfScope();
      return 'out-of-scope';
    }
    const trap = this.traps.check(url, depth, typeof chain === 'number' ? chain : chain());
    if (!trap.ok) {
      this.cut(url, trap);
      return trap.reason;
    }
    return 'queue';
  }

  cut(url: string, trap: Extract<TrapVerdict, { ok: false }>): void {
    this.counts.cut(url, trap);
    const logged = this.#loggedCuts.get(trap.reason) ?? 0;
    if (logged > LOGGED_CUTS_PER_RULE) return;
    this.#loggedCuts.set(trap.reason, logged + 1);
    if (logged < LOGGED_CUTS_PER_RULE) this.log('info', 'URL cut as a trap', { url: shownTrapUrl(url), reason: trap.reason, detail: trap.detail });
    else this.log('info', `more URLs cut as ${trap.reason}: counted, not logged (the summary has the total)`, { reason: trap.reason });
  }

  /** The URLs found on `from`'s page that may be queued, each with its same-shape chain, and those judged
   * here and refused (for the store to remember with the page). A URL cut because its host is full is
   * not remembered: a resumed crawl cuts it again the same way, and a link farm cut 9.9 million URLs
   * in 1,000 pages, 436 MB of the store. */
  queueable(follow: readonly FrontierEntry[], from: Pick<FrontierEntry, 'url' | 'shapeChain'>): { queue: FrontierEntry[]; refused: string[] } {
    const queue: FrontierEntry[] = [];
    const refused: string[] = [];
    const fromShape = variableShape(from.url);
    for (const found of follow) {
      const stripped = this.strip(found.url);
      const e = stripped === found.url ? found : { ...found, url: stripped };
      if (this.#judged.has(queryOrderKey(e.url))) continue;
      // Worked out only for URLs in scope (most links of a site's pages are not).
      let chain = 0;
      const chainOf = (): number => (chain = chainFromShape(e.url, fromShape, from.shapeChain ?? 0));
      const verdict = this.#verdict(e.url, e.depth, chainOf);
      if (verdict === 'queue') queue.push(chain > 0 ? { ...e, shapeChain: chain } : e);
      else if (verdict !== 'host-page-limit') refused.push(e.url);
    }
    return { queue, refused };
  }
}
