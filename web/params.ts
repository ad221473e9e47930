// Reading request parameters defensively: a parameter may be missing, repeated (`?q=a&q=b` arrives
// as an array) or nonsense. Pure helpers; routes turn a failure into a 400 via HttpError.

import { HttpError } from './http-error.js';
import { SORT_ORDERS, type SortOrder } from './search/index.js';

/** The first string value of a query or form parameter, or '' when there is none. */
export function stringParam(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const first: unknown = value.find((v) => typeof v === 'string');
    return typeof first === 'string' ? first : '';
  }
  return '';
}

/** Control characters (C0 but tab, line feed and carriage return; DEL; C1): no word of a query, and
 * never echoed into a page (a NUL in a <title> or an input's value is an HTML parse error). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** stringParam's text with its control characters as spaces: what a query parameter is read as. */
export function textParam(value: unknown): string {
  return stringParam(value).replace(CONTROL, ' ');
}

/** A whole number parameter in [min, max]; absent or empty gives `fallback`, anything else a 400. */
export function intParam(value: unknown, name: string, fallback: number, min: number, max: number): number {
  const raw = stringParam(value).trim();
  if (raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** A yes/no flag parameter: `1` or `true` is yes, anything else (or nothing) no. */
export function flagParam(value: unknown): boolean {
  const raw = stringParam(value).trim().toLowerCase();
  return raw === '1' || raw === 'true';
}

/** The `sort` parameter: one of SORT_ORDERS ('relevance', 'date'); absent or empty gives 'relevance',
 * anything else a 400 naming the orders. */
export function sortParam(value: unknown): SortOrder {
  const raw = stringParam(value).trim().toLowerCase();
  if (raw === '') return 'relevance';
  const found = SORT_ORDERS.find((order) => order === raw);
  if (found === undefined) throw new HttpError(400, `sort must be ${SORT_ORDERS.join(' or ')}`);
  return found;
}
