// Crawler traps (seed 003: "avoiding loops and dups"): the heuristics that refuse a URL before it is
// queued. The decision is the pure `checkTrap(url, depth, context, options)`; the counters it needs (pages
// per host, URLs, pages and repeats per shape) live in the small `TrapGuard` class, which the crawl loop feeds.
//
// A URL's *shape* is its host, then its path and query with every digit run replaced by `#` and every id-like token
// (12+ letters and digits mixed, as session ids are) by `*`: URLs of one template share it.
// What tells a trap from a large listing (issue 12): a listing is many URLs of one shape found on pages of
// OTHER shapes (index pages) at about the same depth; a trap is self-similar, a page of shape S linking a
// new URL of shape S one hop deeper, again and again (next-day, next-month, next-page, session-id paths),
// or a shape whose pages keep repeating content already stored.
//
// The checks, in order, each with the reason the log line and the summary show:
// - `url-too-long`: longer than maxUrlLength characters (seed 003: "usually 1KB"); loops that grow the URL
//   end here.
// - `max-depth`: more link hops from a seed than maxDepth.
// - `repeated-segments` (seed 003's pattern detection: symlink loops, relative-link loops):
//   a path segment occurs more than maxSegmentRepeats times anywhere in the path (`/a/x/a/y/a`), or a
//   block of 2 or 3 segments repeats cycleRepeatsCut times in a row (`/a/b/a/b`, `/a/b/c/a/b/c`).
//   A single segment twice in a row is allowed: real sites have `/alloc/alloc/` (the Rust docs do).
// - `calendar` (seed 003's CGI calendar that always links to next month): a date in the path or query
//   (`/2031/07/`, `2031-07-01`, `20310701`, `?year=2031`, `?date=...`) whose year is outside
//   [now - yearsBack, now + yearsAhead]. A bare 4-digit segment without a month after it is not a date.
// - `shape-chain`: the URL was reached by more than maxShapeChain same-shape hops in a row (each page of
//   the chain found on the one before, of the same shape): an endless next-link. A listing of 2,000 items
//   linked from its index pages has a chain of 0 for every item, however many there are.
// - `repeated-content`: the shape already has maxRepeatsPerShape stored pages that were duplicates of
//   content stored before, and they are more than half of its stored pages (soft-404s, "no events" pages).
// - `shape-limit`: the shape already has maxUrlsPerShape distinct URLs. A last resort against what the
//   rules above miss; large on purpose, so a big numbered listing is never cut by it.
// - `host-page-limit`: the host already has maxPagesPerHost URLs admitted (queued or stored), so a link
//   farm of random names that no rule above sees fills neither the queue nor memory.
// These are lossy on purpose (seed 003: every trap heuristic may cut real content); every cut says why.
// Every limit is a CrawlOptions field (flags and --config); defaults: DEFAULT_TRAP_OPTIONS below, which
// options.ts spreads into DEFAULT_CRAWL_OPTIONS.

export interface TrapOptions {
  maxUrlLength: number;
  maxDepth: number;
  maxPagesPerHost: number;
  /** A path segment may occur this many times; one more is a loop. */
  maxSegmentRepeats: number;
  /** A block of 2-3 segments repeated this many times in a row is a loop. */
  cycleRepeatsCut: number;
  /** Same-shape hops in a row (a page linking the next URL of its own shape) before the chain is a trap. 0: no limit. */
  maxShapeChain: number;
  /** Stored duplicates among a shape's pages before the shape counts as repeating content. 0: no limit. */
  maxRepeatsPerShape: number;
  /** Distinct URLs per shape, a last resort against what the other rules miss. 0: no limit. */
  maxUrlsPerShape: number;
  /** Dates further back than this many years from now are calendar pages. */
  yearsBack: number;
  /** Dates further ahead than this many years from now are calendar pages. */
  yearsAhead: number;
}

/** A next-link chain is cut after 50 same-shape hops (with the default maxDepth of 20, max-depth ends it
 * first; the chain rule is what cuts when maxDepth is raised); 100,000 URLs of one shape is only a last
 * resort, so a numbered listing of any size an intranet has is kept whole. */
export const DEFAULT_TRAP_OPTIONS: TrapOptions = {
  maxUrlLength: 1_024,
  maxDepth: 20,
  maxPagesPerHost: 100_000,
  maxSegmentRepeats: 2,
  cycleRepeatsCut: 2,
  maxShapeChain: 50,
  maxRepeatsPerShape: 20,
  maxUrlsPerShape: 100_000,
  yearsBack: 30,
  yearsAhead: 2,
};

