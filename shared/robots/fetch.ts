// The robots edge: fetch a robots.txt (no cache: the store-backed one is crawler/robots-cache.ts), apply
// the fetch policy, and hand the caller a `HostRobots` to ask. All the I/O of robots/ is here; the
// decisions are policy.ts, the rules parse.ts and match.ts.

import { setTimeout as sleep } from 'node:timers/promises';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { adoptBody, discardBody, readBody, guardTransfer, lenientRequest, proxiedBy, proxyFromEnv, redirectLocation, withLenientFallback, type HttpTransport, type ProxySettings, type TransferLimits } from '../http/index.js';
import type { Logger } from '../log.js';
import { canonicalizeUrl } from '../url.js';
import { checkPath, groupFor, isRobotsTxt, pathParamsQuery, ROBOTS_TXT_VERDICT, selectRules, type RobotsMode, type RobotsVerdict } from './match.js';
import { parseRobots, type ParsedRobots } from './parse.js';
import { whyUnreachable, type Unreachable } from './unreachable.js';
import { decide, ROBOTS_DEFAULTS, type Access, type Decision, type FetchOutcome, type RobotsOutcome } from './policy.js';

/** Per-site override of robots.txt: `inherit` the crawl's setting, obey it `always`, or `never`. */
export type RobotsRespect = 'inherit' | 'always' | 'never';

export interface RobotsOptions {
  /** The product token matched against User-agent lines (e.g. `Gleaner`). */
  agent: string;
  mode: RobotsMode;
  /** The User-Agent header: the token with the version and a URL about the crawler. */
  userAgentHeader: string;
  /** A contact e-mail for the From header (seed 003). */
  from?: string;
  /** Cache cap in seconds (default 24 h; never more than 24 h in rfc9309, 7 days in draft). */
  maxCacheSeconds?: number;
  /** Whole fetch, redirects included (default ROBOTS_DEFAULTS.timeoutMs). */
  timeoutMs?: number;
  /** Pause before following a redirect to the same origin (a crawl passes its delay; default 0): each
   * hop is a request to the site like a page's. Capped so that five of them take under half of
   * timeoutMs, which they count against. */
  hopDelayMs?: number;
  /** First wait after an unreachable robots.txt, doubling per failure up to maxBackoffMs: how long the
   * failure is cached (defaults ROBOTS_DEFAULTS.backoffMs / maxBackoffMs; a crawl passes its own). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Ask again even while the store holds a fresh failure: the caller (a crawl) keeps its own retry
   * schedule, so failures remembered from earlier runs do not stretch this run's waits. */
  retryUnreachable?: boolean;
  /** The crawl's minimum transfer rate (none when absent): a robots.txt dripping slower fails sooner. */
  minRate?: Pick<TransferLimits, 'minBytesPerSecond' | 'minRateWindowMs'>;
  /** The crawl's stop (Ctrl-C): aborts the fetch under way, whose failure is then neither decided nor cached. */
  signal?: AbortSignal;
  /** Per-site override, resolved by the caller against the global default: `never` ignores the rules. */
  respect?: RobotsRespect;
  /** Debug lines for every decision: fetched, cache hit, allowed, blocked by which line. */
  log?: Logger;
}

export interface HostRobots {
  origin: string;
  /** User-agent values of the group(s) whose rules apply to the agent; [] when none does. */
  agents: string[];
  outcome: RobotsOutcome;
  /** The answer came from the store without a request (fresh, or a stale copy while unreachable). */
  fromCache: boolean;
  check(url: string): RobotsVerdict;
  crawlDelaySeconds: number | null;
  host: string | null;
  sitemaps: string[];
  /** For `unreachable`: when to ask again (exponential backoff over consecutive failures). */
  retryAfterMs?: number;
  /** For `unreachable`: why, for the progress line and the summary. */
  unreachable?: Unreachable;
}

