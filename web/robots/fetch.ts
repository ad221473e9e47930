// The /robots page's network edge: fetch the robots.txt of the site a user named, with the crawler's
// HTTP client (size cap, timeouts, decompression), following up to five redirects as RFC 9309 2.3.1.2
// asks. The outcome is a value the page explains, mapped as the crawler maps it.

import { GLEANER_INFO_URL, GLEANER_VERSION } from '../../crawler/options.js';
import { createHttpClient, fetchOnce } from '../../crawler/fetch.js';
import type { WebOptions } from '../defaults.js';

/** RFC 9309 2.3.1.2: crawlers SHOULD follow at least five consecutive redirects. */
const MAX_REDIRECTS = 5;
/** Servers send robots.txt with many media types; these are read as text. */
const TEXT_TYPES: readonly string[] = ['text/plain', '', 'text/html', 'application/octet-stream', 'text/x-robots', 'application/xhtml+xml', 'text/xml', 'application/xml'];

export type RobotsFetchResult =
  /** 2xx: the body was read (cut at maxRobotsBytes). */
  | { outcome: 'ok'; url: string; status: number; body: string; truncated: boolean; note?: string }
  /** 4xx: a crawler may access anything. */
  | { outcome: 'unavailable'; url: string; status: number }
  /** 5xx or no answer: a crawler must assume complete disallow. */
  | { outcome: 'unreachable'; url: string; status: number; error?: string }
  | { outcome: 'too-many-redirects'; url: string };

export type RobotsFetcher = (robotsUrl: string) => Promise<RobotsFetchResult>;

/** The robots.txt URL for any http(s) URL of a site, or undefined for anything else. */
export function robotsUrlFor(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(input.trim()) ? input.trim() : `http://${input.trim()}`);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  return `${url.origin}/robots.txt`;
}

export async function fetchRobotsTxt(robotsUrl: string, options: Pick<WebOptions, 'maxRobotsBytes' | 'robotsFetchTimeoutMs'>): Promise<RobotsFetchResult> {
  const client = createHttpClient({
    connectTimeoutMs: options.robotsFetchTimeoutMs,
    headersTimeoutMs: options.robotsFetchTimeoutMs,
    bodyTimeoutMs: options.robotsFetchTimeoutMs,
  });
  const headers = { 'user-agent': `Gleaner/${GLEANER_VERSION} (robots checker; +${GLEANER_INFO_URL})`, accept: 'text/plain, */*;q=0.5' };
  try {
    let url = robotsUrl;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const got = await fetchOnce(client, { url, headers, maxBodyBytes: options.maxRobotsBytes, wantedTypes: TEXT_TYPES });
      switch (got.kind) {
        case 'redirect': {
          const next = safeRedirect(got.location, url);
          if (next === undefined) return { outcome: 'unavailable', url, status: got.status };
          url = next;
          continue;
        }
        case 'unwanted-type':
          return { outcome: 'ok', url, status: got.status, body: '', truncated: false, note: `the server sent ${got.contentType}, not text: read as an empty file` };
        case 'body':
          return { outcome: 'ok', url, status: got.status, body: new TextDecoder().decode(got.body), truncated: got.truncated };
        case 'network-error':
          return { outcome: 'unreachable', url, status: 0, error: got.error };
        case 'not-modified':
        case 'status':
          if (got.status >= 400 && got.status < 500) return { outcome: 'unavailable', url, status: got.status };
          return { outcome: 'unreachable', url, status: got.status };
      }
    }
    return { outcome: 'too-many-redirects', url: robotsUrl };
  } finally {
    await client.close();
  }
}

function safeRedirect(location: string, base: string): string | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : undefined;
  } catch {
    return undefined;
  }
}