export type TrapReason =
  | 'url-too-long'
  | 'repeated-segments'
  | 'max-depth'
  | 'host-page-limit'
  | 'calendar'
  | 'shape-chain'
  | 'repeated-content'
  | 'shape-limit'
  /** A queued URL whose form without a parameter learned to change nothing (noop-params.ts) is known. */
  | 'no-op-param';
export type TrapVerdict = { ok: true } | { ok: false; reason: TrapReason; detail: string };

/** What the decision needs to know about URLs seen before. */
export interface TrapContext {
  /** URLs already admitted for this URL's host. */
  hostPages: number;
  /** Distinct URLs already admitted with this URL's shape (`urlShape`), not counting this one. */
  shapeUrls: number;
  /** Same-shape hops in a row that lead to this URL (`shapeChain`): 0 when found on a page of another shape. */
  shapeChain: number;
  /** Stored pages of this URL's shape, and how many of them were duplicates of content stored before. */
  shapePages: number;
  shapeDuplicates: number;
  /** The current year, for the calendar window. */
  nowYear: number;
}

const OK: TrapVerdict = { ok: true };
const cut = (reason: TrapReason, detail: string): TrapVerdict => ({ ok: false, reason, detail });

/** Whole tokens of 12+ letters and digits mixed: session ids, hashes. Not slugs: `-` and `_` split tokens,
 * so `how-to-use-python-3` keeps its words (and its `3` becomes `#`). */
const ID_TOKEN = /(?<![A-Za-z0-9])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{12,}(?![A-Za-z0-9])/g;

/** Host, then path and query with id-like tokens replaced by `*` and every run of digits by `#`: URLs of
 * one template on one host share a shape. */
export function urlShape(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return u.host + `${u.pathname}${u.search}`.replace(ID_TOKEN, '*').replace(/\d+/g, '#');
}

/** The URL's shape when it has a variable part (digits or an id-like token), else undefined: a URL
 * without one is a single page, not a template. */
export function variableShape(url: string | URL): string | undefined {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!/\d/.test(u.pathname) && !/\d/.test(u.search)) return undefined;
  return urlShape(u);
}

/**
 * Same-shape hops in a row that lead to `url` when it is found on `referrer` (whose own chain is
 * `referrerChain`): one more than the referrer's when both have the same variable shape, else 0.
 */
export function shapeChain(url: string, referrer: string | undefined, referrerChain: number): number {
  if (referrer === undefined) return 0;
  return chainFromShape(url, variableShape(referrer), referrerChain);
}

/** shapeChain with the referrer's variableShape computed once, for the many links of one page. */
export function chainFromShape(url: string, referrerShape: string | undefined, referrerChain: number): number {
  if (referrerShape === undefined) return 0;
  return variableShape(url) === referrerShape ? referrerChain + 1 : 0;
}

function pathSegments(pathname: string): string[] {
  return pathname.split('/').filter((s) => s !== '');
}

/** Why the path looks like a loop, or undefined. */
export function repeatedSegments(segments: readonly string[], maxSegmentRepeats: number, cycleRepeatsCut: number): string | undefined {
  const counts = new Map<string, number>();
  for (const s of segments) {
    const n = (counts.get(s) ?? 0) + 1;
    if (n > maxSegmentRepeats) return `segment '${s}' occurs ${n} times`;
    counts.set(s, n);
  }
  for (const period of [2, 3]) {
    for (let start = 0; start + period * cycleRepeatsCut <= segments.length; start++) {
      let reps = 1;
      while (reps < cycleRepeatsCut && sameBlock(segments, start, start + reps * period, period)) reps++;
      if (reps >= cycleRepeatsCut) return `'${segments.slice(start, start + period).join('/')}' repeats ${reps} times in a row`;
    }
  }
  return undefined;
}

function sameBlock(segments: readonly string[], a: number, b: number, length: number): boolean {
  if (b + length > segments.length) return false;
  for (let i = 0; i < length; i++) if (segments[a + i] !== segments[b + i]) return false;
  return true;
}

const DATE_QUERY_KEYS = /^(year|yr|y|date|day|month|mon|cal|calendar|d|m|from|to|start|end|week)$/i;

