import { describe, expect, it } from 'vitest';
import { backoffMs, cacheCapSeconds, decide, decideStatus, freshnessSeconds, ROBOTS_DEFAULTS } from './policy.js';

const NOW = new Date('2026-01-10T12:00:00Z');

describe('RFC9309 2.3.1 what each outcome means', () => {
  it('2xx: obey the rules', () => {
    for (const s of [200, 203, 206]) expect(decideStatus(s, 'rfc9309')).toMatchObject({ outcome: 'ok', access: 'rules' });
  });
  it('4xx: unavailable, allow all (401, 403 and 429 included)', () => {
    for (const s of [400, 401, 403, 404, 410, 429]) expect(decideStatus(s, 'rfc9309')).toMatchObject({ outcome: 'unavailable', access: 'allow-all' });
  });
  it('5xx and network errors: unreachable, disallow all', () => {
    for (const s of [500, 502, 503, 504]) expect(decideStatus(s, 'rfc9309')).toMatchObject({ outcome: 'unreachable', access: 'disallow-all' });
    expect(decide({ kind: 'network-error', message: 'ECONNREFUSED' }, 'rfc9309')).toMatchObject({ outcome: 'unreachable', access: 'disallow-all' });
  });
  it('more than five redirects: unavailable, allow all', () => {
    expect(decide({ kind: 'too-many-redirects', hops: 6, status: 301 }, 'rfc9309')).toMatchObject({ outcome: 'too-many-redirects', access: 'allow-all' });
  });
  it('RFC9309 2.3.1.2 names no answer for a redirect that cannot be followed: as Google, a 404 (allow all), not a network error', () => {
    const d = decide({ kind: 'unusable-redirect', status: 301, location: 'file:///etc/passwd' }, 'rfc9309');
    expect(d).toEqual({ outcome: 'unavailable', access: 'allow-all', why: '301 to "file:///etc/passwd", which cannot be fetched: no robots.txt, allow all' });
    // A hostile Location is shown short and escaped.
    expect(decide({ kind: 'unusable-redirect', status: 302, location: `javascript:\n${'x'.repeat(500)}` }, 'draft').why).toMatch(/^302 to "javascript:\\nx{88}\.\.\.", which/);
  });
  it('draft (seed 003): 401 and 403 mean access is restricted, disallow all; 404 still allows all', () => {
    expect(decideStatus(401, 'draft').access).toBe('disallow-all');
    expect(decideStatus(403, 'draft').access).toBe('disallow-all');
    expect(decideStatus(404, 'draft').access).toBe('allow-all');
  });
});

describe('RFC9309 2.4 caching', () => {
  it('without caching headers a copy lives as long as the cap: 24 h by default', () => {
    expect(freshnessSeconds({}, 'rfc9309', NOW)).toBe(24 * 3600);
  });
  it('max-age is honoured up to the cap', () => {
    expect(freshnessSeconds({ 'cache-control': 'max-age=600' }, 'rfc9309', NOW)).toBe(600);
    expect(freshnessSeconds({ 'cache-control': 'max-age=999999' }, 'rfc9309', NOW)).toBe(24 * 3600);
    expect(freshnessSeconds({ 'cache-control': 'max-age=999999' }, 'draft', NOW, 7 * 86400)).toBe(7 * 86400);
  });
  it('no-store and no-cache mean "ask again"; a bad Expires means expired', () => {
    expect(freshnessSeconds({ 'cache-control': 'no-cache' }, 'rfc9309', NOW)).toBe(0);
    expect(freshnessSeconds({ expires: '0' }, 'rfc9309', NOW)).toBe(0);
  });
  it('the cap is configurable but never above the mode limit', () => {
    expect(cacheCapSeconds('rfc9309', 3600)).toBe(3600);
    expect(cacheCapSeconds('rfc9309', 30 * 86400)).toBe(ROBOTS_DEFAULTS.modeCapSeconds.rfc9309);
    expect(cacheCapSeconds('draft', 30 * 86400)).toBe(7 * 86400);
  });
});

describe('backoff after an unreachable robots.txt', () => {
  it('doubles with each failure up to the maximum', () => {
    expect(backoffMs(1, 1000, 10_000)).toBe(1000);
    expect(backoffMs(2, 1000, 10_000)).toBe(2000);
    expect(backoffMs(4, 1000, 10_000)).toBe(8000);
    expect(backoffMs(50, 1000, 10_000)).toBe(10_000);
  });
});
