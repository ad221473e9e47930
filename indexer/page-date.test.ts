import { describe, expect, it } from 'vitest';
import { DeployStamps, pageDateMs } from './page-date.js';

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

  it('keeps only the declared date when its host\'s Last-Modified is not trusted', () => {
    expect(pageDateMs({ fetchedAt: FETCHED, date: '2024-03-05T00:00:00.000Z', lastModified: 'Mon, 05 Jan 2026 10:00:00 GMT' }, false)).toBe(at('2024-03-05T00:00:00Z'));
    expect(pageDateMs({ fetchedAt: FETCHED, lastModified: 'Mon, 05 Jan 2026 10:00:00 GMT' }, false)).toBeUndefined();
  });
});

describe('DeployStamps', () => {
  const day = (d: number) => new Date(Date.UTC(2025, 0, d, 8 + (d % 5))).toUTCString();

  it('names a host whose pages mostly share one Last-Modified day, once it has enough pages to tell', () => {
    const stamps = new DeployStamps();
    // Installed together: 11 of 12 pages on the 3rd, at different hours.
    for (let i = 0; i < 11; i++) stamps.add('package.test', new Date(Date.UTC(2025, 0, 3, i)).toUTCString());
    stamps.add('package.test', day(20));
    // Edited over time: twelve pages on twelve days.
    for (let i = 1; i <= 12; i++) stamps.add('edited.test', day(i));
    // Too few to tell, though they share a day.
    for (let i = 0; i < 9; i++) stamps.add('small.test', day(3));
    // Exactly half on one day is not most.
    for (let i = 0; i < 6; i++) stamps.add('half.test', day(3));
    for (let i = 0; i < 6; i++) stamps.add('half.test', day(10 + i));
    // No Last-Modified, or none that reads, counts for nothing.
    for (let i = 0; i < 20; i++) stamps.add('none.test', i % 2 === 0 ? undefined : 'soon');
    expect([...stamps.deployed()]).toEqual(['package.test']);
  });
});