/** The crawler-facing answer for one origin, from a fetch decision and the body it read (or a cached one). */
export function hostRobots(origin: string, decision: Decision, body: string | Uint8Array, fromCache: boolean, options: RobotsOptions, retryAfterMs?: number): HostRobots {
  const log = options.log ?? (() => {});
  const parsed: ParsedRobots = parseRobots(decision.access === 'rules' ? body : '');
  const summary = groupFor(parsed, options.agent, options.mode);
  const rules = selectRules(parsed, options.agent, options.mode);
  const access: Access | 'ignored' = options.respect === 'never' ? 'ignored' : decision.access;
  const check = (url: string): RobotsVerdict => {
    const path = pathParamsQuery(url);
    const verdict = verdictFor(access, decision, isRobotsTxt(path), () => checkPath(rules, path));
    log('debug', verdict.allowed ? 'robots.txt allows' : 'robots.txt blocks', { url, rule: verdict.rule, reason: verdict.reason });
    return verdict;
  };
  const hr: HostRobots = {
    origin,
    agents: decision.access === 'rules' ? summary.agents : [],
    outcome: decision.outcome,
    fromCache,
    check,
    crawlDelaySeconds: summary.crawlDelaySeconds,
    host: summary.host,
    sitemaps: summary.sitemaps,
  };
  if (retryAfterMs !== undefined) hr.retryAfterMs = retryAfterMs;
  return hr;
}

function verdictFor(access: Access | 'ignored', decision: Decision, robotsTxt: boolean, byRules: () => RobotsVerdict): RobotsVerdict {
  switch (access) {
    case 'rules':
      return byRules();
    case 'allow-all':
      return { allowed: true, rule: null, reason: decision.why };
    case 'disallow-all':
      // Even then the crawler may read /robots.txt itself (RFC 9309 section 2.2.2).
      return robotsTxt ? ROBOTS_TXT_VERDICT : { allowed: false, rule: null, reason: decision.why };
    case 'ignored':
      return { allowed: true, rule: null, reason: 'robots.txt ignored for this site (respect: never)' };
  }
}

/**
 * One robots.txt URL fetched and decided, without the store: what `gleaner robots check --url` asks.
 * The fetch policy applies as in a crawl (a 503 disallows everything, a 404 allows everything).
 */
export async function robotsFromUrl(robotsUrl: string, options: RobotsOptions): Promise<{ robots: HostRobots; result: FetchOutcome; decision: Decision }> {
  const result = await fetchRobots(robotsUrl, options);
  const decision = decide(result, options.mode);
  const body = result.kind === 'response' ? result.body : '';
  return { robots: hostRobots(new URL(robotsUrl).origin, decision, body, false, options), result, decision };
}

export function describeResult(result: FetchOutcome): string {
  if (result.kind === 'response') return `HTTP ${result.status}, ${result.body.byteLength} bytes`;
  // Named as the crawl names it: "TLS certificate not trusted (...; NODE_EXTRA_CA_CERTS=FILE ...)".
  if (result.kind === 'network-error') return whyUnreachable(result).reason;
  if (result.kind === 'unusable-redirect') return `HTTP ${result.status} to a URL that cannot be fetched`;
  return `${result.hops} redirects`;
}

