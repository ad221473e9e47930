import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { gunzipIfNeeded, isGzip, originSitemaps, parseSitemap, sitemapFollowUps, sitemapMovedTo } from './sitemaps.js';
import { makeCanonicalizer } from '../shared/url.js';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://a.test/</loc><lastmod>2024-01-01</lastmod><priority>0.8</priority></url>
  <url>
    <loc>
      http://a.test/page?x=1&amp;y=2
    </loc>
  </url>
  <url><loc><![CDATA[http://a.test/cdata]]></loc></url>
  <url><loc>/relative/not/allowed</loc></url>
  <url><loc>ftp://a.test/file</loc></url>
</urlset>`;

const INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>http://a.test/sitemap-1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
  <sitemap><loc>http://a.test/sitemap-2.xml.gz</loc></sitemap>
</sitemapindex>`;

describe('XML urlset', () => {
  it('lists the loc of every url, entity-decoded, trimmed, CDATA read, http(s) only', () => {
    expect(parseSitemap(URLSET)).toEqual({
      urls: ['http://a.test/', 'http://a.test/page?x=1&y=2', 'http://a.test/cdata'],
      sitemaps: [],
    });
  });
  it('matches names without namespace prefix and case', () => {
    const body = '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://a.test/ns</sm:loc></sm:url><URL><LOC>http://a.test/upper</LOC></URL></sm:urlset>';
    expect(parseSitemap(body).urls).toEqual(['http://a.test/ns', 'http://a.test/upper']);
  });
  it('ignores loc outside url or sitemap (image and video extensions)', () => {
    const body = '<urlset><url><loc>http://a.test/p</loc><image:image><image:loc>http://a.test/i.png</image:loc></image:image></url></urlset>';
    expect(parseSitemap(body).urls).toEqual(['http://a.test/p']);
  });
  it('stops at maxUrls', () => {
    const body = '<urlset>' + Array.from({ length: 10 }, (_, i) => `<url><loc>http://a.test/${i}</loc></url>`).join('') + '</urlset>';
    expect(parseSitemap(body, { maxUrls: 3 }).urls).toEqual(['http://a.test/0', 'http://a.test/1', 'http://a.test/2']);
  });
  it('reads a byte order mark and leading blank lines as XML', () => {
    expect(parseSitemap('\ufeff\n  <urlset><url><loc>http://a.test/b</loc></url></urlset>').urls).toEqual(['http://a.test/b']);
  });
  it('stops reading at a nesting no sitemap has, keeping what came before', () => {
    const body = '<urlset><url><loc>http://a.test/before</loc></url>' + '<url>'.repeat(200_000) + '<loc>http://a.test/deep</loc>';
    expect(parseSitemap(body).urls).toEqual(['http://a.test/before']);
    const after = '<urlset><url><loc>http://a.test/a</loc></url>' + '<x>'.repeat(100) + '</x>'.repeat(100) + '<url><loc>http://a.test/b</loc></url></urlset>';
    expect(parseSitemap(after).urls).toEqual(['http://a.test/a']);
  });
  it('survives broken XML', () => {
    expect(parseSitemap('<urlset><url><loc>http://a.test/ok</loc></url><url><loc>http://a.test/cut').urls).toContain('http://a.test/ok');
  });
});

describe('sitemap index', () => {
  it('lists nested sitemaps, not pages', () => {
    expect(parseSitemap(INDEX)).toEqual({ urls: [], sitemaps: ['http://a.test/sitemap-1.xml', 'http://a.test/sitemap-2.xml.gz'] });
  });
});

describe('feeds used as sitemaps', () => {
  it('reads RSS item links and Atom entry alternate links', () => {
    const rss = '<rss version="2.0"><channel><link>http://a.test/</link><item><link>http://a.test/post-1</link></item></channel></rss>';
    expect(parseSitemap(rss).urls).toEqual(['http://a.test/post-1']);
    const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><link href="http://a.test/"/><entry><link href="http://a.test/e1"/><link rel="edit" href="http://a.test/edit"/></entry></feed>';
    expect(parseSitemap(atom).urls).toEqual(['http://a.test/e1']);
  });
});

describe('plain-text sitemap', () => {
  it('takes one absolute http(s) URL per line, any line ending', () => {
    expect(parseSitemap('http://a.test/1\r\n  https://a.test/2  \n\nnot a url\rhttp://a.test/3\n')).toEqual({
      urls: ['http://a.test/1', 'https://a.test/2', 'http://a.test/3'],
      sitemaps: [],
    });
  });
  it('gives up on a text in which as many lines as a sitemap may list are not URLs', () => {
    expect(parseSitemap('a\nb\nc\nhttp://a.test/late\n', { maxUrls: 3 }).urls).toEqual([]);
    expect(parseSitemap('a\nhttp://a.test/1\nb\n\n\n\nhttp://a.test/2', { maxUrls: 3 }).urls).toEqual(['http://a.test/1', 'http://a.test/2']);
  });
  it('returns every line that is a URL (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.webUrl({ validSchemes: ['http', 'https'] }), { maxLength: 20 }), (list) => {
        const clean = list.filter((u) => !/\s/.test(u));
        expect(parseSitemap(clean.join('\n')).urls).toEqual(clean);
      }),
    );
  });
});

