// A test web site with every case the crawler's integration tests need (issue 4), served by node:http on
// 127.0.0.1 (port 0), recording every request with its time. Each startCrawlCases() is a fresh site with
// fresh counters (the 429/503 endpoints count their own hits), so start one per test, or two to have a
// slow host beside a fast one.
//
// What the site holds is listed in CASES (paths and what a correct crawler does with them), so tests can
// assert against names rather than repeat paths. Start from `${site.url}` (the home page links to every
// case except those only sitemaps name).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface CrawlCasesOptions {
  /** Emit `Crawl-delay:` with this many seconds in robots.txt (none when undefined). */
  crawlDelaySeconds?: number;
  /** Size of the oversized /big.html body (more than the crawler's default 5 MiB cap). */
  bigBodyBytes: number;
  /** How long /slow/headers waits before answering, and /slow/body between its two halves. */
  slowMs: number;
  /** Seconds /retry/429 asks to wait with Retry-After. */
  retryAfterSeconds: number;
  /** Product token the robots.txt group and X-Robots-Tag agent lines name. */
  agent: string;
}

export const DEFAULT_CRAWL_CASES_OPTIONS: CrawlCasesOptions = {
  bigBodyBytes: 6 * 1024 * 1024,
  slowMs: 2_000,
  retryAfterSeconds: 1,
  agent: 'Gleaner',
};

export interface RequestRecord {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Date.now() when the request arrived. */
  time: number;
  /** performance.now() when the request arrived, for measuring delays between requests. */
  monotonicMs: number;
  /** Status sent, set when the response finished or the connection closed; 0 until then or if none was sent. */
  status: number;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The whole response body was handed to the socket (false when the client went away first). */
  completed: boolean;
}

export interface CrawlCasesSite {
  /** The home page, `http://127.0.0.1:PORT/`: the seed. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Every request in arrival order. */
  requests: RequestRecord[];
  /** Requests whose path (with query) is `path`. */
  hits(path: string): RequestRecord[];
  close(): Promise<void>;
}

