// Crawler traps (seed 003: "avoiding loops and dups"): the heuristics that refuse a URL before it is
// queued. The decision is the pure `checkTrap(url, depth, context, options)`; the counters it needs (pages
// per host, distinct URLs per shape) live in the small `TrapGuard` class, which the crawl loop feeds.
//
// The checks, in order, each with the reason the log line shows:
// - `url-too-long`: longer than maxUrlLength characters (seed 003: "usually 1KB"); loops that grow the URL
//   end here. The caller should log it (seed 003: so users can see what happened on a site).
// - `max-depth`: more link hops from a seed than maxDepth.
// - `repeated-segments` (seed 003's pattern detection: symlink loops, relative-link loops):
//   a path segment occurs more than maxSegmentRepeats times anywhere in the path (`/a/x/a/y/a`), or a
//   block of 2 or 3 segments repeats cycleRepeatsCut times in a row (`/a/b/a/b`, `/a/b/c/a/b/c`).
//   A single segment twice in a row is allowed: real sites have `/alloc/alloc/` (the Rust docs do).
// - `calendar` (seed 003's CGI calendar that always links to next month):
//   a date in the path or query (`/2031/07/`, `2031-07-01`, `20310701`, `?year=2031`, `?date=...`) whose
//   year is outside [now - yearsBack, now + yearsAhead]; or the URL's shape (host, path and query with
//   every digit run replaced by `#`) already has maxUrlsPerShape distinct URLs: a template whose numbers
//   keep producing new pages. A bare 4-digit segment without a month after it is not a date (`/rfc/1945`).
// - `host-page-limit`: the host already has maxPagesPerHost URLs admitted.
// These are lossy on purpose (seed 003: every trap heuristic may cut real content); every cut says why.
// Defaults: DEFAULT_TRAP_OPTIONS in options.ts.

import { DEFAULT_TRAP_OPTIONS } from './options.js';

export interface TrapOptions {
  maxUrlLength: number;
  maxDepth: number;
  maxPagesPerHost: number;
  /** A path segment may occur this many times; one more is a loop. */
  maxSegmentRepeats: number;
  /** A block of 2-3 segments repeated this many times in a row is a loop. */
  cycleRepeatsCut: number;
  /** Distinct URLs per shape (digits replaced) before the shape counts as an endless space. 0: no limit. */
  maxUrlsPerShape: number;
  /** Dates further back than this many years from now are calendar pages. */
  yearsBack: number;
  /** Dates further ahead than this many years from now are calendar pages. */
  yearsAhead: number;
}


export type TrapReason = 'url-too-long' | 'repeated-segments' | 'max-depth' | 'host-page-limit' | 'calendar';
export type TrapVerdict = { ok: true } | { ok: false; reason: TrapReason; detail: string };

/** What the decision needs to know about URLs seen before. */
export interface TrapContext {
  /** URLs already admitted for this URL's host. */
  hostPages: number;
  /** Distinct URLs already admitted with this URL's shape (`urlShape`), not counting this one. */
  shapeUrls: number;
  /** The current year, for the calendar window. */
  nowYear: number;
}

const OK: TrapVerdict = { ok: true };
const cut = (reason: TrapReason, detail: string): TrapVerdict => ({ ok: false, reason, detail });

