// Site-wide title boilerplate: most sites end (or start) every title with the site's name, e.g.
// "json — JSON encoder and decoder — Python 3.11.2 documentation". Indexed as title words, that part
// matches every page equally and makes every title longer, so it is left out of the title field
// (the title shown in results keeps it). Pure.

import { isBlank } from '../shared/analysis/index.js';

/** Where a title splits into parts: dashes (a double hyphen too), pipes, colons and the like between spaces. */
const SEPARATOR = /\s+(?:[-–—|:·•»«]|::|--)\s+/u;

export interface TitleAffixes {
  prefix?: string;
  suffix?: string;
}

/** A part counts as boilerplate when at least this share of a host's titles (and MIN_PAGES of them) has it. */
const MIN_SHARE = 0.5;
const MIN_PAGES = 5;

/** The first and last parts most titles of one host share. */
export function commonAffixes(titles: readonly string[]): TitleAffixes {
  const firsts = new Map<string, number>();
  const lasts = new Map<string, number>();
  for (const title of titles) {
    const parts = title.split(SEPARATOR);
    if (parts.length < 2) continue;
    firsts.set(parts[0]!, (firsts.get(parts[0]!) ?? 0) + 1);
    lasts.set(parts[parts.length - 1]!, (lasts.get(parts[parts.length - 1]!) ?? 0) + 1);
  }
  const need = Math.max(MIN_PAGES, titles.length * MIN_SHARE);
  const top = (counts: Map<string, number>) => [...counts].filter(([, n]) => n >= need).sort((a, b) => b[1] - a[1])[0]?.[0];
  const prefix = top(firsts);
  const suffix = top(lasts);
  return { ...(prefix !== undefined ? { prefix } : {}), ...(suffix !== undefined ? { suffix } : {}) };
}

/** The title without the host's boilerplate parts; unchanged when that would leave nothing. */
export function stripAffixes(title: string, affixes: TitleAffixes): string {
  const parts = title.split(SEPARATOR);
  const separators = title.match(new RegExp(SEPARATOR.source, 'gu')) ?? [];
  let start = 0;
  let end = parts.length;
  if (affixes.suffix !== undefined && end - start > 1 && parts[end - 1] === affixes.suffix) end--;
  if (affixes.prefix !== undefined && end - start > 1 && parts[start] === affixes.prefix) start++;
  if (start === 0 && end === parts.length) return title;
  let out = parts[start]!;
  for (let i = start + 1; i < end; i++) out += separators[i - 1]! + parts[i]!;
  return out;
}

/** The longest heading taken for a page's missing title. */
const MAX_HEADING_TITLE_CHARS = 200;

/**
 * A page's title, or its first heading when the title is empty (git-doc's
 * howto/coordinate-embargoed-releases.html has `<title></title>` and a result showed nothing to click):
 * the heading names the page, as a browser's tab would show the address instead.
 */
export function pageTitle(page: { title: string; headings: readonly string[] }): string {
  if (!isBlank(page.title)) return page.title;
  const heading = page.headings.find((h) => !isBlank(h))?.trim() ?? '';
  return heading.length > MAX_HEADING_TITLE_CHARS ? `${heading.slice(0, MAX_HEADING_TITLE_CHARS)}…` : heading;
}