/** Paths of the site grouped by what a correct crawl does with them. Paths include the query. */
export const CASES = {
  home: '/',
  robotsTxt: '/robots.txt',
  /** Ordinary pages that must end up stored as `ok` and indexable. */
  ok: ['/', '/about.html', '/lang/es.html', '/plain.txt', '/compressed.html', '/area-target.html', '/based/target.html', '/refresh-target.html', '/canonical/main.html', '/x-robots/otherbot.html', '/meta/all.html', '/etag.html'],
  /** Disallowed by robots.txt (`Disallow: /private/` and the wildcard `Disallow: /*?print=`): never requested. */
  disallowed: ['/private/secret.html', '/article.html?print=1'],
  /** Linked only in ways a crawler must not follow: never requested. */
  neverFetched: ['/only-from-duplicate.html', '/only-nofollow-link.html', '/only-from-nofollow-page.html', '/only-from-x-robots-nofollow.html', '/never-src.html', '/never-src.png', '/private/secret.html', '/article.html?print=1'],
  /** Stored with robots.index false. */
  noindex: ['/meta/noindex.html', '/meta/none-old-form.html', '/x-robots/noindex.html'],
  /** Stored with robots.follow false (their links are not followed). */
  nofollowPages: ['/meta/nofollow.html', '/meta/none-old-form.html', '/x-robots/agent-nofollow.html'],
  /** Expected charset and a phrase the decoded text must contain. */
  charsets: {
    '/charset/windows-1251.html': { charset: 'windows-1251', phrase: 'Привет, мир' },
    '/charset/koi8-r.html': { charset: 'koi8-r', phrase: 'Привет' },
    '/charset/gbk.html': { charset: 'gbk', phrase: '中文搜索引擎' },
    '/charset/shift_jis.html': { charset: 'shift_jis', phrase: '日本語検索' },
    '/charset/utf-8-bom.html': { charset: 'utf-8', phrase: 'こんにちは' },
  },
  /** Copies with the same text as the original (which links to them): stored as duplicates of it; the
   * page linked only from a copy is never requested (a duplicate's links are not followed again). */
  duplicates: {
    original: '/dup/original.html',
    copies: ['/dup/copy.html', '/dup/copy-other-markup.html'],
    linkedOnlyFromCopy: '/only-from-duplicate.html',
    /** A copy in another folder (a second version of a manual) whose relative link names a page of its own. */
    mirror: { copy: '/dup-mirror/copy.html', linkedOnlyFromIt: '/dup-mirror/mirror-only.html' },
  },
  /** Session-id alias of /about.html: canonicalizes to it and is never requested as such. */
  sessionAlias: '/about.html?PHPSESSID=0123456789abcdef',
  canonical: { page: '/canonical/variant.html?color=red', canonical: '/canonical/main.html' },
  refresh: { page: '/refresh.html', target: '/refresh-target.html' },
  base: { page: '/base.html', resolvedLink: '/based/target.html' },
  redirects: {
    /** 301 -> 302 -> 307 -> 200: three hops, within the limit of 5. */
    chain3: { start: '/redirect/chain3', final: '/redirect/final3.html', hops: ['/redirect/chain3', '/redirect/chain3-2', '/redirect/chain3-3'] },
    /** A loop of two URLs. */
    loop: { start: '/redirect/loop-a', other: '/redirect/loop-b' },
    /** Six hops: one more than the default limit; the final page must not be requested. */
    chain6: { start: '/redirect/hop/1', final: '/redirect/final6.html' },
    /** A redirect into a robots-disallowed path: the target must not be requested. */
    toDisallowed: { start: '/redirect/to-private', target: '/private/secret.html' },
    /** A redirect to another host (127.0.0.2, nothing listens there): out of host scope, never fetched. */
    offsite: { start: '/redirect/offsite' },
  },
  traps: {
    /** /calendar/YYYY/MM/ links to next month forever: cut by the year window. */
    calendar: '/calendar/2026/01/',
    /** /events?day=N links to N+1 forever: cut by the URL-shape counter. */
    endlessNumbers: '/events?day=1',
    /** Relative link `sub/` from /loop/sub/ grows /loop/sub/sub/...: repeated segments. */
    repeatedSegments: '/loop/sub/',
    /** Relative link `x/y/` from /cycle/x/y/ grows a period-2 cycle. */
    cycle: '/cycle/x/y/',
    /** Each page links to a URL 100 characters longer: the URL length limit. */
    growing: '/grow/a',
    /** /deep/1 -> /deep/2 -> ... -> /deep/60: maximum depth. */
    deep: '/deep/1',
  },
  retry: {
    /** 429 with Retry-After on the first request, 200 after. */
    tooMany: '/retry/429',
    /** 503 on the first two requests, 200 on the third. */
    unavailable: '/retry/503',
    /** 500 on every request: stored as an error after the last retry. */
    alwaysFailing: '/retry/500-always',
  },
  gone: { notFound: '/missing.html', gone: '/gone.html' },
  /** Content types not indexed: skipped without reading the (large, slowly streamed) body. */
  skippedTypes: ['/files/archive.zip', '/files/photo.png'],
  /** Larger than the default body cap: stored truncated. */
  oversized: '/big.html',
  slow: { headers: '/slow/headers', body: '/slow/body' },
  /** Only listed in sitemaps: reached through robots.txt Sitemap lines and /sitemap.xml. */
  sitemaps: {
    files: ['/sitemap.xml', '/sitemap-index.xml', '/sitemaps/pages.xml.gz', '/sitemaps/plain.txt'],
    onlyInSitemaps: ['/from-sitemap.html', '/from-gz-sitemap.html', '/from-text-sitemap.html'],
    /** Listed in a sitemap but on another host: never fetched. */
    offsite: 'http://127.0.0.2:49/from-sitemap-offsite.html',
  },
  conditional: '/etag.html',
} as const;

