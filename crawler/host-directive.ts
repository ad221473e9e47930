// The robots.txt Host directive as Geoportal applies it (seed 000): the site names its preferred host
// (and scheme and port), and the crawler fetches that instead of the mirror it was given. Yandex read
// it the same way for mirrors (seed 004). Off by default: a crawler that rewrites URLs surprises people.

import { canonicalizeUrl } from '../shared/url.js';

type Canonicalize = (url: string) => string | undefined;

/** `url` moved to the host the Host directive names, or undefined when the value is unusable or the same.
 * `canonicalize`: the crawl's canonicalizer (shared/url.ts makeCanonicalizer), so the moved URL is in the
 * form the crawl keys pages by. */
export function preferredHostUrl(url: string, hostDirective: string, canonicalize: Canonicalize = (u) => canonicalizeUrl(u)): string | undefined {
  const value = hostDirective.trim();
  if (value === '') return undefined;
  const current = new URL(url);
  let target: URL;
  try {
    target = new URL(value.includes('://') ? value : `${current.protocol}//${value}`);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  if (target.origin === current.origin) return undefined;
  return canonicalize(`${target.origin}${current.pathname}${current.search}`);
}
