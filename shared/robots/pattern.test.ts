import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern, matchesPath, normalizeForMatching, type MatchWork } from './pattern.js';

const matches = (pattern: string, path: string) => matchesPath(compilePattern(pattern), path);

/** A reference reading of RFC 9309 section 2.2.3 for small inputs: the pattern as an anchored-at-start regex. */
function reference(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`, 's').test(path);
}

describe('RFC9309 2.2.3 special characters', () => {
  it('a pattern without wildcards matches the paths it is a prefix of', () => {
    expect(matches('/fish', '/fish.html')).toBe(true);
    expect(matches('/fish', '/Fish.html')).toBe(false);
    expect(matches('/fish/', '/fish')).toBe(false);
  });
  it('* matches any sequence of characters, including none', () => {
    expect(matches('/*.php', '/a/b.php?x')).toBe(true);
    expect(matches('/fish*.php', '/fish.php')).toBe(true);
    expect(matches('/a*b*c', '/aXXbYYc')).toBe(true);
    expect(matches('/a*b*c', '/aXXcYYb')).toBe(false);
  });
  it('$ at the end anchors the pattern to the end of the path', () => {
    expect(matches('/*.php$', '/x.php')).toBe(true);
    expect(matches('/*.php$', '/x.php?y')).toBe(false);
    expect(matches('/$', '/')).toBe(true);
    expect(matches('/$', '/a')).toBe(false);
  });
  it('$ elsewhere is a literal character', () => {
    expect(matches('/a$b', '/a$b/c')).toBe(true);
    expect(matches('/a$b', '/ab')).toBe(false);
  });
  it('an anchored tail must come after what the earlier segments matched', () => {
    expect(matches('/ab*ba$', '/aba')).toBe(false);
    expect(matches('/ab*ba$', '/abba')).toBe(true);
  });
  it('agrees with a regular-expression reading on random small patterns and paths', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '*', '$');
    const pathChars = fc.constantFrom('a', 'b', '/', '$');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 8 }), fc.array(pathChars, { maxLength: 10 }), (p, s) => {
        const pattern = '/' + p.join('');
        const path = '/' + s.join('');
        expect(matches(pattern, path)).toBe(reference(pattern, path));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('RFC9309 2.2.2 percent-encoding before comparison', () => {
  it('encodes octets outside ASCII as UTF-8 escapes', () => {
    expect(normalizeForMatching('/foo/bar/ツ')).toBe('/foo/bar/%E3%83%84');
  });
  it('upper-cases escapes and decodes those of unreserved characters', () => {
    expect(normalizeForMatching('/a%3cd/%7ejoe/%2f')).toBe('/a%3Cd/~joe/%2F');
    expect(normalizeForMatching('/foo/bar/%62%61%7A')).toBe('/foo/bar/baz');
  });
  it('counts the octets of the normalized pattern as its priority', () => {
    expect(compilePattern('/ツ').octets).toBe('/%E3%83%84'.length);
  });
});

describe('RFC9309 2.2.3 matching is linear: no backtracking', () => {
  const bound = (path: string, pattern: string) => 2 * (path.length + pattern.length) + 2;

  it('the work counter grows with the input (it measures something)', () => {
    const work: MatchWork = { steps: 0 };
    matchesPath(compilePattern('/*x'), '/' + 'a'.repeat(100), work);
    expect(work.steps).toBeGreaterThanOrEqual(100);
  });

  it('never takes more than 2 x (path + pattern) character steps, on adversarial random inputs', () => {
    // A two-letter alphabet makes near-matches everywhere: the case that makes backtracking explode.
    const chars = fc.constantFrom('a', 'a', 'a', 'b');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.array(chars, { maxLength: 6 }).map((a) => a.join('')), fc.constant('*')), { maxLength: 30 }),
        fc.boolean(),
        fc.array(chars, { maxLength: 400 }),
        (parts, anchored, pathChars) => {
          const pattern = '/' + parts.join('') + (anchored ? '$' : '');
          const path = '/' + pathChars.join('');
          const work: MatchWork = { steps: 0 };
          matchesPath(compilePattern(pattern), path, work);
          expect(work.steps).toBeLessThanOrEqual(bound(path, pattern));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a 20-wildcard pattern against a 2,000-character path stays within the linear bound', () => {
    const pattern = '/' + Array.from({ length: 20 }, () => 'a*').join('') + 'aab$';
    const path = '/' + 'a'.repeat(1999);
    const work: MatchWork = { steps: 0 };
    expect(matchesPath(compilePattern(pattern), path, work)).toBe(false);
    expect(work.steps).toBeLessThanOrEqual(bound(path, pattern));
  });
});
