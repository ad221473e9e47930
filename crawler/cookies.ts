// The cookies a crawl keeps while it runs, as browsers, wget and Scrapy keep them. Some servers show a
// page only to a client that returns the cookie they set: a Java servlet container's first answer sets
// JSESSIONID and redirects to the same page (often with `;jsessionid=` in the path, which the
// canonicalizer strips), a cookie check sets a cookie and redirects to itself. Without cookies such a
// site is one redirect to itself and nothing else. RFC 6265's rules (domains, paths, expiry, Secure,
// public suffixes refused) are tough-cookie's, the jar Crawlee and jsdom use; this file only bounds it,
// since a crawl meets servers that set a new cookie on every page: at most `maxCookiesPerHost` names per
// host and `maxCookieBytes` a cookie (a browser's 4 KB), over at most `maxHosts` hosts (later hosts get
// none kept). Session cookies live as long as the run: a resumed crawl starts with none, as a browser
// started again does. robots.txt and sitemaps are asked without cookies, as Googlebot asks robots.txt.

import { CookieJar } from 'tough-cookie';

export interface CookieLimits {
  /** Distinct cookie names kept per host; later names are dropped (Chrome keeps 180 per domain). */
  maxCookiesPerHost: number;
  /** A Set-Cookie longer than this (name, value and attributes) is dropped, as browsers drop it. */
  maxCookieBytes: number;
  /** Hosts whose cookies are kept; cookies of further hosts are dropped. */
  maxHosts: number;
}

export const COOKIE_DEFAULTS: CookieLimits = { maxCookiesPerHost: 50, maxCookieBytes: 4096, maxHosts: 10_000 };

export class CrawlCookies {
  private readonly jar = new CookieJar(undefined, { rejectPublicSuffixes: true, looseMode: true });
  private readonly namesByHost = new Map<string, Set<string>>();
  private readonly limits: CookieLimits;

  constructor(limits: Partial<CookieLimits> = {}) {
    this.limits = { ...COOKIE_DEFAULTS, ...limits };
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): string | undefined {
    const cookies = this.jar.getCookieStringSync(url);
    return cookies === '' ? undefined : cookies;
  }

  /** Keeps the cookies a response to `url` set (its Set-Cookie values), within the limits. Malformed
   * ones, and ones for a domain the URL cannot set (another site, a public suffix), are dropped. */
  remember(url: string, setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    const host = URL.parse(url)?.hostname;
    if (host === undefined) return;
    let names = this.namesByHost.get(host);
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      if (line.length > this.limits.maxCookieBytes) continue;
      const name = line.slice(0, Math.max(0, line.indexOf('='))).trim();
      if (names === undefined) {
        if (this.namesByHost.size >= this.limits.maxHosts) return;
        names = new Set();
        this.namesByHost.set(host, names);
      }
      if (!names.has(name) && names.size >= this.limits.maxCookiesPerHost) continue;
      try {
        if (this.jar.setCookieSync(line, url, { ignoreError: true }) !== undefined) names.add(name);
      } catch {
        /* a cookie tough-cookie cannot read is one a browser drops too */
      }
    }
  }
}

/** Whether `target`'s query names `page` (its path and query), as a cookie check's page is told where to
 * send the client back: `/check?return=%2Fwall%2F` names `/wall/` (crawl.ts follows such a redirect at
 * once). Pure. */
export function namesPageBack(target: string, page: string): boolean {
  const { search } = new URL(target);
  if (search === '') return false;
  const { pathname, search: pageSearch } = new URL(page);
  let query = search;
  try {
    query = decodeURIComponent(search.replace(/\+/g, ' '));
  } catch {
    // A stray `%` leaves the query as it came.
  }
  return query.includes(pathname + pageSearch);
}
