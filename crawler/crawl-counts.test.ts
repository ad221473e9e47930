import { describe, expect, it } from 'vitest';
import { bump } from './crawl-counts.js';

describe('bump', () => {
  it('counts up and down, and leaves a count of 0 out', () => {
    const counts: Record<string, number> = {};
    bump(counts, 'ok', 1);
    bump(counts, 'ok', 1);
    bump(counts, 'error', 1);
    bump(counts, 'error', -1);
    expect(counts).toEqual({ ok: 2 });
  });

  it('counts a key named like a property of every object (a server\u2019s words) as any other', () => {
    const counts: Record<string, number> = {};
    for (const key of ['constructor', '__proto__', 'toString', 'constructor']) bump(counts, key, 1);
    expect(Object.entries(counts)).toEqual([['constructor', 2], ['__proto__', 1], ['toString', 1]]);
    expect(JSON.parse(JSON.stringify(counts))).toEqual({ constructor: 2, ['__proto__']: 1, toString: 1 });
    expect(Object.getPrototypeOf(counts)).toBe(Object.prototype);
  });
});