/** Host, path and query with every run of digits replaced by `#`: URLs of one template share a shape. */
export function urlShape(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}${u.search}`.replace(/\d+/g, '#');
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
export function datesInUrl(url: string): number[] {
  const u = new URL(url);
  const years: number[] = [];
  const segments = pathSegments(u.pathname);
  segments.forEach((s, i) => {
    const next = segments[i + 1];
    if (/^\d{4}$/.test(s) && next !== undefined && /^(0?[1-9]|1[0-2])(\D.*)?$/.test(next)) years.push(Number(s));
  });
  const tokenSource = `${u.pathname} ${u.search}`;
  for (const m of tokenSource.matchAll(/(?<!\d)(\d{4})-(0[1-9]|1[0-2])(?:-\d{2})?(?!\d)/g)) years.push(Number(m[1]));
  for (const m of tokenSource.matchAll(/(?<!\d)(\d{4})(0[1-9]|1[0-2])([0-2]\d|3[01])(?!\d)/g)) years.push(Number(m[1]));
  for (const [key, value] of u.searchParams) {
    if (!DATE_QUERY_KEYS.test(key)) continue;
    const m = /^(\d{4})(?:\D|$)/.exec(value);
    if (m !== null) years.push(Number(m[1]));
  }
  return years;
}

/** Whether `url` at link depth `depth` should be refused as a trap. Pure. */
export function checkTrap(url: string, depth: number, context: TrapContext, options: Partial<TrapOptions> = {}): TrapVerdict {
  const o = { ...DEFAULT_TRAP_OPTIONS, ...options };
  if (url.length > o.maxUrlLength) return cut('url-too-long', `${url.length} characters, limit ${o.maxUrlLength}`);
  if (depth > o.maxDepth) return cut('max-depth', `depth ${depth}, limit ${o.maxDepth}`);
  const u = new URL(url);
  const loop = repeatedSegments(pathSegments(u.pathname), o.maxSegmentRepeats, o.cycleRepeatsCut);
  if (loop !== undefined) return cut('repeated-segments', loop);
  const from = context.nowYear - o.yearsBack;
  const to = context.nowYear + o.yearsAhead;
  const outside = datesInUrl(url).find((y) => y < from || y > to);
  if (outside !== undefined) return cut('calendar', `date in year ${outside}, outside ${from}-${to}`);
  if (o.maxUrlsPerShape > 0 && context.shapeUrls >= o.maxUrlsPerShape) {
    return cut('calendar', `${context.shapeUrls} URLs already of the shape ${urlShape(url)}, limit ${o.maxUrlsPerShape}`);
  }
  if (context.hostPages >= o.maxPagesPerHost) return cut('host-page-limit', `${context.hostPages} pages on ${u.hostname}, limit ${o.maxPagesPerHost}`);
  return OK;
}

/**
 * The counters checkTrap needs, per crawl, around the pure decision:
 * - `check(url, depth)` decides, and when the URL is accepted counts it for its shape (a Set, so a URL
 *   found on many pages counts once);
 * - `countPage(url)` counts a stored page for its host (the pages-per-host limit is about pages stored)
 *   and for its shape. In memory only: on resume, call countPage for every stored page to restore both.
 */
export class TrapGuard {
  readonly #options: TrapOptions;
  readonly #hostPages = new Map<string, number>();
  readonly #shapes = new Map<string, Set<string>>();
  readonly #nowYear: () => number;

  constructor(options: Partial<TrapOptions> = {}, nowYear: () => number = () => new Date().getUTCFullYear()) {
    this.#options = { ...DEFAULT_TRAP_OPTIONS, ...options };
    this.#nowYear = nowYear;
  }

  contextFor(url: string): TrapContext {
    const u = new URL(url);
    const shape = hasDigits(u) ? this.#shapes.get(urlShape(url)) : undefined;
    const seen = shape?.size ?? 0;
    return {
      hostPages: this.#hostPages.get(u.host) ?? 0,
      shapeUrls: shape?.has(url) === true ? seen - 1 : seen,
      nowYear: this.#nowYear(),
    };
  }

  check(url: string, depth: number): TrapVerdict {
    const verdict = checkTrap(url, depth, this.contextFor(url), this.#options);
    if (verdict.ok) this.#countShape(url);
    return verdict;
  }

  /** One more stored page for the URL's host (host and port), and the URL counted for its shape. */
  countPage(url: string): void {
    const host = new URL(url).host;
    this.#hostPages.set(host, (this.#hostPages.get(host) ?? 0) + 1);
    this.#countShape(url);
  }

  #countShape(url: string): void {
    if (!hasDigits(new URL(url))) return;
    const shape = urlShape(url);
    let set = this.#shapes.get(shape);
    if (set === undefined) this.#shapes.set(shape, (set = new Set()));
    // Past the limit every new URL of the shape is refused anyway; no need to remember more.
    if (set.size <= this.#options.maxUrlsPerShape) set.add(url);
  }
}

function hasDigits(u: URL): boolean {
  return /\d/.test(u.pathname) || /\d/.test(u.search);
}
