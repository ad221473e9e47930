// Resolving a page's link hrefs to canonical URLs, remembered across pages. Sibling pages link to the
// same navigation with the same relative hrefs (the Rust docs: ~50 links a page, most shared with the
// pages in the same folder), and URL parsing was a tenth of the parse thread's time, so each href is
// canonicalized once per folder. Pure from the caller's view: the cache never changes an answer.

import { canonicalizeUrl, type CanonicalizeOptions } from '../shared/url.js';
import { detached } from './detached.js';

/** Hrefs remembered in all; past it the cache starts again (memory stays bounded). */
const CACHE_LIMIT = 20_000;
/** URLs longer than this are resolved each time, never kept. */
const MAX_CACHED_URL_CHARS = 2_048;

/** strip-parameter set -> folder -> href -> canonical URL (undefined: not a URL to follow). */
const caches = new Map<string, Map<string, Map<string, string | undefined>>>();
let cached = 0;

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

/** A resolver for the links of one page: (trimmed, non-empty href) -> canonicalizeUrl(href, base, options). */
export function linkResolver(base: string, options: CanonicalizeOptions): (href: string) => string | undefined {
  const paramsKey = options.stripParams === undefined ? '' : options.stripParams.join(' ');
  let byFolder = caches.get(paramsKey);
  if (byFolder === undefined) caches.set(paramsKey, (byFolder = new Map<string, Map<string, string | undefined>>()));
  const folder = folderOf(base);
  let hrefs = byFolder.get(folder);
  return (whole) => {
    const first = whole[0];
    if (first === '?' || first === '#') return canonicalizeUrl(whole, base, options);
    // The fragment never reaches the canonical URL: `struct.Vec.html#method.push` and `#method.pop`
    // are one entry (API docs link to hundreds of anchors of a few pages).
    const hash = whole.indexOf('#');
    const href = hash === -1 ? whole : whole.slice(0, hash);
    const known = hrefs?.get(href);
    if (known !== undefined || hrefs?.has(href)) return known;
    const url = canonicalizeUrl(href, base, options);
    // A long URL is rarely asked for again, and 20,000 of them would be the cache's whole memory.
    if (url !== undefined && url.length > MAX_CACHED_URL_CHARS) return url;
    if (cached >= CACHE_LIMIT) {
      for (const m of caches.values()) m.clear();
      cached = 0;
      hrefs = undefined;
    }
    if (hrefs === undefined) byFolder.set(detached(folder), (hrefs = new Map<string, string | undefined>()));
    hrefs.set(detached(href), url);
    cached++;
    return url;
  };
}