/** Years of the dates the URL carries (path dates followed by a month, date tokens, date-ish query values). */
export function datesInUrl(url: string | URL): number[] {
  const u = typeof url === 'string' ? new URL(url) : url;
  const years: number[] = [];
  const segments = pathSegments(u.pathname);
  segments.forEach((s, i) => {
    const next = segments[i + 1];
    if (/^\d{4}$/.test(s) && next !== undefined && /^(0?[1-9]|1[0-2])(\D.*)?$/.test(next)) years.push(Number(s));
  });
  const tokenSource = `${u.pathname} ${u.search}`;
  for (const m of tokenSource.matchAll(/(?<!\d)(\d{4})-(0[1-9]|1[0-2])(?:-\d{2})?(?!\d)/g)) years.push(Number(m[1]));
  // Eight digits run together are a date only with a year of 1900-2199: `/item/47220317/` is an id,
  // and a calendar that counts months reaches the window's edge long before 2200.
  for (const m of tokenSource.matchAll(/(?<!\d)((?:19|20|21)\d{2})(0[1-9]|1[0-2])([0-2]\d|3[01])(?!\d)/g)) years.push(Number(m[1]));
  for (const [key, value] of u.searchParams) {
    if (!DATE_QUERY_KEYS.test(key)) continue;
    const m = /^(\d{4})(?:\D|$)/.exec(value);
    if (m !== null) years.push(Number(m[1]));
  }
  return years;
}

/** Characters of a URL cut as a trap that logs and the summary show: a page may hold links of any length. */
const SHOWN_URL_CHARS = 200;

/** `url` as logs and the summary show a URL cut as a trap: at most SHOWN_URL_CHARS, then its length. A
 * hostile page of 200 KB links otherwise wrote 200 KB per log line and into the crawl's status. */
export function shownTrapUrl(url: string): string {
  return url.length <= SHOWN_URL_CHARS ? url : `${url.slice(0, SHOWN_URL_CHARS)}… (${url.length} characters)`;
}

/** Whether `url` at link depth `depth` should be refused as a trap. Pure. */
export function checkTrap(url: string, depth: number, context: TrapContext, options: Partial<TrapOptions> = {}): TrapVerdict {
  return decideTrap(url, depth, context, { ...DEFAULT_TRAP_OPTIONS, ...options });
}

/** checkTrap with every option given: the crawl's guard calls this once per new URL, so the options are
 * merged once, in its constructor (a merge per call was most of a crawl loop's trap time). */
function decideTrap(url: string, depth: number, context: TrapContext, o: TrapOptions, u = new URL(url)): TrapVerdict {
  if (url.length > o.maxUrlLength) return cut('url-too-long', `${url.length} characters, limit ${o.maxUrlLength}`);
  if (depth > o.maxDepth) return cut('max-depth', `depth ${depth}, limit ${o.maxDepth}`);
  const loop = repeatedSegments(pathSegments(u.pathname), o.maxSegmentRepeats, o.cycleRepeatsCut);
  if (loop !== undefined) return cut('repeated-segments', loop);
  const from = context.nowYear - o.yearsBack;
  const to = context.nowYear + o.yearsAhead;
  const outside = datesInUrl(u).find((y) => y < from || y > to);
  if (outside !== undefined) return cut('calendar', `date in year ${outside}, outside ${from}-${to}`);
  if (o.maxShapeChain > 0 && context.shapeChain > o.maxShapeChain) {
    return cut('shape-chain', `${context.shapeChain} same-shape hops in a row to ${urlShape(u)}, limit ${o.maxShapeChain}`);
  }
  const repeats = checkRepeats(url, context, o);
  if (!repeats.ok) return repeats;
  if (o.maxUrlsPerShape > 0 && context.shapeUrls >= o.maxUrlsPerShape) {
    return cut('shape-limit', `${context.shapeUrls} URLs already of the shape ${urlShape(u)}, limit ${o.maxUrlsPerShape}`);
  }
  if (context.hostPages >= o.maxPagesPerHost) return cut('host-page-limit', `${context.hostPages} URLs queued or stored on ${u.host}, limit ${o.maxPagesPerHost}`);
  return OK;
}

/**
 * The repeated-content rule alone. Pure. A shape's URLs are often all found (one breadth-first level)
 * before any of its pages is stored, so the crawl loop asks this again just before fetching a queued URL.
 */
export function checkRepeats(url: string, context: Pick<TrapContext, 'shapePages' | 'shapeDuplicates'>, options: Pick<TrapOptions, 'maxRepeatsPerShape'>): TrapVerdict {
  const { shapePages, shapeDuplicates } = context;
  const limit = options.maxRepeatsPerShape;
  if (limit > 0 && shapeDuplicates >= limit && shapeDuplicates * 2 > shapePages) {
    return cut('repeated-content', `${shapeDuplicates} of ${shapePages} stored pages of the shape ${urlShape(url)} repeat earlier content, limit ${limit}`);
  }
  return OK;
}

