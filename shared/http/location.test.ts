import { describe, expect, it } from 'vitest';
import { redirectLocation } from './location.js';

/** A header value as undici hands over raw bytes: one Latin-1 character per byte. */
const asUndici = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

describe('redirectLocation', () => {
  it('reads raw UTF-8 bytes as UTF-8, as browsers do', () => {
    expect(redirectLocation(asUndici('/ünï©ødé'))).toBe('/ünï©ødé');
    expect(new URL(redirectLocation(asUndici('/ü'))!, 'http://h/').pathname).toBe('/%C3%BC');
  });
  it('keeps ASCII, percent-encoded and non-UTF-8 bytes as they came', () => {
    expect(redirectLocation('/a%C3%BC?q=1')).toBe('/a%C3%BC?q=1');
    expect(redirectLocation('/caf\u00e9')).toBe('/caf\u00e9'); // the Latin-1 byte E9 alone is not UTF-8
  });
  it('has no location for none, and for two that differ; one repeated is one', () => {
    expect(redirectLocation(undefined)).toBeUndefined();
    expect(redirectLocation(['/a', '/b'])).toBeUndefined();
    expect(redirectLocation(['/a', '/a'])).toBe('/a');
  });
});
