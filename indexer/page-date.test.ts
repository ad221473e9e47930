import { describe, expect, it } from 'vitest';
import { pageDateMs } from './page-date.js';

const FETCHED = '2026-01-10T12:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('pageDateMs', () => {
  it('takes the declared date before the Last-Modified', () => {
    expect(pageDateMs({ fetchedAt: FETCHED, date: '2024-03-05T00:00:00.000Z', lastModified: 'Mon, 05 Jan 2026 10:00:00 GMT' })).toBe(at('2024-03-05T00:00:00Z'));
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'Mon, 05 Jan 2026 10:00:00 GMT' })).toBe(at('2026-01-05T10:00:00Z'));
  });

  it('leaves out a declared date past the fetch (beyond a day), and falls back to the Last-Modified', () => {
    expect(pageDateMs({ fetchedAt: FETCHED, date: '2026-01-11T06:00:00.000Z' })).toBe(at('2026-01-11T06:00:00Z'));
    expect(pageDateMs({ fetchedAt: FETCHED, date: '2030-01-01T00:00:00.000Z' })).toBeUndefined();
    expect(pageDateMs({ fetchedAt: FETCHED, date: '2030-01-01T00:00:00.000Z', lastModified: 'Sat, 03 Jan 2026 08:00:00 GMT' })).toBe(at('2026-01-03T08:00:00Z'));
  });

  it('leaves out a Last-Modified stamped as the server answered, or one that is no HTTP-date', () => {
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'Sat, 10 Jan 2026 12:00:00 GMT' })).toBeUndefined();
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'Sat, 10 Jan 2026 11:57:00 GMT' })).toBeUndefined();
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'Sat, 10 Jan 2026 11:50:00 GMT' })).toBe(at('2026-01-10T11:50:00Z'));
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'yesterday' })).toBeUndefined();
    expect(pageDateMs({ fetchedAt: FETCHED })).toBeUndefined();
  });
});
