// The date filters `after:` and `before:` (as Google's operators are written): the pages whose date
// (SearchHit.date: the one they declare, else their Last-Modified) lies in a half-open range, as
// Elasticsearch's `gte` and `lt`. `after:2024-03` keeps pages dated from the first of March 2024 on,
// `before:2025` those dated before 2025, so `after:2024 before:2025` is the year 2024. A value names
// a year, a month or a day, in UTC. Pure.

const BOUND = /^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?$/;

/** A filter's value written back as `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, or undefined when it names no
 * real year (1900-2999), month or day. */
export function dateBound(value: string): string | undefined {
  const m = BOUND.exec(value.trim());
  if (m === null) return undefined;
  const year = Number(m[1]);
  if (year < 1900 || year > 2999) return undefined;
  if (m[2] === undefined) return m[1];
  const month = Number(m[2]);
  if (month < 1 || month > 12) return undefined;
  const yearMonth = `${m[1]}-${String(month).padStart(2, '0')}`;
  if (m[3] === undefined) return yearMonth;
  const day = Number(m[3]);
  if (day < 1 || new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  return `${yearMonth}-${String(day).padStart(2, '0')}`;
}

/** Where a bound written by dateBound starts, in UTC milliseconds: the first moment of its year, month or day. */
export function boundStartMs(bound: string): number {
  const [year, month = 1, day = 1] = bound.split('-').map(Number);
  return Date.UTC(year!, month - 1, day);
}

/** The later of two `after:` bounds, or the earlier of two `before:` bounds: every filter applies. */
export function narrower(kind: 'after' | 'before', a: string | undefined, b: string): string {
  if (a === undefined) return b;
  const later = boundStartMs(b) > boundStartMs(a);
  return kind === 'after' ? (later ? b : a) : later ? a : b;
}
