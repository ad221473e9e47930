// Query parameters that do not change a host's pages (DUST: "different URLs with similar text", Bar-Yossef
// et al.; what Google's URL-parameters tool asked site owners, learned instead). CMS and shop templates
// link every page again with `?print=1`, `?lang=en` on a one-language site, `?view=grid`, WordPress's
// `?replytocom=N` on every comment, `?ref=sidebar`: each such URL is the page without the parameter, a
// request and a stored duplicate per page. The crawl sees it happen: the page at `/p?print=1` comes back
// a duplicate of `/p`. Once a parameter name has done that for MIN_EVIDENCE pages of a host, and at least
// 90% of the host's stored pages carrying it that were such copies or new content were copies, links drop it (the URL without it is the one asked),
// and queued URLs whose form without it is already known are not asked.
// A parameter that selects content (`?id=42`, `?page=2`, `?color=red`, `?lang=de` on a site that has
// German pages) is never learned: its pages are not copies of the page without it, so the share stays
// far below 90% (`page=1` alone repeats the listing; `page=2`.. do not).
// In memory, per run: a resumed crawl learns again (the store keeps no "duplicate of" per page fact).
// Pure apart from its counters; the crawl loop feeds it each stored page.

import { queryOrderKey } from '../shared/url.js';

/** Pages that repeated the page without the parameter before the parameter is dropped from links. */
export const MIN_EVIDENCE = 5;
/** Share of the host's stored pages with the parameter that must have repeated the page without it. */
const MIN_SHARE = 0.9;

interface Evidence {
  /** Stored pages of the host with the parameter that were new content (the evidence against). */
  fresh: number;
  /** Stored pages with the parameter that were duplicates of the same URL without it, or whose URL without
   * it came back a duplicate of them. A duplicate of some other page (an empty listing like the others, a
   * copy of `/about` at `/about/?print=1`) is evidence neither way. */
  repeats: number;
  /** The values of the repeats (a few): a name is learned whatever its value only after repeats with
   * MIN_EVIDENCE different values (`replytocom=1..N`); `?ref=main` copying the default branch of a code
   * host teaches `ref=main` alone, never `ref` (`?ref=feature` is another page). */
  values: Set<string>;
}

interface Pair {
  pair: string;
  /** Lower-case name. */
  name: string;
  /** `name=value`, the name lower-case: the key of the value's own evidence. */
  nameValue: string;
}

/** The query's pairs, or [] without a query. */
function queryPairs(url: string): { base: string; pairs: Pair[] } {
  const q = url.indexOf('?');
  if (q === -1) return { base: url, pairs: [] };
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = (eq === -1 ? pair : pair.slice(0, eq)).toLowerCase();
      return { pair, name, nameValue: `${name}=${eq === -1 ? '' : pair.slice(eq + 1)}` };
    });
  return { base: url.slice(0, q), pairs };
}

function without(base: string, pairs: readonly Pair[], drop: (p: Pair) => boolean): string {
  const kept = pairs.filter((p) => !drop(p)).map((p) => p.pair);
  return kept.length === 0 ? base : `${base}?${kept.join('&')}`;
}

function hostKey(url: string): string {
  // scheme://host[:port], from a canonical URL: up to the first `/` after `//`.
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? url : url.slice(0, slash);
}

/** Of the links a learned parameter would be dropped from on a host, every SAMPLE_EVERY-th is asked as
 * linked: a site whose first `?lang=de` pages were untranslated copies and whose later ones are German
 * still shows it, and the parameter is unlearned (the share falls below MIN_SHARE), at 5% of the
 * requests the rule saves. */
export const SAMPLE_EVERY = 20;

/** Values remembered per name, enough to count MIN_EVIDENCE different ones. */
const VALUES_KEPT = 16;

