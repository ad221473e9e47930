// Resolving a link's href to a canonical URL, remembered across pages. Sibling pages link to the same
// navigation with the same relative hrefs (the Rust docs: ~50 links a page, most shared with the pages
// in the same folder), and URL parsing is a tenth of the parse thread's time, so each (folder, href) pair
// is canonicalized once. Pure from the caller's view: the cache never changes an answer.

import { canonicalizeUrl, type CanonicalizeOptions } from '../shared/url.js';

/** Pairs remembered per set of strip parameters; past it the cache starts again (memory stays bounded). */
const CACHE_LIMIT = 20_000;

const caches = new Map<string, Map<string, string | undefined>>();

/**
 * The part of `base` a relative reference can depend on: everything up to the last `/` of its path.
 * `../x`, `x`, `/x`, `//host/x` and absolute URLs resolve the same against any URL of that folder;
 * hrefs starting with `?` or `#` need the whole URL and are not cached.
 */
function folderOf(base: string): string {
  const query = base.indexOf('?');
  const path = query === -1 ? base : base.slice(0, query);
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** canonicalizeUrl(href, base, options), remembered. `href` is trimmed and non-empty. */
export function resolveLink(href: string, base: string, options: CanonicalizeOptions): string | undefined {
  const first = href[0];
  if (first === '?' || first === '#') return canonicalizeUrl(href, base, options);
  const paramsKey = options.stripParams === undefined ? '' : options.stripParams.join(' ');
  let cache = caches.get(paramsKey);
  if (cache === undefined) caches.set(paramsKey, (cache = new Map()));
  // join() writes a new flat string. A template literal would keep `href`, a slice of the whole page's
  // HTML, reachable from the cache: a crawl of the Rust docs held 130 MB more that way.
  const key = [folderOf(base), href].join('\n');
  const known = cache.get(key);
  if (known !== undefined || cache.has(key)) return known;
  const url = canonicalizeUrl(href, base, options);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, url);
  return url;
}
