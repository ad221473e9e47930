// The /robots page's network edge: the robots.txt of the site a user named, fetched and decided by the
// robots library the crawler uses too (shared/robots), so the checker and the crawl can never disagree on
// a 404, a 503 or a redirect chain. The page only reads the answer.

import { describeResult, robotsFromUrl, type RobotsMode, type RobotsOutcome, type RobotsVerdict } from '../../shared/robots/index.js';
import { DEFAULT_AGENT, userAgentHeader } from '../../shared/agent.js';

export interface FetchedRobots {
  /** The robots.txt URL asked for. */
  url: string;
  /** The body as received (empty unless a 2xx answered), for the linter and the line listing. */
  body: Uint8Array;
  contentType?: string;
  /** What came back, in words: `HTTP 200, 1234 bytes`, `network error: ...`, `6 redirects`. */
  described: string;
  outcome: RobotsOutcome;
  /** The RFC clause the outcome follows, e.g. `503: server error, disallow all (RFC 9309 2.3.1.4)`. */
  why: string;
  /** The verdict for a URL of this site, the outcome's policy applied (a 503 disallows everything). */
  check: (url: string) => RobotsVerdict;
  /** User-agent values of the group(s) that apply; [] when none does. */
  agents: string[];
  crawlDelaySeconds: number | null;
  /** The Host directive that applies (a Yandex extension), or null. */
  host: string | null;
  sitemaps: string[];
}

export type RobotsFetcher = (robotsUrl: string, agent: string, mode: RobotsMode, timeoutMs: number) => Promise<FetchedRobots>;

/** The robots.txt URL for any http(s) URL of a site (or a bare host), or undefined for anything else. */
export function robotsUrlFor(input: string): string | undefined {
  const trimmed = input.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  return `${url.origin}/robots.txt`;
}

// The request names Gleaner whatever agent the user checks for: the checker never poses as another robot.
const CHECKER_USER_AGENT = userAgentHeader(DEFAULT_AGENT);

export const fetchRobotsTxt: RobotsFetcher = async (robotsUrl, agent, mode, timeoutMs) => {
  const { robots, result, decision } = await robotsFromUrl(robotsUrl, { agent, mode, userAgentHeader: CHECKER_USER_AGENT, timeoutMs });
  const contentType = result.kind === 'response' ? result.headers['content-type'] : undefined;
  return {
    url: robotsUrl,
    body: result.kind === 'response' ? result.body : new Uint8Array(),
    ...(contentType !== undefined ? { contentType } : {}),
    described: describeResult(result),
    outcome: decision.outcome,
    why: decision.why,
    check: (url) => robots.check(url),
    agents: robots.agents,
    crawlDelaySeconds: robots.crawlDelaySeconds,
    host: robots.host,
    sitemaps: robots.sitemaps,
  };
};
