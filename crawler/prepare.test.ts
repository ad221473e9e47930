// Crawl options a user must fix are refused before anything is fetched, in one line naming the key.

import { describe, expect, it } from 'vitest';
import { prepareCrawl } from './prepare.js';

const base = { dataDir: 'data', seeds: ['http://a.example/'] };

describe('prepareCrawl', () => {
  it('refuses document limits that would make every PDF and Word document an error page', () => {
    expect(() => prepareCrawl({ ...base, documentMemoryMb: -4 })).toThrow(/^documentMemoryMb must be a number of at least 128 \(got -4\)$/);
    expect(() => prepareCrawl({ ...base, documentTimeoutMs: 0 })).toThrow(/^documentTimeoutMs must be a number from 1 to 2147483647/);
    expect(() => prepareCrawl({ ...base, pdfMaxPages: Number.NaN })).toThrow(/^pdfMaxPages must be a whole number of at least 1 \(got NaN\)$/);
    expect(prepareCrawl({ ...base, documentMemoryMb: 128 }).options.documentMemoryMb).toBe(128);
  });

  it('refuses a host limit that would give every host up at its first failed request', () => {
    expect(() => prepareCrawl({ ...base, maxHostFailures: 0 })).toThrow(/^maxHostFailures must be a whole number of at least 1 \(got 0\)$/);
    expect(() => prepareCrawl({ ...base, maxConnectFailures: -1 })).toThrow(/^maxConnectFailures must be a whole number of at least 1/);
    expect(prepareCrawl({ ...base, maxHostFailures: 1 }).options.maxHostFailures).toBe(1);
  });

  it('refuses a wait no timer holds, which would fire at once, or a negative one', () => {
    expect(() => prepareCrawl({ ...base, maxBackoffMs: 30 * 86_400_000 })).toThrow(/^maxBackoffMs must be a number from 0 to 2147483647 \(milliseconds; a timer holds about 24\.8 days\) \(got 2592000000\)$/);
    expect(() => prepareCrawl({ ...base, headersTimeoutMs: -1 })).toThrow(/^headersTimeoutMs must be/);
    expect(() => prepareCrawl({ ...base, leaseMarginMs: Number.POSITIVE_INFINITY })).toThrow(/^leaseMarginMs must be/);
    expect(prepareCrawl({ ...base, maxBackoffMs: 2 ** 31 - 1 }).options.maxBackoffMs).toBe(2 ** 31 - 1);
  });

  it('refuses config-only values that would break the crawl, each naming its key and range', () => {
    for (const [key, value, message] of [
      ['maxRetries', -1, /^maxRetries must be a whole number from 0 to 100 \(got -1\)$/],
      ['maxRetries', 1e9, /^maxRetries must be a whole number from 0 to 100/],
      ['maxBodyBytes', 0, /^maxBodyBytes must be a whole number of at least 1024 \(got 0\)$/],
      ['maxRedirects', -1, /^maxRedirects must be/],
      ['statusIntervalMs', 0, /^statusIntervalMs must be a number from 10 to/],
      ['robotsMaxCacheSeconds', -1, /^robotsMaxCacheSeconds must be a number of at least 0/],
      ['leaseBatchUrls', 0, /^leaseBatchUrls must be a whole number from 1 to 1000/],
    ] as const) {
      expect(() => prepareCrawl({ ...base, [key]: value }), key).toThrow(message);
    }
    expect(prepareCrawl({ ...base, maxRetries: 0, maxRedirects: 0 }).options).toMatchObject({ maxRetries: 0, maxRedirects: 0 });
  });

  it('refuses a seed that is not an http(s) URL', () => {
    expect(() => prepareCrawl({ ...base, seeds: ['ftp://a.example/'] })).toThrow(/^not an http\(s\) URL: ftp:\/\/a\.example\/$/);
  });
});
