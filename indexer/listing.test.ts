import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_OPTIONS, listingShare } from './listing.js';

const page = (text: string, codeShare?: number) => ({ text, ...(codeShare !== undefined ? { codeShare } : {}) });

describe('listingShare', () => {
  it('is the content share inside <pre> of a page with next to no prose', () => {
    // 2,000 characters: 1,900 of code, 100 of breadcrumbs.
    expect(listingShare(page('x'.repeat(2000), 0.95), undefined)).toBeCloseTo(0.95, 6);
  });
  it('measures against the content text: the theme around a listing is template, not prose', () => {
    // 2,000 characters of text, 1,500 of them code; the content without its template is 1,600.
    expect(listingShare(page('x'.repeat(2000), 0.75), 'y'.repeat(1600))).toBeCloseTo(1500 / 1600, 6);
  });
  it('is 0 for a page with prose of its own however long its code (an article before a long sample output)', () => {
    const prose = DEFAULT_LISTING_OPTIONS.minProseChars;
    const text = 'x'.repeat(100_000);
    expect(listingShare(page(text, (text.length - prose) / text.length), undefined)).toBe(0);
    expect(listingShare(page(text, (text.length - prose + 1) / text.length), undefined)).toBeGreaterThan(0.99);
  });
  it('is 0 when the crawl did not measure it, and for an empty page', () => {
    expect(listingShare(page('x'.repeat(500)), undefined)).toBe(0);
    expect(listingShare(page('', 1), undefined)).toBe(0);
  });
  it('never passes 1, whatever the template took', () => {
    expect(listingShare(page('x'.repeat(1000), 1), 'y'.repeat(400))).toBe(1);
  });
});
