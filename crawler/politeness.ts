// How long to wait before the next request to a host, and whether to ask for a URL again after a failure.
// Pure rules; the crawl loop (crawl.ts) applies them and hands the frontier the delay to keep.
// "Host" here is the origin (scheme, host, port), the unit robots.txt applies to.

import { httpDateMs, httpProtocolError, isUndecodableBody } from '../shared/http/index.js';
import { doublingMs } from '../shared/timers.js';
import { headerValue, type FetchOutcome } from './fetch.js';

/** The pause between two requests to one host: our delay, or the robots Crawl-delay when larger, capped. */
export function effectiveDelayMs(delayMs: number, crawlDelaySeconds: number | null, maxCrawlDelayMs: number): { delayMs: number; capped: boolean } {
  if (crawlDelaySeconds === null || !Number.isFinite(crawlDelaySeconds) || crawlDelaySeconds <= 0) return { delayMs, capped: false };
  const asked = crawlDelaySeconds * 1000;
  if (asked > maxCrawlDelayMs) return { delayMs: Math.max(delayMs, maxCrawlDelayMs), capped: true };
  return { delayMs: Math.max(delayMs, asked), capped: false };
}

/** Which setting a host's pause comes from: robots.txt's Crawl-delay (when longer), the site's own delay
 * (config file `sites`), or the crawl's delay. Progress names it so that its advice names the knob. */
export type DelaySource = 'crawl-delay' | 'site-delay' | 'delay';