const ETAG = '"v1-etag"';
const LAST_MODIFIED = 'Mon, 02 Mar 2026 10:00:00 GMT';
const DUP_TEXT = 'This article exists twice. The same words under a second address are a duplicate, not a new page.';

function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

const link = (href: string, text = href, rel?: string): string => `<a href="${href}"${rel === undefined ? '' : ` rel="${rel}"`}>${text}</a>`;

/** windows-1251 bytes of ASCII and Cyrillic text (the Cyrillic block maps arithmetically). */
function encodeCp1251(s: string): Buffer {
  return Buffer.from(
    Array.from(s, (ch) => {
      const c = ch.codePointAt(0) ?? 0x3f;
      if (c < 0x80) return c;
      if (c >= 0x410 && c <= 0x44f) return c - 0x410 + 0xc0;
      if (c === 0x401) return 0xa8;
      if (c === 0x451) return 0xb8;
      return 0x3f;
    }),
  );
}

// Hand-written legacy bytes (checked against the code tables, not produced by the decoder under test).
const KOI8R_PRIVET = Buffer.from('f0d2c9d7c5d4', 'hex'); // Привет
const GBK_ZHONGWEN_SOUSUO_YINQING = Buffer.from('d6d0cec4cbd1cbf7d2fdc7e6', 'hex'); // 中文搜索引擎
const GBK_NIHAO_SHIJIE = Buffer.from('c4e3bac3cac0bde7', 'hex'); // 你好世界
const SJIS_NIHONGO_KENSAKU = Buffer.from('93fa967b8cea8c9f8df5', 'hex'); // 日本語検索
const SJIS_KONNICHIWA = Buffer.from('82b182f182c982bf82cd', 'hex'); // こんにちは

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** Starts the site on 127.0.0.1 with a free port. */
export async function startCrawlCases(options: Partial<CrawlCasesOptions> = {}): Promise<CrawlCasesSite> {
  const o: CrawlCasesOptions = { ...DEFAULT_CRAWL_CASES_OPTIONS, ...options };
  const requests: RequestRecord[] = [];
  let origin = '';
  const counts = new Map<string, number>();
  const hit = (key: string): number => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string | string[]> = {}): void => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
  const page = (res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}): void => send(res, 200, 'text/html; charset=utf-8', body, headers);
  const redirect = (res: ServerResponse, status: number, location: string): void => {
    res.writeHead(status, { Location: location, 'Content-Length': '0' });
    res.end();
  };
  /** Streams `total` bytes in 64 KiB chunks, honouring backpressure, so a client that stops reading stalls it. */
  const BINARY_BYTES = 64 * 1024 * 1024;
  const stream = (res: ServerResponse, type: string, total: number, fill: number): void => {
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(total) });
    const chunk = Buffer.alloc(64 * 1024, fill);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  };

  const robotsTxt = (): string =>
    [
      '# Gleaner crawl-cases test site',
      'User-agent: *',
      'Disallow: /private/',
      'Disallow: /*?print=',
      ...(o.crawlDelaySeconds === undefined ? [] : [`Crawl-delay: ${o.crawlDelaySeconds}`]),
      '',
      'User-agent: SomeOtherBot',
      'Disallow: /',
      '',
      `Sitemap: ${origin}/sitemap-index.xml`,
      `Sitemap: ${origin}/sitemaps/plain.txt`,
      '',
    ].join('\n');

  const home = (): string =>
    html(
      'Crawl cases',
      [
        '<h1>Crawl cases</h1><p>Every case the crawler must handle.</p><ul>',
        ...[
          '/about.html', '/lang/es.html', '/plain.txt', '/compressed.html', '/base.html', '/refresh.html', CASES.canonical.page,
          '/meta/noindex.html', '/meta/nofollow.html', '/meta/none-old-form.html', '/meta/all.html',
          '/x-robots/noindex.html', '/x-robots/agent-nofollow.html', '/x-robots/otherbot.html',
          ...Object.keys(CASES.charsets), CASES.duplicates.original, CASES.sessionAlias,
          CASES.redirects.chain3.start, CASES.redirects.loop.start, CASES.redirects.chain6.start, CASES.redirects.toDisallowed.start, CASES.redirects.offsite.start,
          ...Object.values(CASES.traps), ...Object.values(CASES.retry), CASES.gone.notFound, CASES.gone.gone,
          ...CASES.skippedTypes, CASES.oversized, CASES.slow.headers, CASES.slow.body, CASES.conditional,
          ...CASES.disallowed,
        ].map((p) => `<li>${link(p.replace(/&/g, '&amp;'))}</li>`),
        '</ul>',
        `<p>${link('/only-nofollow-link.html', 'not followed', 'nofollow')} ${link('mailto:owner@example.test', 'mail')} ${link('javascript:void(0)', 'js')}</p>`,
        '<p><img src="/never-src.png" alt="never"><iframe src="/never-src.html"></iframe></p>',
        '<map name="m"><area href="/area-target.html" alt="Area target" shape="rect" coords="0,0,1,1"></map>',
      ].join(''),
    );

  const routes = new Map<string, Handler>([
    ['/', (_q, res) => page(res, home())],
    ['/robots.txt', (_q, res) => send(res, 200, 'text/plain; charset=utf-8', robotsTxt())],
    ['/about.html', (_q, res) => page(res, html('About', `<h1>About the site</h1><p>About page text.</p>${link('/')}`, '<meta name="description" content="What this site is">'))],
    ['/lang/es.html', (_q, res) => page(res, html('Hola', '<p>Página en español.</p>').replace('lang="en"', 'lang="es"'))],
    ['/plain.txt', (_q, res) => send(res, 200, 'text/plain; charset=utf-8', 'A plain text file.\nIt is indexed as text.\n')],
    ['/compressed.html', (req, res) => {
      const body = html('Compressed', '<p>This page travels gzip-compressed when the client accepts it.</p>');
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) send(res, 200, 'text/html; charset=utf-8', gzipSync(body), { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      else page(res, body);
    }],
    ['/area-target.html', (_q, res) => page(res, html('Area target', '<p>Reached through an area element.</p>'))],
    ['/base.html', (_q, res) => page(res, html('Base', `<p>${link('target.html', 'resolved against base')}</p>`, '<base href="/based/">'))],
    ['/based/target.html', (_q, res) => page(res, html('Based target', '<p>Reached through base href.</p>'))],
    ['/refresh.html', (_q, res) => page(res, html('Redirecting', '<p>Redirecting...</p>', `<meta http-equiv="refresh" content="0;URL='/refresh-target.html'">`))],
    ['/refresh-target.html', (_q, res) => page(res, html('Refresh target', '<p>Reached through a meta refresh.</p>'))],
    ['/canonical/variant.html', (_q, res) => page(res, html('Variant', '<p>A red variant of the main page.</p>', '<link rel="canonical" href="/canonical/main.html">'))],
    ['/canonical/main.html', (_q, res) => page(res, html('Main', '<p>The canonical page.</p>'))],
    ['/meta/noindex.html', (_q, res) => page(res, html('Noindex', `<p>Do not index me.</p>${link('/about.html')}`, '<meta name="robots" content="noindex, follow">'))],
    ['/meta/nofollow.html', (_q, res) => page(res, html('Nofollow', `<p>Index me, follow nothing.</p>${link('/only-from-nofollow-page.html')}`, '<meta name="ROBOTS" content="NOFOLLOW">'))],
    ['/meta/none-old-form.html', (_q, res) => page(res, html('None', `<p>Seed 002 old form.</p>${link('/only-from-nofollow-page.html')}`, '<META NAME="ROBOTS" CONTENT="NONE=INDEX,FOLLOW">'))],
    ['/meta/all.html', (_q, res) => page(res, html('All', '<p>Seed 002 ALL= form.</p>', '<meta name="robots" content="ALL=INDEX,FOLLOW">'))],
    ['/x-robots/noindex.html', (_q, res) => page(res, html('X noindex', '<p>Header says noindex.</p>'), { 'X-Robots-Tag': 'noindex' })],
    ['/x-robots/agent-nofollow.html', (_q, res) => page(res, html('X agent', `<p>Header says nofollow to us.</p>${link('/only-from-x-robots-nofollow.html')}`), { 'X-Robots-Tag': [`${o.agent.toLowerCase()}: nofollow`, 'otherbot: noindex'] })],
    ['/x-robots/otherbot.html', (_q, res) => page(res, html('X other', '<p>Header speaks to another bot only.</p>'), { 'X-Robots-Tag': 'otherbot: noindex, nofollow' })],
    ['/charset/windows-1251.html', (_q, res) => send(res, 200, 'text/html; charset=windows-1251', Buffer.concat([ascii('<html><head><title>'), encodeCp1251('Привет'), ascii('</title></head><body><p>'), encodeCp1251('Привет, мир! Съешь же ещё этих мягких французских булок.'), ascii('</p></body></html>')]))],
    ['/charset/koi8-r.html', (_q, res) => send(res, 200, 'text/html', Buffer.concat([ascii('<html><head><meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><title>koi8</title></head><body><p>'), KOI8R_PRIVET, ascii('</p></body></html>')]))],
    ['/charset/gbk.html', (_q, res) => send(res, 200, 'text/html', Buffer.concat([ascii('<html><head><meta charset="gbk"><title>'), GBK_NIHAO_SHIJIE, ascii('</title></head><body><p>'), GBK_ZHONGWEN_SOUSUO_YINQING, ascii('</p></body></html>')]))],
    ['/charset/shift_jis.html', (_q, res) => send(res, 200, 'text/html', Buffer.concat([ascii('<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS"><title>'), SJIS_KONNICHIWA, ascii('</title></head><body><p>'), SJIS_NIHONGO_KENSAKU, ascii('</p></body></html>')]))],
    ['/charset/utf-8-bom.html', (_q, res) => send(res, 200, 'text/html; charset=iso-8859-1', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<html><body><p>こんにちは</p></body></html>', 'utf8')]))],
    // The copies are linked (with empty anchors, so the text stays identical) only from the original, so the
    // original is always stored first.
    ['/dup/original.html', (_q, res) => page(res, html('Original', `<p>${DUP_TEXT}</p>${[...CASES.duplicates.copies, CASES.duplicates.mirror.copy].map((c) => link(c, '')).join('')}<a href="mirror-only.html"></a>`))],
    [CASES.duplicates.mirror.copy, (_q, res) => page(res, html('Original', `<p>${DUP_TEXT}</p><a href="mirror-only.html"></a>`))],
    [CASES.duplicates.mirror.linkedOnlyFromIt, (_q, res) => page(res, html('Mirror only', '<p>Only the copy in its own folder links here.</p>'))],
    ['/dup/mirror-only.html', (_q, res) => page(res, html('Original folder', '<p>The original links here by the same relative link.</p>'))],
    ['/dup/copy.html', (_q, res) => page(res, html('Original', `<p>${DUP_TEXT}</p>`))],
    ['/dup/copy-other-markup.html', (_q, res) => page(res, `<html><head><title>Original</title></head><body><div class="x">  ${DUP_TEXT.toUpperCase()} </div>${link(CASES.duplicates.linkedOnlyFromCopy, '')}</body></html>`)],
    ['/redirect/chain3', (_q, res) => redirect(res, 301, '/redirect/chain3-2')],
    ['/redirect/chain3-2', (_q, res) => redirect(res, 302, `${origin}/redirect/chain3-3`)],
    ['/redirect/chain3-3', (_q, res) => redirect(res, 307, 'final3.html')],
    ['/redirect/final3.html', (_q, res) => page(res, html('Final of three', '<p>End of a three-hop chain.</p>'))],
    ['/redirect/loop-a', (_q, res) => redirect(res, 302, '/redirect/loop-b')],
    ['/redirect/loop-b', (_q, res) => redirect(res, 302, '/redirect/loop-a')],
    ['/redirect/final6.html', (_q, res) => page(res, html('Final of six', '<p>Too far.</p>'))],
    ['/redirect/to-private', (_q, res) => redirect(res, 301, '/private/secret.html')],
    ['/redirect/offsite', (_q, res) => redirect(res, 302, 'http://127.0.0.2:49/offsite.html')],
    ['/private/secret.html', (_q, res) => page(res, html('Secret', '<p>Robots.txt forbids this.</p>'))],
    ['/article.html', (_q, res, url) => page(res, html('Article', `<p>Article${url.search === '' ? '' : ' (print view)'}.</p>`))],
    ['/retry/429', (_q, res) => {
      if (hit('429') === 1) send(res, 429, 'text/plain', 'slow down', { 'Retry-After': String(o.retryAfterSeconds) });
      else page(res, html('After 429', '<p>Served after waiting.</p>'));
    }],
    ['/retry/503', (_q, res) => {
      if (hit('503') <= 2) send(res, 503, 'text/plain', 'unavailable');
      else page(res, html('After 503', '<p>Served on the third try.</p>'));
    }],
    ['/retry/500-always', (_q, res) => send(res, 500, 'text/plain', 'broken')],
    ['/gone.html', (_q, res) => send(res, 410, 'text/html', html('Gone', '<p>Gone for good.</p>'))],
    // Larger than loopback's socket buffers can hold (up to 4 MB sent and 32 MB received here): at 4 MiB
    // a crawler slow to let go under load (two suites at once) had the whole body flushed, "completed".
    ['/files/archive.zip', (_q, res) => stream(res, 'application/zip', BINARY_BYTES, 0x50)],
    ['/files/photo.png', (_q, res) => stream(res, 'image/png', BINARY_BYTES, 0x89)],
    ['/big.html', (_q, res) => {
      const headPart = '<html><head><title>Big</title></head><body><p>The start of a very large page.</p><p>';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(o.bigBodyBytes) });
      const filler = Buffer.alloc(Math.max(0, o.bigBodyBytes - headPart.length), 'word ');
      res.end(Buffer.concat([ascii(headPart), filler]));
    }],
    ['/slow/headers', (_q, res) => {
      const t = setTimeout(() => page(res, html('Slow', '<p>Finally.</p>')), o.slowMs);
      res.on('close', () => clearTimeout(t));
    }],
    ['/slow/body', (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.write('<html><head><title>Slow body</title></head><body><p>First half');
      const t = setTimeout(() => res.end(' second half.</p></body></html>'), o.slowMs);
      res.on('close', () => clearTimeout(t));
    }],
    ['/etag.html', (req, res) => {
      if (req.headers['if-none-match'] === ETAG || req.headers['if-modified-since'] === LAST_MODIFIED) {
        res.writeHead(304, { ETag: ETAG, 'Last-Modified': LAST_MODIFIED });
        res.end();
      } else page(res, html('Conditional', '<p>Fetch me again with If-None-Match.</p>'), { ETag: ETAG, 'Last-Modified': LAST_MODIFIED });
    }],
    ['/sitemap.xml', (_q, res) => send(res, 200, 'application/xml', `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/from-sitemap.html</loc></url><url><loc>${origin}/about.html</loc></url><url><loc>${CASES.sitemaps.offsite}</loc></url></urlset>`)],
    ['/sitemap-index.xml', (_q, res) => send(res, 200, 'application/xml', `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemaps/pages.xml.gz</loc></sitemap></sitemapindex>`)],
    ['/sitemaps/pages.xml.gz', (_q, res) => send(res, 200, 'application/gzip', gzipSync(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/from-gz-sitemap.html</loc></url></urlset>`))],
    ['/sitemaps/plain.txt', (_q, res) => send(res, 200, 'text/plain', `${origin}/from-text-sitemap.html\n`)],
    ['/from-sitemap.html', (_q, res) => page(res, html('From sitemap', '<p>Only the sitemap names me.</p>'))],
    ['/from-gz-sitemap.html', (_q, res) => page(res, html('From gzip sitemap', '<p>Only the gzipped sitemap names me.</p>'))],
    ['/from-text-sitemap.html', (_q, res) => page(res, html('From text sitemap', '<p>Only the plain-text sitemap names me.</p>'))],
    // Pages a correct crawler never requests; served anyway so a wrong crawler is caught by the request log.
    ...['/only-from-duplicate.html', '/only-nofollow-link.html', '/only-from-nofollow-page.html', '/only-from-x-robots-nofollow.html', '/never-src.html'].map(
      (p): [string, Handler] => [p, (_q, res) => page(res, html('Should not be fetched', '<p>A crawler that reads this did something wrong.</p>'))],
    ),
  ]);

  /** Endless spaces and multi-hop chains, matched by prefix. */
  const dynamic = (url: URL, res: ServerResponse): boolean => {
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if ((m = /^\/calendar\/(\d{4})\/(\d{2})\/$/.exec(p))) {
      const y = Number(m[1]);
      const mo = Number(m[2]);
      const next = mo === 12 ? `/calendar/${y + 1}/01/` : `/calendar/${y}/${String(mo + 1).padStart(2, '0')}/`;
      page(res, html(`Calendar ${y}-${m[2]}`, `<p>Nothing happens in ${y}-${m[2]}.</p>${link(next, 'next month')}`));
      return true;
    }
    if (p === '/events') {
      const day = Number(url.searchParams.get('day') ?? '1');
      page(res, html(`Events day ${day}`, `<p>No events on day ${day}.</p>${link(`/events?day=${day + 1}`, 'next day')}`));
      return true;
    }
    if (/^\/loop\/(sub\/)+$/.test(p) || /^\/cycle\/(x\/y\/)+$/.test(p)) {
      page(res, html('Loop', `<p>A relative link that never ends at ${p.length}.</p>${link(p.startsWith('/loop') ? 'sub/' : 'x/y/', 'deeper')}`));
      return true;
    }
    if ((m = /^\/grow\/(a+)$/.exec(p))) {
      page(res, html('Growing', `<p>Longer and longer ${m[1]?.length}.</p>${link(`/grow/${m[1]}${'a'.repeat(100)}`, 'longer')}`));
      return true;
    }
    if ((m = /^\/deep\/(\d+)$/.exec(p))) {
      const n = Number(m[1]);
      page(res, html(`Deep ${n}`, `<p>Level ${n} of the deep chain.</p>${n < 60 ? link(`/deep/${n + 1}`, 'deeper') : ''}`));
      return true;
    }
    if ((m = /^\/redirect\/hop\/(\d)$/.exec(p))) {
      const n = Number(m[1]);
      redirect(res, 302, n < 6 ? `/redirect/hop/${n + 1}` : '/redirect/final6.html');
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    const record: RequestRecord = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      time: Date.now(),
      monotonicMs: performance.now(),
      status: 0,
      headers: { ...req.headers },
      completed: false,
    };
    requests.push(record);
    res.on('finish', () => {
      record.completed = true;
      record.status = res.statusCode;
    });
    res.on('close', () => {
      if (res.headersSent) record.status = res.statusCode;
    });

    const url = new URL(req.url ?? '/', origin);
    const handler = routes.get(url.pathname);
    if (handler !== undefined) handler(req, res, url);
    else if (!dynamic(url, res)) send(res, 404, 'text/html; charset=utf-8', html('Not found', '<p>No such page.</p>'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/`,
    origin,
    requests,
    hits: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
