// A test site of hostile but ordinary HTTP (issue 12, classes 1 and 2), served by node:http on 127.0.0.1
// (port 0): a good home page linking to small non-HTML files answered in full with the headers (what
// crashed the crawler when it threw them away), responses repeating Content-Type with different values,
// a gzip page far larger decoded than a small body cap, a body that drips one byte at a time and never
// ends (page and sitemap), and a few good pages. Every request is recorded with when it arrived and when
// its connection closed, so tests can check deadlines from the server's side.
//
// HOSTILE_CASES names every path and what a correct crawl does with it; start from `${site.url}`.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';

export interface HostileHttpOptions {
  /** Milliseconds between two bytes of a dripping body. */
  dripIntervalMs: number;
  /** Decoded size of the gzip page (its compressed size is a tiny fraction of it). */
  bigGzipBytes: number;
}

export const DEFAULT_HOSTILE_HTTP_OPTIONS: HostileHttpOptions = {
  dripIntervalMs: 1_000,
  bigGzipBytes: 2 * 1024 * 1024,
};

/** Paths of the site grouped by what a correct crawl does with them. */
export const HOSTILE_CASES = {
  home: '/',
  robotsTxt: '/robots.txt',
  /** HTML pages stored once each as `ok` (the type-clash page whose last Content-Type is HTML included). */
  good: ['/', '/pages/one.html', '/pages/two.html', '/pages/three.html', '/type-clash/html-last.html', '/type-clash/charset-dropped.html', '/big-gzip.html', '/coded/gzip-crlf.html', '/coded/deflate-crlf.html'],
  /** Small non-HTML files sent whole with the headers: stored as `skipped` with this media type. */
  binaries: {
    '/files/logo.png': 'image/png',
    '/favicon.ico': 'image/x-icon',
    '/feed.rss': 'application/rss+xml',
    '/data.json': 'application/json',
    '/files/manual.zip': 'application/zip',
  } as Record<string, string>,
  /** Two Content-Type headers with different values; the last valid one decides (WHATWG Fetch). */
  typeClash: {
    /** `image/png` then `text/html`: an HTML page, stored `ok`. */
    htmlLast: '/type-clash/html-last.html',
    /** `text/html` then `application/json`: JSON, stored `skipped`. */
    jsonLast: '/type-clash/json-last',
    /** `application/zip` then `nonsense` (invalid, skipped): a zip archive, stored `skipped`. */
    invalidLast: '/type-clash/invalid-last',
    /** `text/plain; charset=koi8-r; format=flowed` then `text/html`: HTML whose header charset went with the plain type,
     * so the page's own `<meta charset="utf-8">` decodes it (text holds CHARSET_DROPPED_PHRASE). */
    charsetDropped: '/type-clash/charset-dropped.html',
  },
  /** gzip-encoded HTML decoding to bigGzipBytes: stored `ok` and truncated under a smaller body cap. */
  bigGzip: '/big-gzip.html',
  /** A gzip and a zlib deflate page each followed by CRLF (PHP's `?>` newline after its gzip handler):
   * stored `ok`, whole. The deflate one hung the crawl past every deadline; the gzip one was an error. */
  codedThenCrlf: ['/coded/gzip-crlf.html', '/coded/deflate-crlf.html'],
  /** text/html that drips one byte every dripIntervalMs and never ends: stored as an `error` page. */
  drip: '/drip.html',
  /** A sitemap named in robots.txt that drips the same way: read as nothing, the crawl goes on. */
  dripSitemap: '/drip-sitemap.xml',
  /** A sitemap index named in robots.txt whose every file names two new ones (`/chain/N.xml` names
   * N+1 and 2N+2): an endless tree of sitemaps. */
  sitemapChain: { first: '/chain/0.xml', prefix: '/chain/' },
  /** A robots.txt-like text file that drips (for fetchRobots called with this URL). */
  dripRobots: '/drip/robots.txt',
  /** Bodies whose type the header does not tell (crawler/sniff.ts), linked from nowhere. */
  sniff: {
    /** An HTML page sent with no Content-Type: read as text/html. */
    noTypeHtml: '/sniff/no-type-page',
    /** Plain text with no Content-Type: text/plain. */
    noTypeText: '/sniff/no-type-notes',
    /** Binary bytes with no Content-Type: application/octet-stream, skipped. */
    noTypeBinary: '/sniff/no-type-blob',
    /** A PNG sent as text/html: image/png, skipped. */
    pngAsHtml: '/sniff/png-as-html',
    /** text/plain that begins with the letters of GIF's signature: text all the same. */
    gifWords: '/sniff/gif-words.txt',
    /** An HTML page sent as application/octet-stream (a server that knows no mapping): read as text/html. */
    octetPage: '/sniff/octet-page.html',
    /** The same bytes at a URL naming a download: application/octet-stream, skipped unread. */
    octetDownload: '/sniff/octet-page.tar',
  },
} as const;