describe('gzip', () => {
  it('inflates gzip recognised by magic bytes and leaves other bytes alone', async () => {
    const xml = Buffer.from(INDEX, 'utf8');
    const gz = gzipSync(xml);
    expect(isGzip(gz)).toBe(true);
    expect(isGzip(xml)).toBe(false);
    expect(Buffer.from(await gunzipIfNeeded(gz)).toString('utf8')).toBe(INDEX);
    const plain = new Uint8Array(xml);
    expect(await gunzipIfNeeded(plain)).toBe(plain);
  });
  it('rejects corrupt gzip', async () => {
    await expect(gunzipIfNeeded(Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]))).rejects.toThrow();
  });
  it('inflates at most maxBytes and keeps what came before, as a plain sitemap is cut at the body cap', async () => {
    const bomb = gzipSync(Buffer.alloc(1_000_000));
    expect((await gunzipIfNeeded(bomb, { maxBytes: 10_000 })).length).toBe(10_000);
    expect((await gunzipIfNeeded(bomb, { maxBytes: 2_000_000 })).length).toBe(1_000_000);
    // A sitemap of more than the cap: the URLs before it are read (all were lost when the cap was an error).
    const urls = Array.from({ length: 5000 }, (_, i) => `<url><loc>http://a.test/p${i}</loc></url>`).join('');
    const big = gzipSync(Buffer.from(`<urlset>${urls}</urlset>`));
    const read = parseSitemap(Buffer.from(await gunzipIfNeeded(big, { maxBytes: 100_000 })).toString('utf8'));
    expect(read.urls.length).toBeGreaterThan(2000);
    expect(read.urls.length).toBeLessThan(5000);
    expect(read.urls.slice(0, 2)).toEqual(['http://a.test/p0', 'http://a.test/p1']);
  });
  it('reads gzip cut short as far as it goes', async () => {
    const gz = gzipSync(Buffer.from(`<urlset>${Array.from({ length: 2000 }, (_, i) => `<url><loc>http://a.test/q${i}</loc></url>`).join('')}</urlset>`));
    const read = parseSitemap(Buffer.from(await gunzipIfNeeded(gz.subarray(0, gz.length >> 1))).toString('utf8'));
    expect(read.urls.length).toBeGreaterThan(100);
    expect(read.urls[0]).toBe('http://a.test/q0');
  });
});

describe('sitemap discovery', () => {
  const { canonicalize } = makeCanonicalizer();
  it('an origin reads the sitemaps its robots.txt lists and /sitemap.xml, each once, of this origin only', () => {
    const entries = originSitemaps('http://a.test', ['http://a.test/s1.xml?sid=0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'http://a.test/sitemap.xml', 'http://b.test/s.xml', 'mailto:x@a.test'], canonicalize);
    expect(entries).toEqual([
      { url: 'http://a.test/s1.xml', depth: 0, via: 'sitemap', sitemap: true },
      { url: 'http://a.test/sitemap.xml', depth: 0, via: 'sitemap', sitemap: true },
    ]);
  });
  it('a sitemap file leads to its nested sitemaps of the same origin, a level deeper, and to its pages, canonical, at depth 1', () => {
    const found = { sitemaps: ['http://a.test/more.xml', 'http://b.test/other.xml'], urls: ['HTTP://a.test/p#x', 'http://b.test/q', 'ftp://a.test/f'] };
    expect(sitemapFollowUps(found, { url: 'http://a.test/sitemap.xml', depth: 0 }, 'http://a.test', canonicalize)).toEqual({
      dropped: 0,
      sitemaps: [{ url: 'http://a.test/more.xml', depth: 1, via: 'sitemap', sitemap: true }],
      pages: [
        { url: 'http://a.test/p', depth: 1, via: 'sitemap', referrer: 'http://a.test/sitemap.xml' },
        { url: 'http://b.test/q', depth: 1, via: 'sitemap', referrer: 'http://a.test/sitemap.xml' },
      ],
    });
  });
  it('a sitemap that moved is asked where it went, at its depth, on its own host name only', () => {
    const from = { url: 'http://a.test/sitemap.xml', depth: 1 };
    expect(sitemapMovedTo('https://a.test/sitemap.xml?utm_source=x', from, canonicalize)).toEqual({ url: 'https://a.test/sitemap.xml', depth: 1, via: 'sitemap', sitemap: true });
    expect(sitemapMovedTo('http://a.test:8080/s.xml', from, canonicalize)?.url).toBe('http://a.test:8080/s.xml');
    for (const elsewhere of ['http://b.test/sitemap.xml', 'http://a.test/sitemap.xml', 'javascript:alert(1)', undefined]) {
      expect(sitemapMovedTo(elsewhere, from, canonicalize), String(elsewhere)).toBeUndefined();
    }
  });
  it('reads nested sitemaps only maxNesting levels deep, and no more files than the host has left', () => {
    const found = { sitemaps: ['http://a.test/s1.xml', 'http://a.test/s2.xml', 'http://a.test/s3.xml'], urls: ['http://a.test/p'] };
    const at = (depth: number, sitemapsLeft: number) => sitemapFollowUps(found, { url: 'http://a.test/i.xml', depth }, 'http://a.test', canonicalize, { maxNesting: 2, sitemapsLeft });
    expect(at(1, 10).sitemaps.map((s) => [s.url, s.depth])).toEqual([['http://a.test/s1.xml', 2], ['http://a.test/s2.xml', 2], ['http://a.test/s3.xml', 2]]);
    // At the last level the nested ones are dropped, the pages still come.
    expect(at(2, 10)).toMatchObject({ sitemaps: [], dropped: 3, pages: [{ url: 'http://a.test/p' }] });
    expect(at(0, 2)).toMatchObject({ sitemaps: [{ url: 'http://a.test/s1.xml' }, { url: 'http://a.test/s2.xml' }], dropped: 1 });
    expect(at(0, 0).sitemaps).toEqual([]);
  });
});
