import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalizeUrl, DEFAULT_STRIP_PARAMS, hostOf, makeCanonicalizer, normalizePercentEncoding, originOf, queryOrderKey, sessionLikeValue, uncrawlableReason } from './url.js';

const c = (url: string, base?: string) => canonicalizeUrl(url, base);

describe('seed 003: syntactic aliases become one URL', () => {
  it.each([
    ['HTTP://EXAMPLE.COM/Path', 'http://example.com/Path'], // scheme and host lower-cased, path kept
    ['http://example.com:80/', 'http://example.com/'], // default port removed
    ['https://example.com:443/x', 'https://example.com/x'],
    ['http://example.com:8080/', 'http://example.com:8080/'], // other ports kept
    ['http://example.com', 'http://example.com/'], // empty path is /
    ['http://example.com/a/./b/../c', 'http://example.com/a/c'], // dot segments resolved
    ['http://example.com/../../x', 'http://example.com/x'],
    ['http://example.com/%2e%2E/x', 'http://example.com/x'], // encoded dot segments too
    ['http://example.com/page#section', 'http://example.com/page'], // fragment dropped
    ['http://example.com/?', 'http://example.com/'], // empty query dropped
    ['http://example.com./a', 'http://example.com/a'], // trailing dot of a fully qualified host
    ['http://user:secret@example.com/', 'http://example.com/'], // credentials never kept
    ['  http://example.com/x  ', 'http://example.com/x'],
  ])('%s -> %s', (input, expected) => {
    expect(c(input)).toBe(expected);
  });
});

describe('IDN', () => {
  it('turns internationalised host names into punycode', () => {
    expect(c('http://Bücher.example/')).toBe('http://xn--bcher-kva.example/');
    expect(c('http://пример.испытание/')).toBe('http://xn--e1afmkfd.xn--80akhbyknj4f/');
  });
  it('keeps an already punycoded host as is', () => {
    expect(c('http://xn--bcher-kva.example/')).toBe('http://xn--bcher-kva.example/');
  });
});

describe('percent-encoding', () => {
  it('a % that starts no escape becomes %25, so decoding cannot create a new escape (found by the property below)', () => {
    expect(canonicalizeUrl('http://example.com/?%%622')).toBe('http://example.com/?%25b2');
    // Ports browsers refuse (the Fetch standard's bad ports) and port 0 are no crawlable URL.
    expect(c('http://127.0.0.1:25/x')).toBeUndefined();
    expect(c('http://example.com:0/')).toBeUndefined();
    expect(c('http://example.com:6667/')).toBeUndefined();
    expect(c('http://example.com:8080/')).toBe('http://example.com:8080/');
    expect(uncrawlableReason('http://127.0.0.1:25/x')).toBe('port 25 is not for the web (browsers refuse it, and so does Gleaner)');
    expect(uncrawlableReason('ftp://example.com/')).toBe('not an http(s) URL');
    expect(canonicalizeUrl('http://example.com/?%25b2')).toBe('http://example.com/?%25b2');
    expect(canonicalizeUrl('http://example.com/100%')).toBe('http://example.com/100%25');
  });

  it('decodes escapes of unreserved characters', () => {
    expect(c('http://example.com/%7Euser/%41%62%2D%5F%2E')).toBe('http://example.com/~user/Ab-_.');
    expect(c('http://example.com/?q=%7e&%61=1')).toBe('http://example.com/?q=~&a=1');
  });
  it('upper-cases the hex of the others and keeps them encoded', () => {
    expect(c('http://example.com/a%2fb%3f?x=%2f%26')).toBe('http://example.com/a%2Fb%3F?x=%2F%26');
    expect(c('http://example.com/%e4%b8%ad')).toBe('http://example.com/%E4%B8%AD');
  });
  it('encodes raw non-ASCII and spaces the way a browser would', () => {
    expect(c('http://example.com/ä b?ä=ö')).toBe('http://example.com/%C3%A4%20b?%C3%A4=%C3%B6');
  });
  it('writes the % of a broken escape as %25: the same bytes reach the server, and a second pass changes nothing', () => {
    expect(c('http://example.com/?x=%zz&y=%4')).toBe('http://example.com/?x=%25zz&y=%254');
  });
  it('normalizePercentEncoding is idempotent', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9%~._-]{0,30}$/), (s) => {
        expect(normalizePercentEncoding(normalizePercentEncoding(s))).toBe(normalizePercentEncoding(s));
      }),
    );
  });
});