export class NoopParams {
  /** Per origin, per key: a lower-case name, or `name=value`. */
  readonly #evidence = new Map<string, Map<string, Evidence>>();
  /** Per origin, the keys (names, or `name=value`) learned as changing nothing. */
  readonly #learned = new Map<string, Set<string>>();
  /** Per origin, links a learned parameter was found on (SAMPLE_EVERY). */
  readonly #found = new Map<string, number>();

  /**
   * A page stored at `url` (canonical), a duplicate of `duplicateOf` when it was one. Returns the keys
   * (`name`, or `name=value`) this page made learned (for the log), usually none.
   */
  countPage(url: string, duplicateOf?: string): string[] {
    const origin = hostKey(url);
    let perHost = this.#evidence.get(origin);
    if (perHost === undefined) this.#evidence.set(origin, (perHost = new Map<string, Evidence>()));
    const newly: string[] = [];
    const keysOf = (p: Pair): string[] => [p.name, p.nameValue];
    // Fetched the other way round (the variant first, breadth-first order does that): the page without
    // the parameter is the duplicate, of the variant counted before as a page with it.
    if (duplicateOf !== undefined && hostKey(duplicateOf) === origin) {
      const variant = queryPairs(duplicateOf);
      const plain = queryOrderKey(url);
      for (const p of variant.pairs) {
        if (queryOrderKey(without(variant.base, variant.pairs, (o) => o.name === p.name)) !== plain) continue;
        for (const key of keysOf(p)) {
          const e = perHost.get(key);
          if (e === undefined || e.fresh === 0) continue;
          e.fresh--;
          e.repeats++;
          if (e.values.size < VALUES_KEPT) e.values.add(p.nameValue);
          this.#judge(origin, key, e, newly);
        }
      }
    }
    const { base, pairs } = queryPairs(url);
    const original = duplicateOf === undefined ? undefined : queryOrderKey(duplicateOf);
    const seen = new Set<string>();
    for (const p of pairs) {
      const repeat = original !== undefined && queryOrderKey(without(base, pairs, (o) => o.name === p.name)) === original;
      for (const key of keysOf(p)) {
        if (seen.has(key)) continue;
        seen.add(key);
        let e = perHost.get(key);
        if (e === undefined) perHost.set(key, (e = { fresh: 0, repeats: 0, values: new Set() }));
        if (original === undefined) e.fresh++;
        else if (repeat) {
          e.repeats++;
          if (e.values.size < VALUES_KEPT) e.values.add(p.nameValue);
        }
        this.#judge(origin, key, e, newly);
      }
    }
    return newly;
  }

  /** Learns or unlearns `key` on `origin` from its evidence; a newly learned key goes to `newly`. */
  #judge(origin: string, key: string, e: Evidence, newly: string[]): void {
    const learned = this.#learned.get(origin);
    const had = learned?.has(key) === true;
    const enough = e.repeats >= MIN_EVIDENCE && (key.includes('=') || e.values.size >= MIN_EVIDENCE);
    const now = enough && e.repeats >= (e.repeats + e.fresh) * MIN_SHARE;
    if (now && !had) {
      if (learned === undefined) this.#learned.set(origin, new Set([key]));
      else learned.add(key);
      newly.push(key);
    } else if (!now && had) learned.delete(key); // a page with it that was new content: not a no-op after all
  }

  /** `url` without the parameters learned as no-ops on its host (itself when it has none, and for
   * every SAMPLE_EVERY-th URL that has one: a sample asked as linked, which keeps the evidence current). */
  strip(url: string): string {
    const origin = hostKey(url);
    const learned = this.#learned.get(origin);
    if (learned === undefined || learned.size === 0 || !url.includes('?')) return url;
    const { base, pairs } = queryPairs(url);
    const drop = (p: Pair) => learned.has(p.name) || learned.has(p.nameValue);
    if (!pairs.some(drop)) return url;
    const found = (this.#found.get(origin) ?? 0) + 1;
    this.#found.set(origin, found);
    return found % SAMPLE_EVERY === 0 ? url : without(base, pairs, drop);
  }
}
