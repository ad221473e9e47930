// The fetch policy of robots.txt as pure functions: what each fetch outcome means for the crawl, how long
// an answer may be cached, how long to wait after a failure. fetch.ts does the I/O and asks these.
// RFC 9309 section 2.3.1 (outcomes), 2.4 (caching); the 1996-era rules of seed 003 in `draft` mode.

import { httpDateMs } from '../http/index.js';
import { doublingMs } from '../timers.js';
import type { RobotsMode } from './match.js';
import { PARSE_LIMIT_BYTES } from './parse.js';

/** Every default of the robots edge, in one place. */
export const ROBOTS_DEFAULTS = {
  /** Cache lifetime when the server says nothing, and the configurable cap (RFC 9309 section 2.4: 24 h). */
  maxCacheSeconds: 24 * 3600,
  /** The longest cap a mode allows: RFC 9309 says 24 h; the draft era allowed 7 days (seed 003). */
  modeCapSeconds: { rfc9309: 24 * 3600, draft: 7 * 24 * 3600 } as Record<RobotsMode, number>,
  /** Whole fetch of robots.txt, redirects included. */
  timeoutMs: 15_000,
  /** RFC 9309 section 2.3.1.2: follow at least five consecutive redirects. */
  maxRedirects: 5,
  /** First wait after an unreachable robots.txt; doubles with each failure up to maxBackoffMs. */
  backoffMs: 60_000,
  maxBackoffMs: 6 * 3600_000,
  /** Bytes of body read: the parse limit and one more, so that a larger file is known to be larger. */
  maxBodyBytes: PARSE_LIMIT_BYTES + 1,
} as const;

/** What a robots.txt fetch came to (style guide, habit 4: each mapped explicitly to the RFC's answer). */
export type FetchOutcome =
  | { kind: 'response'; status: number; body: Uint8Array; headers: Record<string, string | undefined> }
  | { kind: 'network-error'; message: string }
  | { kind: 'too-many-redirects'; hops: number; /** Status of the last redirect. */ status: number }
  /** A 3xx whose Location no crawler may follow (`file:`, `ftp:`, `javascript:`, unparsable, a bad port). */
  | { kind: 'unusable-redirect'; status: number; location: string };

export type RobotsOutcome = 'ok' | 'unavailable' | 'unreachable' | 'too-many-redirects';

/** What the crawl may do with the host: obey the parsed rules, or no rules at all either way. */
export type Access = 'rules' | 'allow-all' | 'disallow-all';

export interface Decision {
  outcome: RobotsOutcome;
  access: Access;
  /** The RFC or draft clause the decision follows, for the log and for `check` reasons. */
  why: string;
}

/** Maps an HTTP status (after redirects) or a failure to the crawl's answer. */
export function decide(result: FetchOutcome, mode: RobotsMode): Decision {
  if (result.kind === 'network-error') {
    return { outcome: 'unreachable', access: 'disallow-all', why: 'network error: disallow all (RFC 9309 2.3.1.4)' };
  }
  if (result.kind === 'too-many-redirects') {
    return { outcome: 'too-many-redirects', access: 'allow-all', why: `more than ${ROBOTS_DEFAULTS.maxRedirects} redirects: unavailable, allow all (RFC 9309 2.3.1.2)` };
  }
  if (result.kind === 'unusable-redirect') {
    // Not a network failure (asking again gets the same Location): as a 3xx without a Location, there is
    // no robots.txt to read. Google's robots.txt documentation treats a redirect it cannot follow as a 404.
    const shown = JSON.stringify(result.location.length > 100 ? `${result.location.slice(0, 100)}...` : result.location);
    return { outcome: 'unavailable', access: 'allow-all', why: `${result.status} to ${shown}, which cannot be fetched: no robots.txt, allow all` };
  }
  return decideStatus(result.status, mode);
}

export function decideStatus(status: number, mode: RobotsMode): Decision {
  if (status >= 200 && status < 300) return { outcome: 'ok', access: 'rules', why: `${status}: parse the rules (RFC 9309 2.3.1.1)` };
  if (status >= 500) return { outcome: 'unreachable', access: 'disallow-all', why: `${status}: server error, disallow all (RFC 9309 2.3.1.4)` };
  if (mode === 'draft' && (status === 401 || status === 403)) {
    return { outcome: 'unavailable', access: 'disallow-all', why: `${status}: access restricted, disallow all (1996 draft, seed 003)` };
  }
  if (status >= 400) return { outcome: 'unavailable', access: 'allow-all', why: `${status}: unavailable, allow all (RFC 9309 2.3.1.3)` };
  // 1xx, 3xx without a Location, 204-like oddities below 200: no robots.txt to read.
  return { outcome: 'unavailable', access: 'allow-all', why: `${status}: no robots.txt, allow all` };
}

/** The longest a robots.txt may be cached in `mode` with the configured cap. */
export function cacheCapSeconds(mode: RobotsMode, maxCacheSeconds: number = ROBOTS_DEFAULTS.maxCacheSeconds): number {
  return Math.max(0, Math.min(maxCacheSeconds, ROBOTS_DEFAULTS.modeCapSeconds[mode]));
}

/**
 * How long a fetched robots.txt stays fresh: Cache-Control max-age, else Expires (against the response's
 * Date), else the cap; never longer than the cap. `no-store` and `no-cache` mean "ask again next time".
 */
export function freshnessSeconds(headers: Record<string, string | undefined>, mode: RobotsMode, now: Date, maxCacheSeconds?: number): number {
  const cap = cacheCapSeconds(mode, maxCacheSeconds);
  const cc = (headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[,\s])(no-store|no-cache)($|[,\s=])/.test(cc)) return 0;
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d+)/.exec(cc);
  if (maxAge) return Math.min(cap, Number(maxAge[1]));
  const expires = headers['expires'];
  if (expires !== undefined) {
    const at = httpDateMs(expires);
    // An unparseable Expires (often "0" or "-1") means already expired (RFC 9111 section 5.3).
    if (at === undefined) return 0;
    const base = (headers['date'] === undefined ? undefined : httpDateMs(headers['date'])) ?? now.getTime();
    return Math.min(cap, Math.max(0, Math.floor((at - base) / 1000)));
  }
  return cap;
}

/** Wait before asking an unreachable robots.txt again, after `failures` consecutive failures (>= 1). */
export function backoffMs(failures: number, baseMs: number = ROBOTS_DEFAULTS.backoffMs, maxMs: number = ROBOTS_DEFAULTS.maxBackoffMs): number {
  return doublingMs(failures, baseMs, maxMs);
}