describe('seed 004: session ids and tracking parameters', () => {
  it.each([
    ['http://example.com/p?PHPSESSID=abc123&id=7', 'http://example.com/p?id=7'],
    ['http://example.com/p?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9&Sid=Q2x9Vb7nM4kLp0Zr8Tc6Yw1&SID=3mfr0d7oq0bhvjc9bv0hf5bpq6', 'http://example.com/p'],
    ['http://example.com/p?PHPSESSID=1&jsessionid=x', 'http://example.com/p'], // unambiguous names: whatever the value
    ['http://example.com/p;jsessionid=0A1B2C?x=1', 'http://example.com/p?x=1'],
    ['http://example.com/dir;JSESSIONID=0A1B2C/page', 'http://example.com/dir/page'],
    ['http://example.com/p?ASPSESSIONIDQQGGQQGG=xyz', 'http://example.com/p'],
    ['http://example.com/p?utm_source=news&utm_medium=mail&utm_campaign=x&a=1', 'http://example.com/p?a=1'],
    ['http://example.com/p?gclid=1&fbclid=2&msclkid=3&yclid=4&_openstat=5', 'http://example.com/p'],
    ['http://example.com/p?%50hpsessid=encoded-name', 'http://example.com/p'],
    ['http://example.com/p?sidebar=1', 'http://example.com/p?sidebar=1'], // only whole names match
    ['http://example.com/p;type=a', 'http://example.com/p;type=a'], // other path parameters kept
  ])('%s -> %s', (input, expected) => {
    expect(c(input)).toBe(expected);
  });
  // Slashdot and PHP-Nuke key their stories by `sid`: stripping it whatever the value sent a crawl of such
  // a site to `/article.pl`, which no page links to, and lost every story.
  it.each([
    ['http://example.com/article.pl?sid=99/01/01/121', 'http://example.com/article.pl?sid=99/01/01/121'],
    ['http://example.com/article.pl?sid=99%2F01%2F01%2F121&mode=thread', 'http://example.com/article.pl?sid=99%2F01%2F01%2F121&mode=thread'],
    ['http://example.com/modules.php?name=News&file=article&sid=42', 'http://example.com/modules.php?name=News&file=article&sid=42'],
    ['http://example.com/programme?session_id=12', 'http://example.com/programme?session_id=12'],
    ['http://example.com/programme?sessionid=keynote-2024-opening-talk', 'http://example.com/programme?sessionid=keynote-2024-opening-talk'],
    ['http://example.com/p?sid=', 'http://example.com/p?sid='],
    ['http://example.com/p;sid=12/x', 'http://example.com/p;sid=12/x'],
  ])('a content key that is also a session name is kept for content: %s', (input, expected) => {
    expect(c(input)).toBe(expected);
  });
  it.each([
    ['http://example.com/p?SessionID=Q2x9Vb7nM4kLp0Zr8Tc6Yw1A&a=1', 'http://example.com/p?a=1'],
    ['http://example.com/p?session_id=0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'http://example.com/p'],
    ['http://example.com/p;sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9/x', 'http://example.com/p/x'],
    ['http://example.com/p?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f%39', 'http://example.com/p'], // judged decoded
  ])('the same names are stripped for a session id: %s', (input, expected) => {
    expect(c(input)).toBe(expected);
  });
  it('sessionLikeValue: a long token of letters and digits both, nothing else', () => {
    for (const v of ['0a1b2c3d4e5f60718293a4b5c6d7e8f9', '3mfr0d7oq0bhvjc9bv0hf5bpq6', 'Q2x9Vb7nM4kLp0Zr8Tc6Yw1A']) expect(sessionLikeValue(v), v).toBe(true);
    for (const v of ['99/01/01/121', '12345678901234567890123', 'abcdefghijklmnopqrstuvwxyz', 'keynote-2024-opening-talk', 'a1b2c3d4e5', '']) expect(sessionLikeValue(v), v).toBe(false);
  });
  it('an entry ending in =<session-id> makes any name session-only; a plain entry of the same name wins', () => {
    const o = { stripParams: ['story=<session-id>', 'tok*=<session-id>'] };
    expect(canonicalizeUrl('http://example.com/?story=12&tokA=5', undefined, o)).toBe('http://example.com/?story=12&tokA=5');
    expect(canonicalizeUrl('http://example.com/?story=0a1b2c3d4e5f60718293a4&tokA=0a1b2c3d4e5f60718293a4', undefined, o)).toBe('http://example.com/');
    expect(canonicalizeUrl('http://example.com/?sid=12', undefined, { stripParams: ['sid=<session-id>', 'sid'] })).toBe('http://example.com/');
    expect(canonicalizeUrl('http://example.com/?sid=12', undefined, { stripParams: ['sid', 'sid=<session-id>'] })).toBe('http://example.com/');
  });
  it('takes a configurable list (names case-insensitive, trailing * a prefix)', () => {
    expect(canonicalizeUrl('http://example.com/?ref=x&Track_id=1&keep=2&utm_source=y', undefined, { stripParams: ['REF', 'track_*'] })).toBe(
      'http://example.com/?keep=2&utm_source=y',
    );
  });
  it('keeps parameter order and repeated parameters, drops empty pairs', () => {
    expect(c('http://example.com/?b=2&a=1&a=0&&')).toBe('http://example.com/?b=2&a=1&a=0');
  });
});

describe('only http and https', () => {
  it.each(['mailto:a@example.com', 'javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/', 'file:///etc/passwd', 'tel:+123', '', 'http://', 'not a url'])(
    '%j -> undefined',
    (input) => {
      expect(c(input)).toBeUndefined();
    },
  );
  it('resolves relative references against a base', () => {
    expect(c('../x?y=1#z', 'http://example.com/a/b/c')).toBe('http://example.com/a/x?y=1');
    expect(c('//other.test/p', 'https://example.com/')).toBe('https://other.test/p');
    expect(c('?q=1', 'http://example.com/path')).toBe('http://example.com/path?q=1');
    expect(c('javascript:void(0)', 'http://example.com/')).toBeUndefined();
  });
});

describe('host names DNS cannot hold', () => {
  it('are no URL: longer than 253 characters, or a label longer than 63', () => {
    const label63 = 'a'.repeat(63);
    expect(canonicalizeUrl(`http://${'a.'.repeat(200)}example/`)).toBeUndefined();
    expect(canonicalizeUrl(`http://${label63}b.example/`)).toBeUndefined();
    expect(canonicalizeUrl(`http://${label63}.example/`)).toBe(`http://${label63}.example/`);
    expect(canonicalizeUrl(`http://${[label63, label63, label63].join('.')}.example/`)).toBe(`http://${[label63, label63, label63].join('.')}.example/`);
  });
});

describe('idempotence: canonicalizing twice changes nothing', () => {
  const check = (url: string): void => {
    const once = canonicalizeUrl(url);
    if (once !== undefined) expect(canonicalizeUrl(once)).toBe(once);
  };
  it('holds for generated web URLs', () => {
    fc.assert(
      fc.property(fc.webUrl({ withFragments: true, withQueryParameters: true, validSchemes: ['http', 'https'] }), (url) => check(url)),
      { numRuns: 2000 },
    );
  });
  it('holds for URLs with arbitrary path and query text (escapes, dots, semicolons, non-ASCII)', () => {
    const piece = fc.stringMatching(/^[a-zA-Z0-9%./;=&?#~ +_\-äöü中%2e%2E%7e]{0,40}$/);
    fc.assert(
      fc.property(fc.constantFrom('http://Example.COM', 'https://bücher.example:443', 'http://a.test:8080', 'http://127.0.0.1'), piece, piece, (origin, path, query) => {
        check(`${origin}/${path}?${query}`);
      }),
      { numRuns: 3000 },
    );
  });
  it('holds for session-only names whose value escapes letters (judged after decoding, on both passes)', () => {
    const value = fc.stringMatching(/^([a-f0-9]|%4[1-6]|%3[0-9]|%2F){0,40}$/);
    fc.assert(
      fc.property(fc.constantFrom('sid', 'session_id', '%73id'), value, (name, v) => {
        check(`http://a.test/p?${name}=${v}&x=1`);
        check(`http://a.test/p;${name}=${v}/q`);
      }),
      { numRuns: 2000 },
    );
  });
  it('holds for relative references resolved against a base', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (ref) => {
        const once = canonicalizeUrl(ref, 'http://example.com/a/b/');
        if (once !== undefined) expect(canonicalizeUrl(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('originOf and hostOf', () => {
  it('give the robots.txt unit and the bare host', () => {
    expect(originOf('http://example.com:8080/a?b')).toBe('http://example.com:8080');
    expect(originOf('https://example.com/')).toBe('https://example.com');
    expect(hostOf('http://Example.com:8080/')).toBe('example.com');
  });
});

describe('makeCanonicalizer', () => {
  it('canonicalizes with the crawl options and says what it was built from', () => {
    const keepSid = makeCanonicalizer({ stripParams: ['utm_*'] });
    expect(keepSid.settings).toEqual({ stripParams: ['utm_*'] });
    expect(keepSid.canonicalize('HTTP://A.test/x?sid=1&utm_source=m#f')).toBe('http://a.test/x?sid=1');
    expect(keepSid.canonicalize('y?sid=2', 'http://a.test/x')).toBe('http://a.test/y?sid=2');
    const defaults = makeCanonicalizer();
    expect(defaults.settings.stripParams).toEqual([...DEFAULT_STRIP_PARAMS]);
    expect(defaults.canonicalize('http://a.test/x?sid=1&utm_source=m')).toBe('http://a.test/x?sid=1');
    expect(defaults.canonicalize('http://a.test/x?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9&utm_source=m')).toBe('http://a.test/x');
    // A store written before sid became session-only recorded a plain `sid`: read as that crawl did.
    expect(makeCanonicalizer({ stripParams: ['phpsessid', 'sid', 'utm_*'] }).canonicalize('http://a.test/x?sid=1')).toBe('http://a.test/x');
  });
  it('rebuilt from its recorded settings, it canonicalizes the same', () => {
    const crawl = makeCanonicalizer({ stripParams: ['ref', 'utm_*'] });
    const again = makeCanonicalizer(JSON.parse(JSON.stringify(crawl.settings)) as { stripParams: string[] });
    for (const u of ['http://a.test/?ref=1&sid=2', 'http://a.test/p;jsessionid=9?utm_x=1']) expect(again.canonicalize(u)).toBe(crawl.canonicalize(u));
  });
});

describe('queryOrderKey', () => {
  it('sorts parameters by name, stable, a leading valueless one first; no query or one parameter unchanged', () => {
    expect(queryOrderKey('http://a.test/shop?size=m&sort=price&color=red')).toBe('http://a.test/shop?color=red&size=m&sort=price');
    expect(queryOrderKey('http://a.test/s?tag=b&q=x&tag=a')).toBe('http://a.test/s?q=x&tag=b&tag=a');
    expect(queryOrderKey('http://a.test/index.php?/blog/post&z=1&a=2')).toBe('http://a.test/index.php?/blog/post&a=2&z=1');
    for (const u of ['http://a.test/', 'http://a.test/p?x=1', 'http://a.test/p?x']) expect(queryOrderKey(u)).toBe(u);
  });
});
