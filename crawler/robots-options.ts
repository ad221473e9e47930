// How this crawl asks for robots.txt and whether it obeys it, per origin, from the crawl options. Pure;
// the robots library (robots/) does the asking.

import type { Logger } from '../shared/log.js';
import type { CrawlOptions } from './options.js';
import type { RobotsOptions, RobotsVerdict } from '../shared/robots/index.js';

/** Whether the crawl obeys robots.txt on `origin`: a --site setting wins over --respect-robots. */
export function respectsRobots(options: Pick<CrawlOptions, 'sites' | 'respectRobots'>, origin: string): boolean {
  const site = options.sites[origin] ?? 'inherit';
  return site === 'always' || (site === 'inherit' && options.respectRobots);
}

/** The robots library's options for `origin` in this crawl. */
export function crawlRobotsOptions(options: CrawlOptions, origin: string, edge: { userAgentHeader: string; signal?: AbortSignal; log: Logger }): RobotsOptions {
  return {
    agent: options.agent,
    mode: options.robotsMode,
    userAgentHeader: edge.userAgentHeader,
    from: options.from,
    maxCacheSeconds: options.robotsMaxCacheSeconds,
    // robots.txt is small: its whole fetch must come within the time to a page's headers, and never
    // past the deadline every request has.
    timeoutMs: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
    hopDelayMs: options.siteDelayMs[origin] ?? options.delayMs,
    backoffMs: options.robotsBackoffMs,
    maxBackoffMs: options.maxBackoffMs,
    retryUnreachable: true,
    minRate: options,
    signal: edge.signal,
    respect: options.sites[origin] ?? 'inherit',
    log: edge.log,
  };
}

/** The rule that blocked a URL as the summary lists it: `line 4: disallow /private`, or why the whole site is. */
export function blockingRule(verdict: RobotsVerdict): string {
  return verdict.rule ? `line ${verdict.rule.line}: ${verdict.rule.type} ${verdict.rule.pattern}` : (verdict.reason ?? 'whole site');
}
