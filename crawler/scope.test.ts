import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isGleanerError } from '../shared/errors.js';
import { compileUrlPattern, hostWithoutWww, inScope, makeScopeFilter, registrableDomain } from './scope.js';

const SEEDS = ['http://docs.example.org/start/'];

describe('scope host (the default)', () => {
  const f = makeScopeFilter(SEEDS, { scope: 'host' });
  it('keeps the seed host, whatever the scheme, port or path', () => {
    expect(f('http://docs.example.org/other')).toBe(true);
    expect(f('https://docs.example.org:8443/x?y=1')).toBe(true);
  });
  it('drops other hosts, subdomains and the parent domain', () => {
    expect(f('http://example.org/')).toBe(false);
    expect(f('http://api.docs.example.org/')).toBe(false);
    expect(f('http://other.test/')).toBe(false);
  });
  it('treats www.host and host as one site', () => {
    const g = makeScopeFilter(['http://example.org/'], { scope: 'host' });
    expect(g('http://www.example.org/a')).toBe(true);
    expect(makeScopeFilter(['http://www.example.org/'], { scope: 'host' })('https://example.org/')).toBe(true);
  });
  it('accepts any seed host among several', () => {
    const g = makeScopeFilter(['http://a.test/', 'http://127.0.0.1:8081/'], { scope: 'host' });
    expect(g('http://a.test/x')).toBe(true);
    expect(g('http://127.0.0.1:9999/y')).toBe(true);
    expect(g('http://127.0.0.2/y')).toBe(false);
  });
  it('never accepts what is not an http(s) URL', () => {
    expect(f('ftp://docs.example.org/')).toBe(false);
    expect(f('not a url')).toBe(false);
  });
});

describe('scope domain (registrable-ish)', () => {
  const f = makeScopeFilter(SEEDS, { scope: 'domain' });
  it('keeps every host under the last two labels', () => {
    expect(f('http://example.org/')).toBe(true);
    expect(f('http://www.example.org/')).toBe(true);
    expect(f('http://a.b.example.org/')).toBe(true);
    expect(f('http://example.com/')).toBe(false);
    expect(f('http://notexample.org/')).toBe(false);
  });
  it.each([
    ['www.example.co.uk', 'example.co.uk'],
    ['a.b.example.com.au', 'example.com.au'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['deep.sub.example.org', 'example.org'],
    ['example.org', 'example.org'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['Example.ORG.', 'example.org'],
    ['a.example.de', 'example.de'],
  ])('registrableDomain(%s) = %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain);
  });
  it('does not join two sites under a country second level', () => {
    const g = makeScopeFilter(['http://www.example.co.uk/'], { scope: 'domain' });
    expect(g('http://shop.example.co.uk/')).toBe(true);
    expect(g('http://other.co.uk/')).toBe(false);
  });
});

describe('scope any', () => {
  it('keeps every http(s) URL', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'any' });
    expect(f('http://anything.test/')).toBe(true);
    expect(f('https://x.y.z/')).toBe(true);
    expect(f('mailto:a@b.c')).toBe(false);
  });
});

