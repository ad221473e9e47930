// The checker: the common mistakes of seed 001 in one real file, line by line, then each check that
// needs a file of its own, and the WebWatch statistics of seed 002.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_LIST_THRESHOLD, lintRobots, type LintReport } from './lint.js';
import { PARSE_LIMIT_BYTES } from './parse.js';

const codes = (r: LintReport) => r.findings.map((f) => `${f.line ?? 'file'} ${f.severity} ${f.code}`);
const has = (body: string | Uint8Array, code: string, options = {}) => lintRobots(body, options).findings.some((f) => f.code === code);

describe('seed 001: the common robots.txt mistakes, each found on its line', () => {
  const report = lintRobots(readFileSync(new URL('fixtures/seed001-mistakes.txt', import.meta.url)));
  it('reports exactly the mistakes the fixture holds', () => {
    expect(codes(report).sort()).toEqual(
      [
        '1 error rule-outside-group', // error 1: a rule before any User-agent
        '2 error user-agent-empty',
        '5 error several-paths', // error 2: several directories on one Disallow line
        '6 warning end-of-line-comment', // error 4
        '7 warning leading-whitespace', // error 5
        '8 warning key-typo',
        '9 warning missing-colon',
        '9 error path-start', // error 10-like: a path without its leading slash
        '10 warning dollar-not-at-end',
        '11 error crawl-delay-not-numeric',
        '12 error host-not-a-host',
        '13 error sitemap-relative',
        '14 warning unknown-field',
        '15 warning contradiction', // error 7: contradicting lines
        '16 info long-file-list', // error 8: listing every file
        '27 warning repeated-group',
        '30 warning group-without-rules',
      ].sort(),
    );
  });
  it('counts errors and warnings', () => {
    expect(report.errors).toBe(7);
    expect(report.warnings).toBe(9);
  });
  it('suggests the directory for a long file list', () => {
    expect(report.findings.find((f) => f.code === 'long-file-list')?.message).toContain('Disallow: /AL/');
  });
});

describe('checks on the whole file', () => {
  it('an empty file', () => expect(has('', 'empty-file')).toBe(true));
  it('DOS line endings (seed 001 error 3) and lone CR endings', () => {
    expect(has('User-agent: *\r\nDisallow: /\r\n', 'dos-line-endings')).toBe(true);
    expect(has('User-agent: *\rDisallow: /\r', 'cr-line-endings')).toBe(true);
    expect(has('User-agent: *\nDisallow: /\n', 'dos-line-endings')).toBe(false);
  });
  it('HTML served as robots.txt (seed 001 error 6), by content or by Content-Type, says whether rules were found', () => {
    expect(codes(lintRobots('<!DOCTYPE html><html><body>Not found</body></html>'))).toEqual(['file error html']);
    expect(lintRobots('<!DOCTYPE html>\n<p>Not found</p>').findings[0]?.message).toContain('read as empty');
    // RFC 9309 2.2: rules in an HTML body are obeyed, and the linter says so rather than "no rule applies".
    const withRules = lintRobots('<!DOCTYPE html>\n<html><body><pre>\nUser-agent: *\nDisallow: /private/\n</pre></body></html>\n');
    expect(codes(withRules)).toEqual(['file error html-with-rules']);
    expect(withRules.findings[0]?.message).toContain('1 Allow/Disallow line(s)');
    expect(withRules.findings[0]?.message).toContain('Gleaner obeys them');
    expect(has('User-agent: *\nDisallow: /\n', 'html-with-rules', { contentType: 'text/html; charset=utf-8' })).toBe(true);
    expect(has('User-agent: *\nDisallow: /\n', 'html', { contentType: 'text/html; charset=utf-8' })).toBe(false);
    expect(has('User-agent: *\nDisallow: /\n', 'html-with-rules', { contentType: 'text/plain' })).toBe(false);
  });
  it('a file larger than the parse limit', () => {
    const big = 'User-agent: *\n' + '# filler line\n'.repeat(Math.ceil(PARSE_LIMIT_BYTES / 14) + 10);
    expect(has(big, 'too-large')).toBe(true);
    expect(has('User-agent: *\nDisallow: /\n', 'too-large')).toBe(false);
  });
  it('a clean file has no findings', () => {
    expect(lintRobots('# robots.txt for example.org\nUser-agent: *\nDisallow: /cgi-bin/\n\nSitemap: https://example.org/sitemap.xml\n').findings).toEqual([]);
  });
});

