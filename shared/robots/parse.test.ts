import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUrl, groupFor } from './match.js';
import { classifyKey, MAX_LINE_BYTES, PARSE_LIMIT_BYTES, parseCrawlDelay, parseRobots } from './parse.js';

const rulesOf = (body: string | Uint8Array) => parseRobots(body).groups.flatMap((g) => g.rules.map((r) => `${r.type} ${r.pattern} @${r.line}`));

describe('RFC9309 2.1 lines as servers send them', () => {
  it('LF, CRLF and CR end lines alike, and each ending is counted', () => {
    const lf = rulesOf('User-agent: a\nDisallow: /x\nAllow: /x/y\n');
    expect(lf).toEqual(['disallow /x @2', 'allow /x/y @3']);
    expect(rulesOf('User-agent: a\r\nDisallow: /x\r\nAllow: /x/y\r\n')).toEqual(lf);
    expect(rulesOf('User-agent: a\rDisallow: /x\rAllow: /x/y\r')).toEqual(lf);
    expect(parseRobots('a: b\r\nc: d\re: f\ng: h').lineEndings).toEqual({ lf: 1, crlf: 1, cr: 1 });
  });
  it('a UTF-8 byte order mark, or a prefix of one, is skipped', () => {
    const body = 'User-agent: a\nDisallow: /x\n';
    expect(rulesOf('\ufeff' + body)).toEqual(rulesOf(body));
    expect(rulesOf(Buffer.concat([Buffer.from([0xef, 0xbb]), Buffer.from(body)]))).toEqual(rulesOf(body));
    expect(parseRobots('\ufeff' + body).bom).toBe(true);
  });
  it('UTF-16 without a byte order mark (as a header\'s charset=utf-16 sends it) is read by its zero bytes, both orders', () => {
    const body = 'User-agent: *\nDisallow: /private/\n';
    const le = Buffer.from(body, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(rulesOf(le)).toEqual(rulesOf(body));
    expect(rulesOf(be)).toEqual(rulesOf(body));
    expect(parseRobots(le).utf16).toBe(true);
    // UTF-8 with a stray NUL is not UTF-16.
    expect(parseRobots(`${body}\0`).utf16).toBeUndefined();
  });
  it('a BOM elsewhere is garbage that makes its line unknown', () => {
    expect(rulesOf('User-agent: a\n\ufeffDisallow: /x\n')).toEqual([]);
  });
  it('# starts a comment anywhere; whitespace around keys and values is dropped', () => {
    const p = parseRobots('# head\n  User-agent :  a   # who\nDisallow:\t/x#y\n');
    expect(p.groups[0]!.agents).toEqual(['a']);
    expect(p.groups[0]!.rules[0]!.pattern).toBe('/x');
    expect(p.lines.map((l) => l.comment)).toEqual(['line', 'end-of-line', 'end-of-line']);
    expect(p.lines[1]!.leadingWhitespace).toBe(true);
  });
  it('keys are case-insensitive', () => {
    expect(rulesOf('uSeR-aGeNt: a\ndIsAlLoW: /x\n')).toEqual(['disallow /x @2']);
  });
  it('the typos Google accepts are read, and flagged for the linter', () => {
    for (const [key, kind] of [
      ['useragent', 'user-agent'],
      ['user agent', 'user-agent'],
      ['disalow', 'disallow'],
      ['dissallow', 'disallow'],
      ['site-map', 'sitemap'],
    ] as const) {
      expect(classifyKey(key)).toEqual({ kind, typo: true });
    }
    expect(classifyKey('Disallow')).toEqual({ kind: 'disallow', typo: false });
    expect(classifyKey('Request-rate')).toEqual({ kind: 'unknown', typo: false });
  });
  it('a missing colon is accepted when the line is exactly two words', () => {
    const p = parseRobots('user-agent a\ndisallow /x\ndisallow /a /b\n');
    expect(p.groups[0]!.rules.map((r) => r.pattern)).toEqual(['/x']);
    expect(p.lines[1]!.missingColon).toBe(true);
    expect(p.lines[2]!.kind).toBe('invalid');
  });
  it('each rule keeps its line number; unknown lines are kept for the linter and ignored', () => {
    const p = parseRobots('User-agent: a\nFoo: bar\n\nDisallow: /x\n');
    expect(p.groups[0]!.rules[0]!.line).toBe(4);
    expect(p.lines[1]).toMatchObject({ kind: 'unknown', key: 'Foo', value: 'bar' });
  });
  it('lines longer than the limit are cut, the rest ignored', () => {
    const long = '/x/' + 'a'.repeat(MAX_LINE_BYTES);
    const p = parseRobots(`User-agent: a\nDisallow: ${long}\n`);
    expect(p.lines[1]!.cut).toBe(true);
    expect(Buffer.byteLength('Disallow: ' + p.groups[0]!.rules[0]!.pattern)).toBe(MAX_LINE_BYTES);
  });
});

describe('a UTF-16 file, as its byte order mark says', () => {
  it('is read as UTF-16, not as UTF-8 garbage that loses every rule', () => {
    const text = 'User-agent: *\r\nDisallow: /secret\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    for (const bytes of [le, Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      const parsed = parseRobots(new Uint8Array(bytes));
      expect(parsed.utf16).toBe(true);
      expect(parsed.groups[0]).toMatchObject({ agents: ['*'] });
      expect(parsed.groups[0]!.rules).toMatchObject([{ type: 'disallow', pattern: '/secret' }]);
    }
    expect(parseRobots(text).utf16).toBeUndefined();
  });
});

