// The records every stage hands to the next. The crawler writes them into the store, the indexer reads
// them, the web gateway reads what the indexer derived. Changing a field's meaning means bumping
// STORE_SCHEMA_VERSION in shared/store/store.ts.

/** A link found on a page, already resolved against the page's base URL and canonicalized. */
export interface OutLink {
  url: string;
  /** Anchor text, whitespace collapsed; the `alt` of an `area`, empty for a meta refresh. */
  text: string;
  /** Lower-cased rel tokens, e.g. `['nofollow']`. A nofollow link is stored but never followed or counted. */
  rel: string[];
  /** Where the link came from: an `a` or `area` element, or a `<meta http-equiv=refresh>`. */
  kind: 'a' | 'area' | 'refresh';
  /** Index (into the page's blockEnds) of the text block the link sits in; absent for old records,
   * area and refresh links, and links without text of their own block. */
  block?: number;
}

/** A part of a page that starts at a linkable heading. */
export interface PageSection {
  /** The fragment that links to it (`url#id`), as written in the page. */
  id: string;
  /** The heading's text, whitespace collapsed. */
  heading: string;
  /** Offset in the page's `text` where the heading starts; the section runs to the next one's start. */
  start: number;
  /** A definition term (`<dt id>`: a function, setting or option a reference page documents), a part
   * within its section rather than a section: web/search/sections.ts chooses among the headings first.
   * Absent for headings, and in stores written before terms were kept. */
  term?: true;
}

/** The last of a page's sections when more were cut (crawler/field-limits.ts): where the first one cut
 * started, so the section before it ends there. No heading has an empty id (crawler/sections.ts), so
 * none is taken for it; it is never chosen, never offered, and adds no heading. */
export const END_OF_SECTIONS: Readonly<Pick<PageSection, 'id' | 'heading'>> = { id: '', heading: '' };

/** What META robots and X-Robots-Tag allow for a page, merged (the most restrictive wins). */
export interface RobotsDirectives {
  index: boolean;
  follow: boolean;
}

/**
 * What became of a URL the crawler fetched:
 * - `ok`: a page worth indexing (unless robots.index is false);
 * - `duplicate`: same content as `duplicateOf`, stored as an alias;
 * - `gone`: 404 or 410, the indexer drops it;
 * - `redirect`: the URL redirected to `finalUrl`, which has its own record;
 * - `skipped`: a content type Gleaner does not index (the body was not read);
 * - `error`: a network error or a 5xx after the last retry;
 * - `blocked`: a page stored before that the site's robots.txt now disallows, found so when a recrawl
 *   came back for it; the indexer drops it, and a later recrawl the rules allow again fetches it anew.
 */
export type PageState = 'ok' | 'duplicate' | 'gone' | 'redirect' | 'skipped' | 'error' | 'blocked';

export interface PageRecord {
  /** The canonical URL that was requested; the key of the record. */
  url: string;
  /** The URL of the response that was read, after redirects. */
  finalUrl: string;
  state: PageState;
  /** HTTP status of the last response, 0 when no response arrived. */
  status: number;
  /** ISO 8601 time of the fetch. */
  fetchedAt: string;
  /** Media type without parameters, lower case; '' when the server sent none. */
  contentType: string;
  title: string;
  description: string;
  /** The date the page declares (crawler/page-date.ts: published, else modified), ISO 8601 in UTC;
   * absent when it declares none. */
  date?: string;
  headings: string[];
  /** Visible text, whitespace collapsed, without script and style. */
  text: string;
  /** End offsets in `text` of its blocks (text between block-level element boundaries, joined by one
   * space), ascending; absent in records stored before blocks were kept. */
  blockEnds?: number[];
  /** Indices (into blockEnds) of the blocks whose text is nearly all link text, links within the page
   * counted too (a contents list, a breadcrumb); absent when none, and in records stored before they
   * were kept (crawler/extract.ts linkBlocksOf, indexer/templates.ts). */
  linkBlocks?: number[];
  /** Headings that can be linked to (`url#id`), in order, with where each starts in `text`; absent in
   * stores written before sections were extracted (crawler/sections.ts). */
  sections?: PageSection[];
  /** Identifiers the page defines (a `<dt>` opening with one, an `id` spelling one: crawler/defined-names.ts);
   * absent when none, and in stores written before they were extracted. */
  defines?: string[];
  /** Share of `text` (its characters, whitespace collapsed as `text` holds it) inside `<pre>`: 1 for a
   * source listing (Sphinx's `_modules/` pages), 0 for prose; absent when none, and in stores written
   * before it was measured. Records read by extraction rules before version 1 (PageRecord.extractedBy)
   * counted the code as written, indentation and all. */
  codeShare?: number;
  /** The version of the extraction rules that read the page (crawler/extraction-version.ts); absent in
   * records of pages not read from a body, and in stores written before it was kept. A recrawl fetches
   * a page read by other rules unconditionally, to read it again. */
  extractedBy?: number;
  /** The page one level up in its site's hierarchy, as the page names it (`<link rel=up>`, an "Up" link,
   * a breadcrumb trail: crawler/parent-link.ts); absent when it names none, and in stores written
   * before it was read. The indexer takes that page's title as context for this one. */
  up?: string;
  /** Primary language subtag (`en`, `es`, `zh`, `ru`), '' when unknown. */
  language: string;
  links: OutLink[];
  /** rel=canonical target, when the page named one. */
  canonical?: string;
  /** Fingerprint of the normalised text, used to find duplicates. */
  contentHash: string;
  etag?: string;
  lastModified?: string;
  robots: RobotsDirectives;
  /** The body was longer than the crawler's cap and was cut. */
  truncated: boolean;
  /** For `duplicate`: the URL of the first copy. */
  duplicateOf?: string;
  /** Link hops from the nearest seed. */
  depth: number;
  /** Error text for `error` pages. */
  error?: string;
}