interface ShapeCounts {
  /** Distinct URLs admitted or stored, up to the maxUrlsPerShape limit (past it all are refused anyway). */
  urls: Set<string>;
  pages: number;
  duplicates: number;
}

/**
 * The counters checkTrap needs, per crawl, around the pure decision:
 * - `check(url, depth, chain)` decides, and when the URL is accepted counts it for its shape (a Set, so a
 *   URL found on many pages counts once); `chain` is the URL's `shapeChain`, which the frontier entry
 *   carries so that a resumed crawl knows it;
 * - `countPage(url, duplicate)` counts a stored page for its host (the pages-per-host limit is about pages
 *   stored) and for its shape, with whether it repeated stored content;
 * - `countQueued(url)` counts a URL queued by an earlier run for its shape.
 * In memory only: on resume, call countPage for every stored page and countQueued for every queued URL.
 */
export class TrapGuard {
  readonly #options: TrapOptions;
  /** URLs admitted or stored per host (host and port): a host's queue cannot outgrow maxPagesPerHost. */
  readonly #hostUrls = new Map<string, number>();
  readonly #shapes = new Map<string, ShapeCounts>();
  readonly #nowYear: () => number;

  constructor(options: Partial<TrapOptions> = {}, nowYear: () => number = () => new Date().getUTCFullYear()) {
    this.#options = { ...DEFAULT_TRAP_OPTIONS, ...options };
    this.#nowYear = nowYear;
  }

  contextFor(url: string, chain = 0): TrapContext {
    return this.#context(url, new URL(url), chain).context;
  }

  /** The context, and the counts of the URL's shape (undefined when it has none or none is counted yet). */
  #context(url: string, u: URL, chain: number): { context: TrapContext; shapeKey: string | undefined } {
    const shapeKey = variableShape(u);
    const shape = shapeKey === undefined ? undefined : this.#shapes.get(shapeKey);
    const seen = shape?.urls.size ?? 0;
    const context = {
      hostPages: this.#hostUrls.get(u.host) ?? 0,
      shapeUrls: shape?.urls.has(url) === true ? seen - 1 : seen,
      shapeChain: chain,
      shapePages: shape?.pages ?? 0,
      shapeDuplicates: shape?.duplicates ?? 0,
      nowYear: this.#nowYear(),
    };
    return { context, shapeKey };
  }

  check(url: string, depth: number, chain = 0): TrapVerdict {
    const u = new URL(url);
    const { context, shapeKey } = this.#context(url, u, chain);
    const verdict = decideTrap(url, depth, context, this.#options, u);
    if (!verdict.ok) return verdict;
    this.#countHost(u.host);
    if (shapeKey !== undefined) this.#addUrl(this.#counts(shapeKey), url);
    return verdict;
  }

  /** A queued URL about to be fetched: has its shape started repeating content since it was queued? */
  recheck(url: string): TrapVerdict {
    return checkRepeats(url, this.contextFor(url), this.#options);
  }

  /** One more stored page for its shape, and for its host (host and port) unless `check` admitted it in
   * this run (and counted it then). */
  countPage(url: string, duplicate = false, admittedThisRun = false): void {
    if (!admittedThisRun) this.#countHost(new URL(url).host);
    const shape = this.#shape(url);
    if (shape === undefined) return;
    this.#addUrl(shape, url);
    shape.pages++;
    if (duplicate) shape.duplicates++;
  }

  /** A URL queued (by check, or by an earlier run): counted for its shape. */
  countQueued(url: string): void {
    this.#countHost(new URL(url).host);
    const shape = this.#shape(url);
    if (shape !== undefined) this.#addUrl(shape, url);
  }

  /** The counts of the URL's shape (made on first use), or undefined when it has no variable part. */
  #shape(url: string): ShapeCounts | undefined {
    const key = variableShape(url);
    return key === undefined ? undefined : this.#counts(key);
  }

  #countHost(host: string): void {
    this.#hostUrls.set(host, (this.#hostUrls.get(host) ?? 0) + 1);
  }

  #counts(key: string): ShapeCounts {
    let counts = this.#shapes.get(key);
    if (counts === undefined) this.#shapes.set(key, (counts = { urls: new Set(), pages: 0, duplicates: 0 }));
    return counts;
  }

  #addUrl(shape: ShapeCounts, url: string): void {
    // Past the limit every new URL of the shape is refused anyway; no need to remember more.
    const limit = this.#options.maxUrlsPerShape;
    if (limit === 0 || shape.urls.size <= limit) shape.urls.add(url);
  }
}