/** GET robots.txt, following up to five redirects ourselves (RFC 9309 2.3.1.2), reading a capped body. */
export async function fetchRobots(
  url: string,
  options: Pick<RobotsOptions, 'userAgentHeader' | 'from' | 'timeoutMs' | 'hopDelayMs' | 'minRate' | 'signal'>,
): Promise<FetchOutcome> {
  // Compressed when the server can (robots.txt files of 100s of KB exist); a body sent compressed without
  // being asked is decoded too, as browsers and Googlebot do: read raw, a gzip body parsed as rules is
  // none, and the site was crawled as if it had no robots.txt.
  const headers: Record<string, string> = { 'user-agent': options.userAgentHeader, accept: 'text/plain, */*;q=0.1', 'accept-encoding': 'gzip, deflate, br' };
  if (options.from) headers['from'] = options.from;
  const timeoutMs = options.timeoutMs ?? ROBOTS_DEFAULTS.timeoutMs;
  const hopDelayMs = Math.min(options.hopDelayMs ?? 0, timeoutMs / (2 * ROBOTS_DEFAULTS.maxRedirects));
  // One deadline for the whole fetch, redirects included; the minimum rate is judged on the final body.
  const guard = guardTransfer(
    { requestTimeoutMs: timeoutMs, minBytesPerSecond: options.minRate?.minBytesPerSecond ?? 0, minRateWindowMs: options.minRate?.minRateWindowMs ?? 0 },
    options.signal,
  );
  const { proxy, dispatcher } = proxied();
  const strict: HttpTransport = (at, init) => request(at, { method: 'GET', headers: init.headers, signal: init.signal, ...(dispatcher === undefined ? {} : { dispatcher }) });
  // An answer undici's parser refuses is read again leniently, as browsers read it (lenient-fallback.ts).
  const lenient = (at: string): HttpTransport | undefined => (proxiedBy(at, proxy) === undefined ? (u, init) => lenientRequest(u, init) : undefined);
  let current = url;
  try {
    for (let hops = 0; ; hops++) {
      const at = current;
      const step = await withLenientFallback(
        at,
        strict,
        lenient(at),
        async (transport): Promise<{ next: string } | FetchOutcome> => {
          const res = await transport(at, { headers, signal: guard.signal });
          adoptBody(res.body);
          const location = redirectLocation(res.headers['location']);
          if (res.statusCode >= 300 && res.statusCode < 400 && location !== undefined) {
            await discardBody(res.body);
            if (hops + 1 > ROBOTS_DEFAULTS.maxRedirects) return { kind: 'too-many-redirects', hops: hops + 1, status: res.statusCode };
            const next = redirectTarget(location, at);
            return next === undefined ? { kind: 'unusable-redirect', status: res.statusCode, location } : { next };
          }
          guard.bodyStarted();
          const { body } = await readBody(res.body, { encoding: headerValue(res.headers['content-encoding']), maxBytes: ROBOTS_DEFAULTS.maxBodyBytes, onBytes: (n) => guard.received(n), signal: guard.signal });
          const flat: Record<string, string | undefined> = {};
          for (const [k, v] of Object.entries(res.headers)) flat[k.toLowerCase()] = headerValue(v);
          return { kind: 'response', status: res.statusCode, body, headers: flat };
        },
        () => guard.reason() !== undefined,
      );
      if ('next' in step) {
        // A hop within the site is asked at the crawl's pace: a chain of them came 2 ms apart.
        if (hopDelayMs > 0 && new URL(step.next).origin === new URL(at).origin) await sleep(hopDelayMs, undefined, { signal: guard.signal });
        current = step.next;
        continue;
      }
      return step;
    }
  } catch (e) {
    return { kind: 'network-error', message: guard.reason() ?? (e as Error).message };
  } finally {
    guard.dispose();
  }
}

/** Where a Location leads when it is a URL the crawler may ask (canonicalizeUrl's rules: http(s), a host
 * DNS could hold, no bad port); undefined for `file:`, `javascript:` or one that does not parse, which
 * undici would refuse as a network error, retried as if the server were down. */
function redirectTarget(location: string, base: string): string | undefined {
  return canonicalizeUrl(location, base, { stripParams: [] }) === undefined ? undefined : new URL(location, base).href;
}

/** The proxy the environment names (shared/http/proxy.ts) and its dispatcher, made once a process: robots.txt
 * is asked the way the crawler's pages are. */
let proxyDispatcher: { proxy: ProxySettings | undefined; dispatcher: Dispatcher | undefined } | undefined;
function proxied(): { proxy: ProxySettings | undefined; dispatcher: Dispatcher | undefined } {
  if (proxyDispatcher === undefined) {
    const proxy = proxyFromEnv();
    proxyDispatcher = { proxy, dispatcher: proxy === undefined ? undefined : new EnvHttpProxyAgent(proxy) };
  }
  return proxyDispatcher;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}