describe('RFC9309 2.2 directives', () => {
  it('Crawl-delay takes seconds with decimals; anything else is no delay', () => {
    expect(parseCrawlDelay('10')).toBe(10);
    expect(parseCrawlDelay('2.5')).toBe(2.5);
    expect(parseCrawlDelay('.5')).toBe(0.5);
    expect(parseCrawlDelay('pears')).toBeNull();
    expect(parseCrawlDelay('-1')).toBeNull();
  });
  it('Crawl-delay with a unit or a decimal comma is read as its owner meant, not as no delay', () => {
    expect(parseCrawlDelay('5s')).toBe(5);
    expect(parseCrawlDelay('10 seconds')).toBe(10);
    expect(parseCrawlDelay('2 Sec')).toBe(2);
    expect(parseCrawlDelay('1,5')).toBe(1.5);
    expect(parseCrawlDelay('5ms')).toBeNull();
    expect(parseCrawlDelay('5 minutes')).toBeNull();
    expect(parseCrawlDelay('1,000')).toBeNull();
    // Exponent notation is a number: read (the crawl caps a large one, with a warning), not ignored.
    expect(parseCrawlDelay('1e9')).toBe(1e9);
    expect(parseCrawlDelay('2.5E1')).toBe(25);
    expect(parseCrawlDelay('1e')).toBeNull();
    expect(parseRobots('User-agent: *\nCrawl-delay: 5s\n').groups[0]!.crawlDelaySeconds).toBe(5);
  });
  it('Crawl-delay and Host belong to their group; Sitemap to the file', () => {
    const p = parseRobots('Sitemap: http://h/s1.xml\nUser-agent: a\nCrawl-delay: 2.5\nHost: www.h.ru\nDisallow: /x\nSitemap: http://h/s2.xml\n');
    expect(p.groups[0]).toMatchObject({ crawlDelaySeconds: 2.5, host: 'www.h.ru' });
    expect(p.sitemaps).toEqual(['http://h/s1.xml', 'http://h/s2.xml']);
  });
  it('rules before any User-agent line are outside every group', () => {
    const p = parseRobots('Disallow: /x\nUser-agent: a\nDisallow: /y\n');
    expect(p.orphanRules).toEqual([{ type: 'disallow', pattern: '/x', line: 1 }]);
    expect(rulesOf('Disallow: /x\nUser-agent: a\nDisallow: /y\n')).toEqual(['disallow /y @3']);
  });
  it('a blank line ends a draft record but not an RFC group', () => {
    const p = parseRobots('User-agent: a\nDisallow: /x\n\nDisallow: /y\n');
    expect(p.groups[0]!.rules.map((r) => r.pattern)).toEqual(['/x', '/y']);
    expect(p.records[0]!.rules.map((r) => r.pattern)).toEqual(['/x']);
  });
});