/** Text of the charsetDropped page, which decodes wrongly when the first header's koi8-r is used. */
export const CHARSET_DROPPED_PHRASE = 'Привет, интранет';
/** The text of the pages coded then followed by CRLF (HOSTILE_CASES.codedThenCrlf). */
export const CODED_PHRASE = 'Whole after the footer';
const CRLF = Buffer.from('\r\n');

export interface HostileRequest {
  path: string;
  /** performance.now() when the request arrived. */
  arrivedMs: number;
  /** performance.now() when its connection closed or the response finished; undefined while open. */
  closedMs?: number;
  /** The whole response was handed to the socket. */
  completed: boolean;
}

export interface HostileHttpSite {
  /** `http://127.0.0.1:PORT/`: the seed. */
  url: string;
  origin: string;
  requests: HostileRequest[];
  hits(path: string): HostileRequest[];
  /** Requests still open (a drip the client has not given up). */
  open(path: string): HostileRequest[];
  close(): Promise<void>;
}

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(60, 1)]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(40, 2)]);
const BINARY = Buffer.from('PK\u0003\u0004 a zip archive is not read', 'latin1');

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

const link = (href: string): string => `<a href="${href}">${href}</a>`;

export async function startHostileHttp(options: Partial<HostileHttpOptions> = {}): Promise<HostileHttpSite> {
  const o: HostileHttpOptions = { ...DEFAULT_HOSTILE_HTTP_OPTIONS, ...options };
  const requests: HostileRequest[] = [];
  let origin = '';

  /** The whole response in one write with the headers, as a small static file is served. */
  const whole = (res: ServerResponse, type: string | string[], body: string | Buffer, extra: Record<string, string> = {}): void => {
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', String(Buffer.byteLength(body)));
    for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
    res.end(body);
  };
  const drip = (res: ServerResponse, type: string, start: string): void => {
    res.writeHead(200, { 'Content-Type': type });
    res.write(start);
    const t = setInterval(() => res.write('x'), o.dripIntervalMs);
    res.on('close', () => clearInterval(t));
  };

  const home = html('Hostile but ordinary', `<h1>Intranet</h1><p>Documents and pages.</p><ul>${[
    '/pages/one.html', ...Object.keys(HOSTILE_CASES.binaries), ...Object.values(HOSTILE_CASES.typeClash), HOSTILE_CASES.bigGzip, HOSTILE_CASES.drip, ...HOSTILE_CASES.codedThenCrlf,
  ].map((p) => `<li>${link(p)}</li>`).join('')}</ul>`);
  const bigGzip = gzipSync(html('Big gzip page', `<p>A page far larger decoded than sent.</p><p>${'word '.repeat(Math.ceil(o.bigGzipBytes / 5))}</p>`));

  const routes = new Map<string, (res: ServerResponse) => void>([
    ['/', (res) => whole(res, 'text/html; charset=utf-8', home)],
    ['/robots.txt', (res) => whole(res, 'text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}${HOSTILE_CASES.dripSitemap}\nSitemap: ${origin}${HOSTILE_CASES.sitemapChain.first}\n`)],
    ['/pages/one.html', (res) => whole(res, 'text/html; charset=utf-8', html('One', `<p>Page one.</p>${link('/pages/two.html')}`))],
    ['/pages/two.html', (res) => whole(res, 'text/html; charset=utf-8', html('Two', `<p>Page two.</p>${link('/pages/three.html')}`))],
    ['/pages/three.html', (res) => whole(res, 'text/html; charset=utf-8', html('Three', `<p>Page three.</p>${link('/')}`))],
    ['/files/logo.png', (res) => whole(res, 'image/png', PNG)],
    ['/favicon.ico', (res) => whole(res, 'image/x-icon', ICO)],
    ['/feed.rss', (res) => whole(res, 'application/rss+xml', `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>${origin}/</link></channel></rss>`)],
    ['/data.json', (res) => whole(res, 'application/json', '{"items":[1,2,3]}')],
    ['/files/manual.zip', (res) => whole(res, 'application/zip', BINARY)],
    [HOSTILE_CASES.typeClash.htmlLast, (res) => whole(res, ['image/png', 'text/html; charset=utf-8'], html('Clash', '<p>Two types, HTML last.</p>'))],
    [HOSTILE_CASES.typeClash.jsonLast, (res) => whole(res, ['text/html', 'application/json'], '{"clash":true}')],
    [HOSTILE_CASES.typeClash.invalidLast, (res) => whole(res, ['application/zip', 'nonsense'], BINARY)],
    [HOSTILE_CASES.typeClash.charsetDropped, (res) => whole(res, ['text/plain; charset=koi8-r; format=flowed', 'text/html'], html('Charset', `<p>${CHARSET_DROPPED_PHRASE}</p>`))],
    [HOSTILE_CASES.bigGzip, (res) => whole(res, 'text/html; charset=utf-8', bigGzip, { 'Content-Encoding': 'gzip' })],
    [HOSTILE_CASES.codedThenCrlf[0], (res) => whole(res, 'text/html; charset=utf-8', Buffer.concat([gzipSync(html('Gzip then CRLF', `<p>${CODED_PHRASE}: gzip.</p>`)), CRLF]), { 'Content-Encoding': 'gzip' })],
    [HOSTILE_CASES.codedThenCrlf[1], (res) => whole(res, 'text/html; charset=utf-8', Buffer.concat([deflateSync(html('Deflate then CRLF', `<p>${CODED_PHRASE}: deflate.</p>`)), CRLF]), { 'Content-Encoding': 'deflate' })],
    [HOSTILE_CASES.drip, (res) => drip(res, 'text/html; charset=utf-8', '<!doctype html><html><head><title>Drip</title></head><body><p>')],
    [HOSTILE_CASES.dripSitemap, (res) => drip(res, 'application/xml', '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')],
    [HOSTILE_CASES.dripRobots, (res) => drip(res, 'text/plain', 'User-agent: *\nDisallow: /')],
    [HOSTILE_CASES.sniff.noTypeHtml, (res) => res.end(`\n  ${html('No type', '<p>A page its server sent without a type.</p>')}`)],
    [HOSTILE_CASES.sniff.noTypeText, (res) => res.end('Meeting notes, plain text, no type.')],
    [HOSTILE_CASES.sniff.noTypeBinary, (res) => res.end(Buffer.from([0x00, 0x01, 0x02, 0x10, 0x41, 0x42]))],
    [HOSTILE_CASES.sniff.pngAsHtml, (res) => whole(res, 'text/html', PNG)],
    [HOSTILE_CASES.sniff.gifWords, (res) => whole(res, 'text/plain', 'GIF89a is the animated kind of GIF.')],
    [HOSTILE_CASES.sniff.octetPage, (res) => whole(res, 'application/octet-stream', html('Octet', '<p>A page sent as a download.</p>'))],
    [HOSTILE_CASES.sniff.octetDownload, (res) => whole(res, 'application/octet-stream', html('Octet', '<p>A page sent as a download.</p>'))],
  ]);

  const server = createServer((req, res) => {
    const record: HostileRequest = { path: req.url ?? '/', arrivedMs: performance.now(), completed: false };
    requests.push(record);
    res.on('finish', () => {
      record.completed = true;
      record.closedMs ??= performance.now();
    });
    res.on('close', () => {
      record.closedMs ??= performance.now();
    });
    const path = new URL(req.url ?? '/', origin).pathname;
    const route = routes.get(path);
    const { prefix } = HOSTILE_CASES.sitemapChain;
    if (route) route(res);
    else if (path.startsWith(prefix)) {
      const n = Number.parseInt(path.slice(prefix.length), 10);
      const index = [n + 1, 2 * n + 2].map((m) => `<sitemap><loc>${origin}${prefix}${m}.xml</loc></sitemap>`).join('');
      whole(res, 'application/xml', `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index}</sitemapindex>`);
    }
    else {
      res.statusCode = 404;
      whole(res, 'text/html', html('Not found', '<p>No such page.</p>'));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}/`,
    origin,
    requests,
    hits: (path) => requests.filter((r) => r.path === path),
    open: (path) => requests.filter((r) => r.path === path && r.closedMs === undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
