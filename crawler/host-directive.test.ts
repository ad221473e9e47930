import { describe, expect, it } from 'vitest';
import { preferredHostUrl } from './host-directive.js';
import { makeCanonicalizer } from '../shared/url.js';

describe('robots.txt Host directive (Geoportal, seed 000)', () => {
  it('a full origin moves scheme, host and port: "must use https no matter what"', () => {
    expect(preferredHostUrl('http://mirror.example/a/b?x=1', 'https://myhost:8443')).toBe('https://myhost:8443/a/b?x=1');
  });
  it('a bare host keeps the scheme', () => {
    expect(preferredHostUrl('http://mirror.example/a', 'www.example.com')).toBe('http://www.example.com/a');
    expect(preferredHostUrl('http://mirror.example/a', 'www.example.com:8080')).toBe('http://www.example.com:8080/a');
  });
  it('the same origin, an empty or unusable value changes nothing', () => {
    expect(preferredHostUrl('http://www.example.com/a', 'www.example.com')).toBeUndefined();
    expect(preferredHostUrl('http://www.example.com/a', '   ')).toBeUndefined();
    expect(preferredHostUrl('http://www.example.com/a', 'ftp://files.example.com')).toBeUndefined();
    expect(preferredHostUrl('http://www.example.com/a', 'not a host name')).toBeUndefined();
  });
  it('the moved URL is canonical as the crawl canonicalizes: its parameters kept or stripped as the crawl was told', () => {
    const url = 'http://mirror.example/a?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9&ref=x';
    expect(preferredHostUrl(url, 'www.example.com', makeCanonicalizer({ stripParams: ['ref'] }).canonicalize)).toBe('http://www.example.com/a?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9');
    expect(preferredHostUrl(url, 'www.example.com', makeCanonicalizer().canonicalize)).toBe('http://www.example.com/a?ref=x');
  });
});