describe('RFC9309 2.5 limits', () => {
  it('parses at least the first 500 KiB, and a rule near the end of them still applies', () => {
    const filler = '# ' + 'x'.repeat(98) + '\n';
    const head = 'User-agent: *\n' + filler.repeat(Math.floor((PARSE_LIMIT_BYTES - 2000) / filler.length));
    const p = parseRobots(head + 'Disallow: /late\n');
    expect(p.truncated).toBe(false);
    expect(checkUrl(p, 'Gleaner', 'http://h/late', 'rfc9309').allowed).toBe(false);
  });
  it('ignores what lies beyond the limit and reports it', () => {
    const filler = '# ' + 'x'.repeat(98) + '\n';
    const body = 'User-agent: *\nDisallow: /early\n' + filler.repeat(Math.ceil(PARSE_LIMIT_BYTES / filler.length)) + 'Disallow: /beyond\n';
    const p = parseRobots(body);
    expect(p.truncated).toBe(true);
    expect(p.sizeBytes).toBe(Buffer.byteLength(body));
    expect(checkUrl(p, 'Gleaner', 'http://h/early', 'rfc9309').allowed).toBe(false);
    expect(checkUrl(p, 'Gleaner', 'http://h/beyond', 'rfc9309').allowed).toBe(true);
  });
});

describe('RFC 9309 2.2 / seed 001 error 6: an HTML page served as robots.txt', () => {
  const HTML_WITH_RULES = [
    '<!DOCTYPE html>',
    '<html><head><title>robots.txt</title></head><body>',
    '<pre>User-agent: *',
    'Disallow: /private/</pre>',
    '<p>Disallow everything? <a href="https://example.org/x">no</a></p>',
    '<div>',
    'Disallow: /<b>drafts</b>/',
    '</div></body></html>',
  ].join('\n');
  it('the lines that parse are rules and the markup is ignored', () => {
    const p = parseRobots(HTML_WITH_RULES);
    expect(p.looksLikeHtml).toBe(true);
    expect(rulesOf(HTML_WITH_RULES)).toEqual(['disallow /private/ @4', 'disallow /drafts/ @7']);
    expect(checkUrl(p, 'Gleaner', 'http://h/private/x', 'rfc9309').allowed).toBe(false);
    expect(checkUrl(p, 'Gleaner', 'http://h/drafts/y', 'rfc9309').allowed).toBe(false);
    expect(checkUrl(p, 'Gleaner', 'http://h/public', 'rfc9309').allowed).toBe(true);
    expect(p.lines.map((l) => l.kind)).toEqual(['markup', 'markup', 'user-agent', 'disallow', 'markup', 'markup', 'disallow', 'markup']);
    // Only a page with no parseable rule at all is read as empty.
    const none = parseRobots('<!DOCTYPE html>\n<html><body>\n<h1>Not found</h1>\n<p>Sorry: gone</p>\n</body></html>\n');
    expect(none.looksLikeHtml).toBe(true);
    expect(none.groups).toEqual([]);
    expect(checkUrl(none, 'Gleaner', 'http://h/x', 'rfc9309').allowed).toBe(true);
  });
  it('a body that starts with any tag is read the same way, a tag before a directive on its line included', () => {
    const p = parseRobots('<pre>User-agent: *\nDisallow: /private/</pre>\n');
    expect(p.looksLikeHtml).toBe(true);
    expect(checkUrl(p, 'Gleaner', 'http://h/private/x', 'rfc9309').allowed).toBe(false);
    expect(parseRobots('<!-- rules -->\nUser-agent: *\nDisallow: /private/\n').looksLikeHtml).toBe(true);
    const entities = parseRobots('<pre>\nUser-agent: *\nDisallow: /search?q=1&amp;print=yes\n</pre>\n');
    expect(checkUrl(entities, 'Gleaner', 'http://h/search?q=1&print=yes', 'rfc9309').allowed).toBe(false);
    expect(parseRobots('User-agent: *\n<br />\nDisallow: /private/\n').looksLikeHtml).toBe(false);
  });
  it('in draft mode too, and markup lines do not end a draft record as blank lines do', () => {
    const p = parseRobots('<html><body>\nUser-agent: *\n<br>\nDisallow: /private/\n</body></html>\n');
    expect(checkUrl(p, 'Gleaner', 'http://h/private/x', 'draft').allowed).toBe(false);
  });
});

