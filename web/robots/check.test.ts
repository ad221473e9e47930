import { describe, expect, it } from 'vitest';
import { checkPasted, urlList } from './check.js';

describe('urlList', () => {
  it('resolves paths against the site, keeps what was typed, skips what is no http(s) URL', () => {
    const { urls, notices } = urlList(' /a \n\nhttps://other.test/b\r\nftp://x/y\n', 'http://site.test/robots.txt', 10);
    expect(urls).toEqual([
      { input: '/a', url: 'http://site.test/a' },
      { input: 'https://other.test/b', url: 'https://other.test/b' },
    ]);
    expect(notices).toEqual(['"ftp://x/y" is not a URL or a path: skipped']);
  });

  it('caps the number of URLs with a notice', () => {
    const { urls, notices } = urlList('/1\n/2\n/3', 'http://s.test/', 2);
    expect(urls).toHaveLength(2);
    expect(notices).toEqual(['only the first 2 of 3 URLs were checked']);
  });
});

describe('checkPasted', () => {
  const robots = '\ufeffUser-agent: *\r\nDisallow: /private/ # staff only\r\nAllow: /private/press/\r\n';
  const urls = urlList('/private/a\n/private/press/b\n/', 'https://example.com/', 10).urls;

  it('gives each URL its verdict and the deciding line as written (BOM and CRLF handled)', () => {
    const report = checkPasted(robots, 'Gleaner', 'rfc9309', urls, []);
    expect(report.verdicts.map((v) => [v.allowed, v.line, v.lineText])).toEqual([
      [false, 2, 'Disallow: /private/ # staff only'],
      [true, 3, 'Allow: /private/press/'],
      [true, undefined, undefined],
    ]);
    expect(report.groupAgents).toEqual(['*']);
    expect(report.lines[0]).toBe('User-agent: *');
  });

  it('flags an agent that is not a product token', () => {
    expect(checkPasted(robots, 'Gleaner/2.0', 'rfc9309', urls, []).agentValid).toBe(false);
    expect(checkPasted(robots, 'Gleaner', 'rfc9309', urls, []).agentValid).toBe(true);
  });
});