/** One link of the link graph, made from a page record by shared/store/links.ts: `from` links to `to`. */
export interface LinkEdge {
  from: string;
  to: string;
  text: string;
  nofollow: boolean;
  /** Whether every link of the page to `to` is in the site's template (indexer/templates.ts); absent when not known. */
  template?: boolean;
}

/** A URL waiting in the crawl frontier. */
export interface FrontierEntry {
  url: string;
  depth: number;
  /** The page the URL was found on, sent as Referer. */
  referrer?: string;
  /** Why the URL is in the frontier: a seed, a link, a sitemap entry or a redirect target. */
  via: 'seed' | 'link' | 'sitemap' | 'redirect';
  /** Redirect hops that led here (for `via: 'redirect'`), so a chain stops after the limit. */
  redirects?: number;
  /** A sitemap file to read for URLs, rather than a page. */
  sitemap?: boolean;
  /** Same-shape hops in a row that led here (crawler/traps.ts shapeChain); absent means 0. */
  shapeChain?: number;
}

/** A robots.txt fetch as cached in the store, per origin (scheme, host, port). */
export interface RobotsCacheEntry {
  origin: string;
  /** ISO 8601 times. */
  fetchedAt: string;
  expiresAt: string;
  /** ok: 2xx body parsed; unavailable: 4xx (allow all, or deny all in draft mode for 401/403);
   * unreachable: 5xx or network error (deny all). */
  outcome: 'ok' | 'unavailable' | 'unreachable';
  status: number;
  /** The body as text, for `ok`. */
  body: string;
  /** Consecutive unreachable fetches, for backoff. */
  failures: number;
}

/**
 * Counters a crawl leaves in the store for the stats page: of the whole crawl, all runs together. The
 * per-page counts (pagesByState, pagesByStatus, errors, duplicates) count each stored page once, by its
 * latest fetch (a 304 counts as status 304); they are recounted from the stored pages when a crawl starts.
 * The rest are written in the same atomic batch as each page, so a killed crawl resumes with them right.
 */
/** One origin's share of a crawl's counts. */
export interface HostTally {
  pages: number;
  errors: number;
  cut: number;
}

export interface CrawlStats {
  startedAt: string;
  finishedAt?: string;
  seeds: string[];
  pagesByState: Partial<Record<PageState, number>>;
  pagesByStatus: Record<string, number>;
  hosts: number;
  requests: number;
  bytes: number;
  errors: number;
  /** URLs blocked by robots.txt, keyed by `origin line: rule`. */
  blockedByRule: Record<string, number>;
  /** URLs cut as traps, keyed by reason. */
  trapsCut: Record<string, number>;
  /** The first URL cut for each reason, to show what the rule cut. */
  trapExamples?: Record<string, string>;
  /** Per origin (`scheme://host:port`): pages stored, error pages among them, URLs cut as traps. Absent in
   * stats written before it was kept; blocked URLs per origin are in `blockedByRule`'s keys. */
  byHost?: Record<string, HostTally>;
  /** Error pages by reason (crawler/error-reason.ts), recounted on resume like the other page counts. */
  errorsByReason?: Record<string, number>;
  duplicates: number;
  outOfScope: number;
}
