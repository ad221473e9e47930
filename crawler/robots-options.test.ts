import { describe, expect, it } from 'vitest';
import { resolveCrawlOptions } from './options.js';
import { blockingRule, crawlRobotsOptions, respectsRobots } from './robots-options.js';

const O = 'http://a.test';

describe('how the crawl asks for and obeys robots.txt', () => {
  it('a --site setting wins over --respect-robots', () => {
    const base = resolveCrawlOptions({ dataDir: 'd', seeds: [] });
    expect(respectsRobots(base, O)).toBe(true);
    expect(respectsRobots({ ...base, respectRobots: false }, O)).toBe(false);
    expect(respectsRobots({ ...base, respectRobots: false, sites: { [O]: 'always' } }, O)).toBe(true);
    expect(respectsRobots({ ...base, sites: { [O]: 'never' } }, O)).toBe(false);
    expect(respectsRobots({ ...base, respectRobots: false, sites: { [O]: 'inherit' } }, O)).toBe(false);
  });
  it('robots.txt must come within the time to headers and the request deadline; the site setting rides along', () => {
    const options = resolveCrawlOptions({ dataDir: 'd', seeds: [], headersTimeoutMs: 9_000, requestTimeoutMs: 4_000, robotsBackoffMs: 123, sites: { [O]: 'never' } });
    const r = crawlRobotsOptions(options, O, { userAgentHeader: 'UA', log: () => {} });
    expect([r.timeoutMs, r.backoffMs, r.respect, r.userAgentHeader, r.retryUnreachable]).toEqual([4_000, 123, 'never', 'UA', true]);
    expect(crawlRobotsOptions({ ...options, requestTimeoutMs: 60_000 }, 'http://b.test', { userAgentHeader: 'UA', log: () => {} })).toMatchObject({ timeoutMs: 9_000, respect: 'inherit' });
  });
  it('names the blocking rule by line, or says why the whole site is blocked', () => {
    const rule = { type: 'disallow' as const, pattern: '/private', line: 4 };
    expect(blockingRule({ allowed: false, rule })).toBe('line 4: disallow /private');
    expect(blockingRule({ allowed: false, rule: null, reason: 'robots.txt 401: whole site' })).toBe('robots.txt 401: whole site');
    expect(blockingRule({ allowed: false, rule: null })).toBe('whole site');
  });
});
