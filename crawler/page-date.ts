// A page's own date: when it says it was published, else when it says it last changed, read from the
// metadata publishers write for search engines, feeds and citation tools (Open Graph's article:*,
// schema.org's datePublished as microdata or JSON-LD, Dublin Core, Highwire's citation_*, HTML's
// `<time pubdate>`) and from a PDF's Info dictionary. Results show it and `sort=date` orders by it
// (indexer/page-date.ts chooses between it and the HTTP Last-Modified). Only dates written as
// machine-readable metadata: a date in the text ("Posted 5 March") is the reader's, in any language
// and order, and guessing it is how crawlers get the year of a copyright line. Pure.

/** Where a date was declared, best first: a publication date before a modification date, a named
 * standard before a generic `<meta name=date>`. */
const SOURCE_RANK: Readonly<Record<string, number>> = {
  'property:article:published_time': 0,
  'itemprop:datepublished': 1,
  'name:citation_publication_date': 2,
  'name:dcterms.issued': 3,
  'name:dc.date.issued': 3,
  'name:dcterms.created': 4,
  'name:dc.date.created': 4,
  'name:dcterms.date': 5,
  'name:dc.date': 5,
  'name:citation_date': 5,
  'time:pubdate': 6,
  'name:date': 7,
  'property:article:modified_time': 8,
  'itemprop:datemodified': 8,
  'name:dcterms.modified': 9,
  'name:dc.date.modified': 9,
  'property:og:updated_time': 10,
  'name:last-modified': 11,
};

/** The earliest and latest years read as a page's date: outside them a date is a typo or a placeholder
 * ("0000-00-00", "9999-12-31"). */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2999;

// ISO 8601 / RFC 3339 as publishers write it: a full date, then an optional time (`T` or a space),
// fraction and zone. A date without a day ("2024-03") is left out: shown as a day it would invent one.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
// Dublin Core and Highwire also see "2024/03/05".
const SLASHED = /^(\d{4})\/(\d{2})\/(\d{2})$/;
// A PDF date (PDF 32000-1 7.9.4): D:YYYYMMDDHHmmSS then a zone as Z, or +HH'mm'.
const PDF = /^D:(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(\d{2})?)?\s*(Z|[+-]\d{2}(?:'?\d{2}'?)?)?/;

/** UTC milliseconds of the parts, or undefined when they name no real day and time ("2023-02-30"). */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, zone = ''): number | undefined {
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(at).getUTCDate() !== day) return undefined;
  const offset = /^([+-])(\d{2})[:']?(\d{2})?/.exec(zone);
  if (offset === null) return at;
  const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? 0);
  return minutes > 14 * 60 ? undefined : at - (offset[1] === '-' ? -1 : 1) * minutes * 60_000;
}

const number = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

/** A declared date as milliseconds since the epoch (a time without a zone read as UTC), or undefined
 * when `text` is no full date in one of the forms above. */
export function parseDeclaredDate(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed.length > 64) return undefined;
  const iso = ISO.exec(trimmed) ?? SLASHED.exec(trimmed);
  if (iso !== null) return utcMs(Number(iso[1]), Number(iso[2]), Number(iso[3]), number(iso[4]), number(iso[5]), number(iso[6]), iso[7] ?? '');
  const pdf = PDF.exec(trimmed);
  if (pdf !== null) return utcMs(Number(pdf[1]), Number(pdf[2]), Number(pdf[3]), number(pdf[4]), number(pdf[5]), number(pdf[6]), pdf[7] ?? '');
  return undefined;
}

/** Collects a page's declared dates as the parser meets them and keeps the best source's. */
export class DeclaredDate {
  private rank = Infinity;
  private at: number | undefined;

  /** A date declared by `source` (`property:…`, `name:…`, `itemprop:…` or `time:pubdate`, lower-case):
   * kept when its source ranks before the one kept and it parses; says whether it was kept. */
  offer(source: string, text: string): boolean {
    const rank = SOURCE_RANK[source];
    if (rank === undefined || rank >= this.rank) return false;
    const at = parseDeclaredDate(text);
    if (at === undefined) return false;
    this.rank = rank;
    this.at = at;
    return true;
  }

  /** The date as an ISO 8601 UTC string, or undefined when the page declared none that parsed. */
  get iso(): string | undefined {
    return this.at === undefined ? undefined : new Date(this.at).toISOString();
  }
}

/** JSON-LD properties that date a page, and the microdata source each counts as. */
const LINKED_DATA_DATES: readonly [string, string][] = [
  ['datePublished', 'itemprop:datepublished'],
  ['dateModified', 'itemprop:datemodified'],
];
/** Objects of a JSON-LD block looked at, at most: a page's own entities come first (breadth first),
 * and a block of thousands (a product catalogue) is not the page's date. */
const MAX_LINKED_DATA_NODES = 1_000;

/**
 * The dates a `<script type="application/ld+json">` block gives (schema.org's datePublished and
 * dateModified), offered to `into` a level at a time: the page's own entities (an Article, the items
 * of an `@graph`) first, and what they hold (a comment's datePublished) only when no entity above it
 * gave a date, which a better-ranked source further down would otherwise replace. A block that is no
 * JSON gives none.
 */
export function offerLinkedData(json: string, into: DeclaredDate): void {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return;
  }
  // Only objects and arrays are queued, and no more of them than are looked at.
  let queued = 0;
  let level: unknown[] = [];
  const enqueue = (into: unknown[], value: unknown): void => {
    if (value !== null && typeof value === 'object' && queued < MAX_LINKED_DATA_NODES) {
      into.push(value);
      queued++;
    }
  };
  enqueue(level, data);
  while (level.length > 0) {
    const next: unknown[] = [];
    let dated = false;
    for (const node of level) {
      if (Array.isArray(node)) {
        // An array's items are the level below it, as the items of an @graph are.
        for (const item of node as unknown[]) enqueue(next, item);
        continue;
      }
      const entity = node as Record<string, unknown>;
      for (const [key, source] of LINKED_DATA_DATES) {
        const value = entity[key];
        if (typeof value === 'string' && into.offer(source, value)) dated = true;
      }
      for (const value of Object.values(entity)) enqueue(next, value);
    }
    if (dated) return;
    level = next;
  }
}