describe('include and exclude patterns', () => {
  it('include: the URL must match at least one', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'host', include: ['/start/', '\\.html$'] });
    expect(f('http://docs.example.org/start/a')).toBe(true);
    expect(f('http://docs.example.org/x.html')).toBe(true);
    expect(f('http://docs.example.org/x.txt')).toBe(false);
  });
  it('exclude: the URL must match none, and wins over include', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'host', include: ['/start/'], exclude: ['/private/', '\\?print=1'] });
    expect(f('http://docs.example.org/start/private/x')).toBe(false);
    expect(f('http://docs.example.org/start/p?print=1')).toBe(false);
    expect(f('http://docs.example.org/start/public')).toBe(true);
  });
  it('patterns apply after scope: include cannot widen it', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'host', include: ['.*'] });
    expect(f('http://other.test/')).toBe(false);
  });
  it('accepts /regex/flags', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'host', exclude: ['/\\.PDF$/i'] });
    expect(f('http://docs.example.org/a.pdf')).toBe(false);
    expect(f('http://docs.example.org/a.html')).toBe(true);
  });
  it('reads /a/ without flags as the path it looks like, slashes and all, not as the regex `a`', () => {
    const f = makeScopeFilter(SEEDS, { scope: 'host', exclude: ['/a/'] });
    expect(f('http://docs.example.org/a/page')).toBe(false);
    expect(f('http://docs.example.org/cal?page=1')).toBe(true);
    expect(f('http://docs.example.org/s?a=1&b=2')).toBe(true);
  });
  it('accepts glob: patterns matching the whole URL, * for any run', () => {
    const re = compileUrlPattern('glob:http*://docs.example.org/api/*');
    expect(re.test('https://docs.example.org/api/v1?x=1')).toBe(true);
    expect(re.test('http://docs.example.org/guide/api/x')).toBe(false);
    expect(compileUrlPattern('glob:*.html').test('http://a.test/x.html?y')).toBe(false);
    expect(compileUrlPattern('glob:*?print=1').test('http://a.test/p?print=1')).toBe(true);
  });
  it('a glob matches exactly the strings with the literal parts in order (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (a, mid, b) => {
        expect(compileUrlPattern(`glob:${a.replace(/\*/g, '')}*${b.replace(/\*/g, '')}`).test(a.replace(/\*/g, '') + mid + b.replace(/\*/g, ''))).toBe(true);
      }),
    );
  });
  it('a glob of many stars answers on a long URL it does not match (no catastrophic backtracking)', () => {
    // Read as `^.*a.*a.*a.*a.*b$` the first took 5 s, and the last would take years: the old form never
    // returned from this test (it fails on the test's deadline), which the linear form passes at once.
    const re = compileUrlPattern('glob:*a*a*a*a*b');
    expect(re.test(`http://a.test/${'a'.repeat(120)}`)).toBe(false);
    expect(re.test(`http://a.test/${'a'.repeat(120)}b`)).toBe(true);
    expect(compileUrlPattern('glob:*a*a*a*a*a*a*a*a*a*a*a*a*b').test(`http://a.test/${'a'.repeat(5000)}`)).toBe(false);
  });
  it('a glob of several stars matches as the plain `.*` reading does (property)', () => {
    const naive = (glob: string) => new RegExp(`^${glob.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`);
    const text = fc.stringMatching(/^[ab1\\.*]{0,8}$/);
    fc.assert(
      fc.property(text, fc.stringMatching(/^[ab1\\.]{0,12}$/), (glob, url) => {
        expect(compileUrlPattern(`glob:${glob}`).test(url)).toBe(naive(glob).test(url));
      }),
      { numRuns: 2000 },
    );
  });
  it('rejects an invalid regular expression with a BAD_ARGUMENT naming it', () => {
    let err: unknown;
    try {
      makeScopeFilter(SEEDS, { scope: 'host', exclude: ['(unclosed'] });
    } catch (e) {
      err = e;
    }
    expect(isGleanerError(err) && err.code === 'BAD_ARGUMENT' && err.message.includes('(unclosed')).toBe(true);
  });
  it('rejects a seed that is not a URL', () => {
    expect(() => makeScopeFilter(['example.org'], { scope: 'host' })).toThrow(/not an absolute URL/);
  });
});

describe('inScope (one-shot form)', () => {
  it('agrees with the compiled filter', () => {
    expect(inScope('http://docs.example.org/x', SEEDS, { scope: 'host' })).toBe(true);
    expect(inScope('http://example.org/x', SEEDS, { scope: 'host' })).toBe(false);
    expect(inScope('http://example.org/x', SEEDS, { scope: 'domain' })).toBe(true);
  });
  it('hostWithoutWww drops only a leading www.', () => {
    expect(hostWithoutWww('WWW.Example.org')).toBe('example.org');
    expect(hostWithoutWww('www2.example.org')).toBe('www2.example.org');
  });
});

describe('inScope reuses its compiled filter only for the same inputs', () => {
  it('recompiles when the scope or the arrays change', () => {
    const seeds = ['http://a.test/'];
    const exclude = ['/x'];
    expect(inScope('http://a.test/x', seeds, { scope: 'host', exclude })).toBe(false);
    expect(inScope('http://a.test/y', seeds, { scope: 'host', exclude })).toBe(true);
    expect(inScope('http://a.test/x', seeds, { scope: 'host', exclude: ['/y'] })).toBe(true);
    expect(inScope('http://b.test/', seeds, { scope: 'any' })).toBe(true);
    expect(inScope('http://b.test/', seeds, { scope: 'host' })).toBe(false);
    expect(inScope('http://b.test/', ['http://b.test/'], { scope: 'host' })).toBe(true);
  });
});
