// Which URLs a crawl may visit: scope relative to the seeds, then include/exclude patterns. Pure.
// `makeScopeFilter` compiles once (the crawler asks for every link of every page); `inScope` is the
// one-call form, which keeps the last compiled filter.
//
// Decisions:
// - `host`: the URL's host name is a seed's host name. The port and scheme are ignored (a site moving
//   http -> https or serving on :8080 is the same site), and so is a leading `www.` (a seed `example.org`
//   that redirects to `www.example.org` would otherwise end the crawl at once).
// - `domain`: the URL shares the seed's "registrable-ish" domain: its last two labels, or its last three
//   when the second-level label is a common public second level under a two-letter country code
//   (`example.co.uk`, `example.com.au`, `example.ac.jp`). A simplification of the Public Suffix List, which
//   Gleaner does not ship: it treats `a.github.io` and `b.github.io` as one domain. IP addresses and
//   single-label hosts (`localhost`) are their own domain.
// - `any`: every http(s) URL.
// - Patterns (include: the URL must match at least one when any are given; exclude: it must match none)
//   are matched against the whole canonical URL. A pattern is a regular expression (unanchored), written
//   bare (`\.pdf$`, `/private/`: slashes and all) or as `/regex/flags` to add flags (`/private/i`, at least
//   one flag); or a glob when it starts with
//   `glob:`, where `*` matches any run of characters and the glob must match the whole URL
//   (`glob:*://*/docs/*`). A pattern that is not a valid regular expression is a BAD_ARGUMENT error at
//   compile time, not a silent non-match.

import { GleanerError } from '../shared/errors.js';
import type { Scope } from './options.js';

export type { Scope };

/** The scope, include and exclude of CrawlOptions (defaults there: host, no patterns). */
export interface ScopeOptions {
  scope: Scope;
  include?: readonly string[];
  exclude?: readonly string[];
}

const SECOND_LEVELS = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'gob', 'mil', 'nic', 'ltd', 'plc', 'sch']);

function isIp(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
}

/** The host name without a leading `www.`. */
export function hostWithoutWww(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.startsWith('www.') && h.length > 4 ? h.slice(4) : h;
}

/** The registrable-ish domain of a host name (see the decisions above). */
export function registrableDomain(hostname: string): string {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (isIp(h)) return h;
  const labels = h.split('.');
  if (labels.length <= 2) return h;
  const tld = labels[labels.length - 1] ?? '';
  const second = labels[labels.length - 2] ?? '';
  const take = tld.length === 2 && SECOND_LEVELS.has(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** A glob as a regular expression that cannot backtrack catastrophically. Joined by `.*` the parts took
 * time growing as the URL's length to the power of the stars: `glob:*a*a*a*a*a*a*a*a*a*b` spent 44 s on
 * a 49-character URL that does not match, each link of a crawl. Here each middle part is found at its
 * first place after the one before, inside a lookahead (which JavaScript never backtracks into; the
 * group keeps `\1` from reading a digit after it): the first place is always a right one, as a later
 * one leaves less room for the rest, so the same URLs match, in time linear in the URL per part. */
function globRegExp(glob: string): RegExp {
  const parts = glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  if (parts.length === 1) return new RegExp(`^${parts[0] ?? ''}$`);
  const middle = parts.slice(1, -1).map((part, i) => `(?=(.*?${part}))(?:\\${i + 1})`);
  return new RegExp(`^${parts[0] ?? ''}${middle.join('')}.*${parts[parts.length - 1] ?? ''}$`);
}

/** Compiles one include/exclude pattern; throws GleanerError BAD_ARGUMENT when it is invalid. */
export function compileUrlPattern(pattern: string): RegExp {
  if (pattern.startsWith('glob:')) return globRegExp(pattern.slice(5));
  // Delimiters only with flags: `/private/` is the path a wget user means (`-X /private/`), and read as the
  // regex `private` it also cut `?private=1` and `/privateer`.
  const slashed = /^\/(.+)\/([a-z]+)$/s.exec(pattern);
  try {
    return slashed !== null ? new RegExp(slashed[1] ?? '', slashed[2]) : new RegExp(pattern);
  } catch (cause) {
    throw new GleanerError('BAD_ARGUMENT', `The URL pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(cause as Error).message}).`, { cause });
  }
}

/**
 * A predicate telling whether a URL is in the crawl's scope. Throws GleanerError BAD_ARGUMENT for a seed
 * that is not a URL or an invalid pattern, so the CLI reports it before crawling.
 */
export function makeScopeFilter(seeds: readonly string[], options: ScopeOptions): (url: string) => boolean {
  const hosts = new Set<string>();
  const domains = new Set<string>();
  for (const seed of seeds) {
    let hostname: string;
    try {
      hostname = new URL(seed).hostname;
    } catch (cause) {
      throw new GleanerError('BAD_ARGUMENT', `The seed ${JSON.stringify(seed)} is not an absolute URL.`, { cause });
    }
    hosts.add(hostWithoutWww(hostname));
    domains.add(registrableDomain(hostname));
  }
  const include = (options.include ?? []).map(compileUrlPattern);
  const exclude = (options.exclude ?? []).map(compileUrlPattern);
  const scope = options.scope;

  return (url) => {
    let hostname: string;
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
      hostname = u.hostname;
    } catch {
      return false;
    }
    if (scope === 'host' && !hosts.has(hostWithoutWww(hostname))) return false;
    if (scope === 'domain' && !domains.has(registrableDomain(hostname))) return false;
    if (include.length > 0 && !include.some((re) => re.test(url))) return false;
    return !exclude.some((re) => re.test(url));
  };
}

let lastCompiled: { seeds: readonly string[]; options: ScopeOptions; filter: (url: string) => boolean } | undefined;

/**
 * Whether `url` is in scope for a crawl from `seeds`. Reuses the filter compiled for the previous call
 * when seeds, scope and pattern arrays are the same (same array objects), so calling it per link is cheap.
 */
export function inScope(url: string, seeds: readonly string[], options: ScopeOptions): boolean {
  let last = lastCompiled;
  if (
    last === undefined ||
    last.seeds !== seeds ||
    last.options.scope !== options.scope ||
    last.options.include !== options.include ||
    last.options.exclude !== options.exclude
  ) {
    last = { seeds, options: { ...options }, filter: makeScopeFilter(seeds, options) };
    lastCompiled = last;
  }
  return last.filter(url);
}
