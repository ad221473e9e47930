import { describe, expect, it } from 'vitest';
import { CrawlCookies, namesPageBack } from './cookies.js';

describe('the cookies a crawl keeps (RFC 6265, bounded)', () => {
  it('sends a cookie back to its host and path, not to other hosts', () => {
    const jar = new CrawlCookies();
    jar.remember('http://intranet.example/app/start', ['JSESSIONID=abc; Path=/app', 'lang=en; Path=/', 'here=1']);
    // Without a Path, a cookie's path is its page's folder (RFC 6265 5.1.4).
    expect(jar.header('http://intranet.example/app/page')).toBe('JSESSIONID=abc; here=1; lang=en');
    expect(jar.header('http://intranet.example/other')).toBe('lang=en');
    expect(jar.header('http://elsewhere.example/app/page')).toBeUndefined();
  });

  it('refuses a cookie for another site or for a public suffix, as browsers do', () => {
    const jar = new CrawlCookies();
    jar.remember('http://a.example.com/', ['x=1; Domain=other.org', 'y=2; Domain=com', 'z=3; Domain=example.com']);
    expect(jar.header('http://b.example.com/')).toBe('z=3');
    expect(jar.header('http://other.org/')).toBeUndefined();
  });

  it('forgets a cookie the server expires, and drops malformed lines', () => {
    const jar = new CrawlCookies();
    jar.remember('http://h.example/', 'a=1');
    jar.remember('http://h.example/', ['a=1; Max-Age=0', '; =; ;', '']);
    expect(jar.header('http://h.example/')).toBeUndefined();
  });

  it('keeps at most maxCookiesPerHost names a host, but still updates the names it keeps', () => {
    const jar = new CrawlCookies({ maxCookiesPerHost: 3 });
    for (let i = 0; i < 10; i++) jar.remember('http://h.example/', `c${i}=v`);
    expect(jar.header('http://h.example/')).toBe('c0=v; c1=v; c2=v');
    jar.remember('http://h.example/', 'c1=new');
    expect(jar.header('http://h.example/')).toBe('c0=v; c1=new; c2=v');
  });

  it('drops a cookie longer than maxCookieBytes, and keeps none for hosts past maxHosts', () => {
    const jar = new CrawlCookies({ maxCookieBytes: 100, maxHosts: 2 });
    jar.remember('http://h.example/', [`big=${'x'.repeat(200)}`, 'small=1']);
    expect(jar.header('http://h.example/')).toBe('small=1');
    jar.remember('http://i.example/', 'a=1');
    jar.remember('http://j.example/', 'a=1');
    expect(jar.header('http://i.example/')).toBe('a=1');
    expect(jar.header('http://j.example/')).toBeUndefined();
  });

  it('sends a Secure cookie over https only', () => {
    const jar = new CrawlCookies();
    jar.remember('https://h.example/', 's=1; Secure');
    expect(jar.header('https://h.example/')).toBe('s=1');
    expect(jar.header('http://h.example/')).toBeUndefined();
  });
});

describe('namesPageBack: a check page told where to send the client back', () => {
  it('finds the page in the query, encoded or not, as a path or a whole URL', () => {
    expect(namesPageBack('http://s.example/check?return=%2Fwall%2F', 'http://s.example/wall/')).toBe(true);
    expect(namesPageBack('http://s.example/login?next=/docs/a.html', 'http://s.example/docs/a.html')).toBe(true);
    expect(namesPageBack('http://s.example/c?u=http%3A%2F%2Fs.example%2Fp%3Fid%3D7', 'http://s.example/p?id=7')).toBe(true);
  });

  it('does not for a query that names another page, for no query, or for a stray % it cannot decode', () => {
    expect(namesPageBack('http://s.example/check?return=%2Fother%2F', 'http://s.example/wall/')).toBe(false);
    expect(namesPageBack('http://s.example/new-place.html', 'http://s.example/old-place.html')).toBe(false);
    expect(namesPageBack('http://s.example/c?x=100%', 'http://s.example/p')).toBe(false);
  });
});
