// The crawler's robots.txt cache: an origin's robots.txt from the store while fresh, else fetched with
// the robots library (shared/robots/) and written back, with backoff over consecutive failures. The
// library stays free of the store so web and the CLI can use it without one.

import type { RobotsCacheEntry, Store } from '../shared/store/index.js';
import {
  backoffMs, decide, decideStatus, describeResult, fetchRobots, freshnessSeconds, hostRobots, ROBOTS_DEFAULTS, whyUnreachable, whyUnreachableCached,
  type Decision, type HostRobots, type RobotsMode, type RobotsOptions,
} from '../shared/robots/index.js';

/** The robots.txt of `origin` (`scheme://host[:port]`) for the crawler: cached, fetched, or decided. */
export async function robotsForOrigin(origin: string, store: Store, options: RobotsOptions, now: Date = new Date()): Promise<HostRobots> {
  const log = options.log ?? (() => {});
  if (options.respect === 'never') {
    log('warn', 'robots.txt ignored for this site (respect: never): Gleaner is a bad robot here', { origin });
  }
  const cached = await store.getRobots(origin);
  if (cached && Date.parse(cached.expiresAt) > now.getTime() && !(options.retryUnreachable && cached.outcome === 'unreachable')) {
    log('debug', 'robots.txt cache hit', { origin, outcome: cached.outcome, status: cached.status, expiresAt: cached.expiresAt });
    const retryAfterMs = cached.outcome === 'unreachable' ? Date.parse(cached.expiresAt) - now.getTime() : undefined;
    const hr = hostRobots(origin, fromEntry(cached, options.mode), cached.body, true, options, retryAfterMs);
    if (cached.outcome === 'unreachable') hr.unreachable = whyUnreachableCached(cached.status);
    return hr;
  }

  const url = `${origin}/robots.txt`;
  const result = await fetchRobots(url, options);
  if (options.signal?.aborted && result.kind === 'network-error') {
    // Stopped by the caller, not by the server: nothing is known about the site, so nothing is cached
    // (a next run asks again at once). The caller that stopped does not use this answer.
    return hostRobots(origin, decide(result, options.mode), '', false, options, 0);
  }
  const decision = decide(result, options.mode);
  log('debug', 'robots.txt fetched', { origin, url, result: describeResult(result), outcome: decision.outcome, access: decision.access, why: decision.why });
  // A site's own mistake (or a probe), said once at the level a user reads: its whole site is crawled.
  if (result.kind === 'unusable-redirect') log('warn', 'robots.txt redirects to a URL that cannot be fetched: read as no robots.txt', { origin, why: decision.why });

  if (decision.outcome === 'unreachable') {
    const failures = (cached?.failures ?? 0) + 1;
    const waitMs = backoffMs(failures, options.backoffMs, options.maxBackoffMs);
    const expiresAt = new Date(now.getTime() + waitMs).toISOString();
    if (cached && cached.outcome === 'ok') {
      // RFC 9309 2.3.1.4 / 2.4: keep obeying the last rules we had while the server is unreachable. A
      // cached 404 is not such a copy: "no rules" must not outlive a server asking us to back off.
      await store.putRobots({ ...cached, expiresAt, failures });
      log('debug', 'robots.txt unreachable: using the cached copy', { origin, fetchedAt: cached.fetchedAt, failures, retryAfterMs: waitMs });
      return hostRobots(origin, fromEntry(cached, options.mode), cached.body, true, options);
    }
    await store.putRobots({
      origin,
      fetchedAt: now.toISOString(),
      expiresAt,
      outcome: 'unreachable',
      status: result.kind === 'response' ? result.status : 0,
      body: '',
      failures,
    });
    return { ...hostRobots(origin, decision, '', false, options, waitMs), unreachable: whyUnreachable(result) };
  }

  const headers = result.kind === 'response' ? result.headers : {};
  const body = result.kind === 'response' && decision.access === 'rules' ? Buffer.from(result.body).toString('utf8') : '';
  const freshSeconds = freshnessSeconds(headers, options.mode, now, options.maxCacheSeconds);
  await store.putRobots({
    origin,
    fetchedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + freshSeconds * 1000).toISOString(),
    // The store knows three outcomes; too many redirects is kept as `unavailable` with the 3xx status.
    outcome: decision.outcome === 'too-many-redirects' ? 'unavailable' : decision.outcome,
    status: result.kind === 'network-error' ? 0 : result.status,
    body,
    failures: 0,
  });
  return hostRobots(origin, decision, result.kind === 'response' ? result.body : '', false, options);
}

/** The decision a cached entry stands for, in the current mode (a 403 means something else in draft). */
function fromEntry(entry: RobotsCacheEntry, mode: RobotsMode): Decision {
  if (entry.outcome === 'unavailable' && entry.status >= 300 && entry.status < 400) {
    return decide({ kind: 'too-many-redirects', hops: ROBOTS_DEFAULTS.maxRedirects + 1, status: entry.status }, mode);
  }
  if (entry.outcome === 'unreachable') return decide({ kind: 'network-error', message: 'cached failure' }, mode);
  return decideStatus(entry.status, mode);
}
