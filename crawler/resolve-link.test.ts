import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../shared/url.js';
import { linkResolver } from './resolve-link.js';

const resolveLink = (href: string, base: string, options: { stripParams?: string[] }) => linkResolver(base, options)(href);

const bases = [
  'http://a.example/docs/std/vec/struct.Vec.html',
  'http://a.example/docs/std/vec/index.html',
  'http://a.example/docs/std/vec/',
  'http://a.example/docs/std/vec/page?x=1/2',
  'http://a.example/docs/std/vec/page?x=1/3',
  'http://a.example/',
  'https://b.example:8443/a;jsessionid=1/b',
];
const hrefs = ['struct.Vec.html#method.push', 'struct.Vec.html#method.pop', '../index.html#', 'x?y#z', 'mailto:a@b#c', 'struct.Vec.html', '../index.html', '../../', '/abs', '//c.example/x', 'http://d.example/y?utm_source=z&k=1', '?q=2', '#top', 'x?sid=3', './', '..', 'mailto:x@y', 'sub/../z.html', '%7Euser/'];

describe('linkResolver: canonicalizeUrl with a cache that never changes an answer', () => {
  it('gives what canonicalizeUrl gives, for every base and href, asked in any order and again', () => {
    for (let round = 0; round < 2; round++) {
      for (const base of bases) {
        for (const href of hrefs) {
          expect(resolveLink(href, base, {}), `${href} against ${base}`).toBe(canonicalizeUrl(href, base, {}));
          expect(resolveLink(href, base, { stripParams: ['k'] })).toBe(canonicalizeUrl(href, base, { stripParams: ['k'] }));
        }
      }
    }
  });

  it('holds for generated paths and hrefs too', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', 'c.html', '%41', 'x?y=1', '');
    const path = fc.array(segment, { maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(path, path, path, (p1, p2, href) => {
        const b1 = canonicalizeUrl(`http://h.example/${p1}`);
        const b2 = canonicalizeUrl(`http://h.example/${p2}`);
        if (b1 === undefined || b2 === undefined || href.trim() === '') return;
        for (const base of [b1, b2, b1]) expect(resolveLink(href.trim(), base, {})).toBe(canonicalizeUrl(href.trim(), base, {}));
      }),
    );
  });

  it('keeps answering right after the cache fills and starts again', () => {
    const base = 'http://h.example/dir/page.html';
    const resolve = linkResolver(base, {});
    for (let i = 0; i < 25_000; i++) expect(resolve(`p${i}.html`)).toBe(`http://h.example/dir/p${i}.html`);
    expect(linkResolver('http://h.example/dir/other.html', {})('p1.html')).toBe('http://h.example/dir/p1.html');
    expect(linkResolver('http://h.example/else/x.html', {})('p1.html')).toBe('http://h.example/else/p1.html');
  });
});
