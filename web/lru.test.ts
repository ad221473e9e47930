import { describe, expect, it } from 'vitest';
import { approxBytes } from './approx-bytes.js';
import { LruCache } from './lru.js';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond its size', () => {
    const c = new LruCache<number>({ maxEntries: 2 });
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });

  it('replacing a key keeps one entry; size 0 stores nothing', () => {
    const c = new LruCache<number>({ maxEntries: 2 });
    c.set('a', 1);
    c.set('a', 2);
    expect(c.size).toBe(1);
    expect(c.get('a')).toBe(2);
    const off = new LruCache<number>({ maxEntries: 0 });
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
  });

  it('with admitRepeatsAmong, keeps a value only when its key was set before among that many keys', () => {
    const c = new LruCache<number>({ maxEntries: 10, admitRepeatsAmong: 2 });
    c.set('a', 1);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
    c.set('a', 2);
    expect(c.get('a')).toBe(2);
    // Kept keys are not remembered again: replacing a kept value keeps it at once.
    c.set('a', 3);
    expect(c.get('a')).toBe(3);
    // Two other keys set once push 'b' out of the keys remembered: its next set is a first one.
    c.set('b', 1);
    c.set('x', 1);
    c.set('y', 1);
    c.set('b', 2);
    expect(c.get('b')).toBeUndefined();
    c.set('b', 3);
    expect(c.get('b')).toBe(3);
    expect(c.size).toBe(2);
  });

  it('holds its byte budget with large entries, evicting the least recently used', () => {
    const MiB = 1024 * 1024;
    const c = new LruCache<{ snippet: string }>({ maxEntries: 2000, maxBytes: MiB });
    // Each answer is ~200 KB: the entry count alone would keep all of them.
    const big = (i: number) => ({ snippet: `${i}`.padEnd(100_000, 'x') });
    for (let i = 0; i < 50; i++) {
      c.set(`q${i}`, big(i));
      expect(c.bytes).toBeLessThanOrEqual(MiB);
    }
    expect(c.size).toBe(5);
    expect(c.get('q44')).toBeUndefined();
    // q45 used last: the next answer pushes out q46, the least recently used.
    expect(c.get('q45')?.snippet.startsWith('45')).toBe(true);
    c.set('q50', big(50));
    expect(c.get('q46')).toBeUndefined();
    expect(c.get('q45')).toBeDefined();
    expect(c.bytes).toBeLessThanOrEqual(MiB);
    // An answer larger than the whole budget is not kept, and pushes nothing out.
    c.set('huge', { snippet: 'y'.repeat(MiB) });
    expect(c.get('huge')).toBeUndefined();
    expect(c.size).toBe(5);
    // Replacing an entry gives its bytes back.
    c.set('q49', { snippet: '' });
    expect(c.bytes).toBeLessThan(4 * 200_100);
  });
});

describe('approxBytes', () => {
  it('counts two bytes a string character, inside arrays and objects', () => {
    expect(approxBytes('x'.repeat(1000))).toBeGreaterThanOrEqual(2000);
    const hit = { url: 'u'.repeat(500), title: 't'.repeat(500), explain: { fields: [{ token: 'w'.repeat(1000), tf: 3 }] } };
    expect(approxBytes(hit)).toBeGreaterThanOrEqual(4000);
    expect(approxBytes([hit, hit])).toBeGreaterThan(2 * 4000);
  });
});