describe('checks on lines', () => {
  it('a misspelt Allow is an error (ignored, it opens nothing); a misspelt Disallow a warning (obeyed)', () => {
    const r = lintRobots('User-agent: *\nDisallow: /private/\nalow: /private/open.html\ndissallow: /tmp/\n');
    expect(codes(r)).toEqual(['3 error allow-typo', '4 warning key-typo']);
    expect(r.findings[0]?.message).toContain('Gleaner ignores this line');
  });
  it('User-agent values that are not product tokens', () => {
    expect(lintRobots('User-agent: Slurp Webcrawler\nDisallow: /\n').findings[0]?.message).toContain('"Slurp"');
  });
  it('extension fields some robots read are information, other unknown fields warnings', () => {
    const r = lintRobots('User-agent: *\nDisallow: /x\nRequest-rate: 1/5\nClean-param: ref /forum\nFoo: bar\n');
    expect(codes(r)).toEqual(['3 info extension-field', '4 info extension-field', '5 warning unknown-field']);
  });
  it('Host accepts a host name with scheme and port, nothing else', () => {
    expect(has('User-agent: *\nDisallow:\nHost: https://myhost:8443\n', 'host-not-a-host')).toBe(false);
    expect(has('User-agent: *\nDisallow:\nHost: not a host\n', 'host-not-a-host')).toBe(true);
  });
  it(`a long file list starts at ${FILE_LIST_THRESHOLD} files of one directory`, () => {
    const list = (n: number) => 'User-agent: *\n' + Array.from({ length: n }, (_, i) => `Disallow: /dir/f${i}.html\n`).join('');
    expect(has(list(FILE_LIST_THRESHOLD), 'long-file-list')).toBe(true);
    expect(has(list(FILE_LIST_THRESHOLD - 1), 'long-file-list')).toBe(false);
  });
});

describe('seed 002: WebWatch statistics', () => {
  it('size, lines, comment and blank lines, groups and rules per agent', () => {
    const body = '# comment\nUser-agent: *\nDisallow: /a\nDisallow: /b\n\nUser-agent: Gleaner\nUser-agent: Other\nDisallow: /c\n';
    expect(lintRobots(body).stats).toEqual({
      sizeBytes: Buffer.byteLength(body),
      lines: 8,
      commentLines: 1,
      blankLines: 1,
      groups: 2,
      rules: 3,
      rulesPerAgent: { '*': 2, Gleaner: 1, Other: 1 },
      sitemaps: 0,
      lineEndings: { lf: 8, crlf: 0, cr: 0 },
    });
  });
  it('counts agents named like properties of every object as any other', () => {
    const body = 'User-agent: constructor\nDisallow: /a\n\nUser-agent: __proto__\nDisallow: /b\nDisallow: /c\n\nUser-agent: toString\nAllow: /\n';
    expect(Object.entries(lintRobots(body).stats.rulesPerAgent)).toEqual([['constructor', 1], ['__proto__', 2], ['toString', 1]]);
  });
});

describe('robustness', () => {
  it('random bytes never throw, and every finding points at a line of the file', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1500 }), fc.constantFrom(undefined, 'text/html', 'text/plain; charset=utf-8', ''), (bytes, contentType) => {
        const report = lintRobots(bytes, contentType === undefined ? {} : { contentType });
        for (const f of report.findings) if (f.line !== null) expect(f.line).toBeLessThanOrEqual(Math.max(1, report.stats.lines));
      }),
      { numRuns: 300 },
    );
  });
});

describe('seeds 001 and 004: the non-standard lines, with what each crawler family does with them', () => {
  const report = lintRobots('User-agent: *\nCrawl-delay: 10\nDisallow: /tmp/\n\nHost: www.example.ru\n');
  it('a Crawl-delay with a unit is a warning saying how Gleaner reads it and how to write it', () => {
    const loose = lintRobots('User-agent: *\nCrawl-delay: 5s\nDisallow: /tmp/\n');
    expect(codes(loose)).toEqual(['2 warning crawl-delay-loose']);
    expect(loose.findings[0]!.message).toContain('as 5 seconds');
    expect(loose.findings[0]!.message).toContain('write "5"');
  });
  it('a valid Crawl-delay and Host are notes (not errors), naming who obeys them', () => {
    expect(codes(report)).toEqual(['2 info crawl-delay-nonstandard', '5 info host-nonstandard']);
    const [delay, host] = report.findings.map((f) => f.message);
    expect(delay).toMatch(/not in RFC 9309.*Slurp.*Bingbot.*Googlebot ignores it.*Gleaner waits/);
    expect(host).toMatch(/Yandex extension naming the main mirror.*--use-robots-host/);
    expect([report.errors, report.warnings]).toEqual([0, 0]);
  });
});

describe('a UTF-16 robots.txt', () => {
  it('is an error to fix (RFC 9309 asks for UTF-8), its rules read all the same', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('User-agent: *\nDisallow: /secret\n', 'utf16le')]);
    const report = lintRobots(new Uint8Array(bytes));
    expect(report.findings.find((f) => f.code === 'utf-16')).toMatchObject({ severity: 'error', line: 1 });
    expect(report.findings.some((f) => f.code.startsWith('unknown'))).toBe(false);
    expect(report.stats.rules).toBe(1);
  });
});