export function delaySource(hostDelayMs: number, crawlDelayMs: number, siteDelayMs: number | undefined): DelaySource {
  if (hostDelayMs > (siteDelayMs ?? crawlDelayMs)) return 'crawl-delay';
  return siteDelayMs === undefined ? 'delay' : 'site-delay';
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Read strictly (http-date.ts): a 429 whose Retry-After said "-5" was read as May 2001 and asked again at once.
  const at = httpDateMs(trimmed);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/** What a failed request looked like, as much as the retry rule needs. */
export type RequestFailure = { kind: 'network-error' } | { kind: 'status'; status: number; retryAfter?: string };

/** 429 (too many requests), any 5xx and no answer at all: the server may be fine later, so ask again.
 * A code outside HTTP's classes (RFC 9110 15: three digits, 1xx-5xx) is no "try later": LinkedIn's 999
 * says "denied", and asking it four more times is what it denies. */
export function isTransient<T extends { kind: string; status?: number }>(failure: T): failure is Extract<T, { kind: 'network-error' | 'status' }> {
  if (failure.kind === 'network-error') return true;
  return failure.kind === 'status' && failure.status !== undefined && (failure.status === 429 || (failure.status >= 500 && failure.status <= 599));
}

/** The outcome as a transient failure, with the Retry-After the server sent; undefined when it is an answer
 * (or a failure that would come back the same). */
export function transientFailure(outcome: FetchOutcome): RequestFailure | undefined {
  if (!isTransient(outcome)) return undefined;
  if (outcome.kind === 'network-error') {
    // A response that breaks HTTP/1.1, or a body that is not the coding it says, comes back the same on
    // every try: an error page at once.
    return httpProtocolError(outcome.error) === undefined && !isUndecodableBody(outcome.error) ? { kind: 'network-error' } : undefined;
  }
  return { kind: 'status', status: outcome.status, retryAfter: headerValue(outcome.headers, 'retry-after') };
}

export interface RetryOptions {
  /** Tries after the first before the URL is stored as an error. */
  maxRetries: number;
  backoffMs: number;
  maxBackoffMs: number;
}

/**
 * After the `attempt`-th transient failure of one URL (1 for the first): try again after `waitMs` (the
 * server's Retry-After when it gave one, else the backoff; never above maxBackoffMs), or give up (the URL
 * is stored as an error). Whether the host waits `waitMs` too is holdsHost's to say. Pure.
 */
export function retryStep(attempt: number, failure: RequestFailure, now: number, options: RetryOptions): { retry: boolean; waitMs: number } {
  const backoff = doublingMs(attempt, options.backoffMs, options.maxBackoffMs);
  if (attempt > options.maxRetries) return { retry: false, waitMs: backoff };
  const asked = failure.kind === 'status' ? retryAfterMs(failure.retryAfter, now) : undefined;
  return { retry: true, waitMs: Math.min(asked ?? backoff, options.maxBackoffMs) };
}

/**
 * Whether a transient failure makes the whole host wait the retry's backoff, or only the URL go back to
 * its queue while the host keeps its usual delay. A server in trouble is given time: it said so (429,
 * 503, a Retry-After) or its requests fail in a row (`failuresInARow`, this one included). A single
 * broken URL on a healthy server is not a server in trouble: holding the host for each of its retries
 * (2 + 4 + 8 + 16 s) kept a finished crawl waiting 108 s for five such URLs. Pure.
 */
export function holdsHost(failure: RequestFailure, failuresInARow: number): boolean {
  if (failuresInARow >= 2) return true;
  return failure.kind === 'status' && (failure.status === 429 || failure.status === 503 || failure.retryAfter !== undefined);
}

/** Consecutive failures per key (a URL, an origin); a success forgets the key. */
export class FailureCounts {
  readonly #counts = new Map<string, number>();

  /** One more failure; returns how many in a row so far. */
  failed(key: string): number {
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n;
  }

  count(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  forget(key: string): void {
    this.#counts.delete(key);
  }
}

export interface HostGiveUpOptions {
  /** Requests in a row to one host that fail (no answer, 5xx, 429), retries included, before the host is
   * given up for the run. */
  maxHostFailures: number;
  /** The longest a crawl waits for one host; a Retry-After above it gives the host up for the run. */
  maxBackoffMs: number;
}

const DAY_MS = 86_400_000;

/** `3600 s`, `0.2 s`; `2 days` from a day on, and no number past ten years: a Retry-After of twenty
 * digits was said as "99999999999999980000 s". */
const seconds = (ms: number) => {
  if (ms < DAY_MS) return `${String(Math.round(ms / 100) / 10)} s`;
  return ms < 3650 * DAY_MS ? `${String(Math.round(ms / DAY_MS))} days` : 'more than ten years';
};

/**
 * Why a host whose request just failed is given up for the rest of the run (its queued URLs leave the
 * queue, counted in the summary), and after how many failures in a row, or undefined.
 * A server that asks for a longer wait than a crawl waits (Retry-After above maxBackoffMs: a site in
 * maintenance saying "come back in an hour") is not asked again before the time it named; waiting out
 * only maxBackoffMs and asking anyway is what it asked us not to do, and a 503 with such a Retry-After
 * on every page held its host 5 minutes a try, 20 minutes a URL. A server whose requests fail
 * `maxHostFailures` times in a row is down: waiting out each URL's retries one after another
 * (2 + 4 + 8 + 16 s with the default backoff) holds the crawl for hours on a large site (Nutch's
 * fetcher.max.exceptions.per.queue gives a host's queue up the same way). Pure.
 */
export function hostGiveUp(failure: RequestFailure, failuresInARow: number, now: number, options: HostGiveUpOptions): { reason: string; failures: number } | undefined {
  if (failure.kind === 'status') {
    const asked = retryAfterMs(failure.retryAfter, now);
    if (asked !== undefined && asked > options.maxBackoffMs) {
      return { reason: `HTTP ${String(failure.status)} asking for a wait of ${seconds(asked)}, longer than the crawl waits (${seconds(options.maxBackoffMs)})`, failures: 1 };
    }
  }
  if (failuresInARow >= options.maxHostFailures) return { reason: failure.kind === 'status' ? `HTTP ${String(failure.status)}` : 'no answer', failures: failuresInARow };
  return undefined;
}
