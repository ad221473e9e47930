// Small pure formatters the views share (available in every template as `fmt`).

import type { SortOrder } from './search/index.js';

// One formatter, built once: toLocaleString builds a new one on every call, in every result row.
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators: 12,345. */
export function count(n: number): string {
  return Number.isFinite(n) ? WHOLE.format(Math.round(n)) : '–';
}

/** A score or weight, with enough digits to compare: 3 significant below 10, else 1 decimal. */
export function score(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Math.abs(n) >= 10 ? n.toFixed(1) : n.toPrecision(3).replace(/\.?0+$/, '') || '0';
}

/** Seconds for a duration in ms, as search engines show it: 0.012 seconds. */
export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** Bytes in B, KiB, MiB or GiB. */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/** How long ago an ISO time was, in the largest whole unit: "3 hours ago". */
export function ago(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return 'unknown';
  const s = Math.round((now - t) / 1000);
  if (s < 0) return 'in the future';
  const steps: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of steps) {
    const v = Math.floor(s / size);
    if (v >= 1) return `${v} ${name}${v === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** What a decoded URL must not show: controls, bidi marks and reorderings, invisible spaces and joiners,
 * which browsers' address bars also keep escaped (a decoded U+202E shows ".../\u202Efdp.exe" as
 * ".../exe.pdf"). */
const KEEP_ESCAPED = /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff0-\ufffb]/g;

/** A URL for display: percent-escapes decoded where that gives text, cut at `max` characters. */
export function displayUrl(url: string, max = 90): string {
  let shown = url;
  try {
    shown = decodeURI(url).replace(KEEP_ESCAPED, (c) => encodeURIComponent(c));
  } catch {
    // keep the escaped form
  }
  const points = Array.from(shown);
  return points.length > max ? points.slice(0, max - 1).join('') + '…' : shown;
}

/** Characters that reorder the text after them (Unicode bidirectional controls): a query holding U+202E
 * showed the tab's title reversed after it, " · Gleaner" included. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text a user typed as a page title (which takes no markup to isolate it): bidirectional controls
 * left out, cut at `max` code points. */
export function titleText(text: string, max = 80): string {
  return Array.from(text.replace(BIDI_CONTROLS, '')).slice(0, max).join('');
}

/** The URL as a link target when it is http(s); anything else (javascript:, data:) is not linked. */
export function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** The gateway's own search link for a query and page. */
export function searchHref(q: string, page = 1, sort: SortOrder = 'relevance'): string {
  return `/search?q=${encodeURIComponent(q)}${sort !== 'relevance' ? `&sort=${sort}` : ''}${page > 1 ? `&page=${page}` : ''}`;
}

/** A search link for the query exactly as typed: no automatic spelling correction (`literal=1`). */
export function literalHref(q: string, sort: SortOrder = 'relevance'): string {
  return `${searchHref(q, 1, sort)}&literal=1`;
}

/** The day of an ISO 8601 date (SearchHit.date) as results show it: `2024-03-05`, the form every reader
 * and every locale reads alike. */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

export const fmt = { count, score, seconds, bytes, ago, day, displayUrl, safeHref, searchHref, literalHref };