describe('typo leniency errs toward the site owner', () => {
  it('a misspelt Disallow is obeyed', () => {
    for (const key of ['dissallow', 'disalow', 'Disallw', 'disalllow']) {
      const p = parseRobots(`User-agent: *\n${key}: /private/\n`);
      expect(checkUrl(p, 'Gleaner', 'http://h/private/x', 'rfc9309').allowed, key).toBe(false);
      expect(checkUrl(p, 'Gleaner', 'http://h/private/x', 'draft').allowed, key).toBe(false);
    }
  });
  it('a misspelt Allow does not open what a Disallow closed, in either mode', () => {
    for (const key of ['alow', 'Allw', 'alllow', 'allows']) {
      const p = parseRobots(`User-agent: *\nDisallow: /private/\n${key}: /private/open.html\n`);
      expect(p.ignoredAllows.map((r) => `${r.pattern} @${r.line}`), key).toEqual(['/private/open.html @3']);
      expect(checkUrl(p, 'Gleaner', 'http://h/private/open.html', 'rfc9309').allowed, key).toBe(false);
      expect(checkUrl(p, 'Gleaner', 'http://h/private/open.html', 'draft').allowed, key).toBe(false);
    }
    // The same file spelt right opens the page: the typo, not the rule, is what closes it.
    expect(checkUrl(parseRobots('User-agent: *\nDisallow: /private/\nAllow: /private/open.html\n'), 'Gleaner', 'http://h/private/open.html', 'rfc9309').allowed).toBe(true);
    // An ignored Allow still ends its group: the next User-agent starts a new one, as the owner meant.
    const p = parseRobots('User-agent: Gleaner\nalow: /x\nUser-agent: other\nDisallow: /\n');
    expect(p.groups.map((g) => g.agents)).toEqual([['Gleaner'], ['other']]);
    expect(checkUrl(p, 'Gleaner', 'http://h/y', 'rfc9309').allowed).toBe(true);
  });
});

describe('robustness', () => {
  it('random bytes never throw, in parsing, matching or summarising', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.string({ maxLength: 60 }), fc.string({ maxLength: 20 }), (bytes, url, agent) => {
        const p = parseRobots(bytes);
        for (const mode of ['rfc9309', 'draft'] as const) {
          checkUrl(p, agent, url, mode);
          groupFor(p, agent, mode);
        }
      }),
      { numRuns: 500 },
    );
  });
  it('random robots-like text never throws and keeps every rule line number within the file', () => {
    const line = fc.oneof(
      fc.constantFrom('User-agent: *', 'User-agent: Gleaner', 'Disallow: /', 'Allow: /a*$', '', '# c', 'Crawl-delay: x', 'Host: h', 'Sitemap: /s'),
      fc.string({ maxLength: 30 }),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 40 }), (lines) => {
        const body = lines.map(([l, e]) => l + e).join('');
        const p = parseRobots(body);
        for (const g of [...p.groups, ...p.records]) for (const r of g.rules) expect(r.line).toBeLessThanOrEqual(p.lines.length);
        checkUrl(p, 'Gleaner', 'http://h/a/b', 'rfc9309');
      }),
      { numRuns: 300 },
    );
  });
});
