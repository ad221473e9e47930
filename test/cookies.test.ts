// Servers that show pages only to a client that sends their cookie back (crawler/cookies.ts): a cookie
// check that redirects to itself, a servlet container that redirects to `;jsessionid=` on the first
// visit, a cookie check on another URL that redirects back. With the run's cookies the crawl stores
// their pages, as wget and browsers would; with `cookies: false` it stores one redirect, as before. A
// server that never takes its cookie back costs one request more, not a loop.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlOptions } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-cookies-');
afterAll(() => dirs.removeAll());

interface Asked {
  path: string;
  cookie: string;
}

function html(res: ServerResponse, title: string, links: string[]): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(`<title>${title}</title><p>Words of ${title}.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);
}

/** /: a cookie check (sets `seen`, redirects to itself until it comes back); /app/: a servlet container
 * (sets JSESSIONID, redirects to `;jsessionid=` until the cookie comes back); /stubborn: sets a cookie
 * and redirects to itself whatever is sent; /fresh: 60 cookies at once. */
function cookieSite(asked: Asked[]): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const cookie = req.headers.cookie ?? '';
    if (path === '/robots.txt' || path === '/sitemap.xml') {
      res.writeHead(404).end();
      return;
    }
    asked.push({ path, cookie });
    if (path === '/stubborn') {
      res.writeHead(302, { 'set-cookie': `try=${asked.length}; Path=/`, location: '/stubborn' }).end();
      return;
    }
    if (path === '/fresh') {
      res.setHeader('set-cookie', Array.from({ length: 60 }, (_, i) => `fresh${i}=1; Path=/`));
      html(res, 'Fresh', ['/after-fresh.html']);
      return;
    }
    if (path.startsWith('/app/')) {
      if (!/JSESSIONID=s1/.test(cookie)) {
        res.writeHead(302, { 'set-cookie': 'JSESSIONID=s1; Path=/app; HttpOnly', location: '/app/;jsessionid=s1' }).end();
        return;
      }
      html(res, 'Application', ['/app/report.html']);
      return;
    }
    if (path === '/wall-check?return=%2Fwall%2F') {
      res.writeHead(302, { 'set-cookie': 'consent=yes; Path=/', location: '/wall/' }).end();
      return;
    }
    if (path.startsWith('/wall/') && !/consent=yes/.test(cookie)) {
      res.writeHead(302, { location: '/wall-check?return=%2Fwall%2F' }).end();
      return;
    }
    if (path.startsWith('/moved')) {
      // A session cookie on every answer, as many frameworks set it.
      res.writeHead(301, { 'set-cookie': 'sid=1; Path=/', location: '/here.html' }).end();
      return;
    }
    if (!/seen=1/.test(cookie)) {
      res.writeHead(302, { 'set-cookie': 'seen=1; Path=/', location: path }).end();
      return;
    }
    if (path === '/') html(res, 'Home', ['/a.html', '/app/', '/stubborn', '/wall/', '/fresh']);
    else if (path === '/a.html') html(res, 'Page /a.html', ['/moved1', '/moved2', '/moved3', '/moved4']);
    else if (path === '/wall/') html(res, 'Behind the wall', ['/wall/inside.html']);
    else html(res, `Page ${path}`, []);
  });
}

async function crawlSite(options: Partial<CrawlOptions>): Promise<{ asked: Asked[]; pages: Map<string, PageRecord> }> {
  const asked: Asked[] = [];
  const server = cookieSite(asked);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], delayMs: 0, maxRetries: 0, ...options });
    const store = await openStore(data, { mustExist: true });
    const pages = new Map<string, PageRecord>();
    for await (const p of store.pages()) pages.set(new URL(p.url).pathname, p);
    await store.close();
    return { asked, pages };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('a crawl keeps the cookies servers set', () => {
  let run: Awaited<ReturnType<typeof crawlSite>>;
  beforeAll(async () => {
    run = await crawlSite({});
  });

  it('passes a cookie check that redirects to itself, with one request more', () => {
    expect(run.pages.get('/')).toMatchObject({ state: 'ok', title: 'Home' });
    expect(run.asked.filter((a) => a.path === '/').map((a) => a.cookie)).toEqual(['', 'seen=1']);
    expect(run.pages.get('/a.html')).toMatchObject({ state: 'ok', title: 'Page /a.html' });
  });

  it("reads a servlet container's pages after its ;jsessionid= redirect, sending the session back", () => {
    expect(run.pages.get('/app/')).toMatchObject({ state: 'ok', title: 'Application' });
    expect(run.asked.filter((a) => a.path === '/app/report.html').every((a) => a.cookie.includes('JSESSIONID=s1'))).toBe(true);
    // The cookie's path is /app: pages outside it never see it.
    expect(run.asked.filter((a) => a.path === '/a.html').every((a) => !a.cookie.includes('JSESSIONID'))).toBe(true);
  });

  it('passes a cookie check on another URL that leads back (/wall/ -> /wall-check -> /wall/), at once', () => {
    expect(run.asked.filter((a) => a.path.startsWith('/wall')).map((a) => `${a.path} ${a.cookie.includes('consent=yes')}`).slice(0, 3)).toEqual([
      '/wall/ false',
      '/wall-check?return=%2Fwall%2F false',
      '/wall/ true',
    ]);
    expect(run.pages.get('/wall/')).toMatchObject({ state: 'ok', title: 'Behind the wall' });
    expect(run.pages.get('/wall/inside.html')).toMatchObject({ state: 'ok' });
    // The check page was a step of the page's answer, not a page of its own: asked once, never stored.
    expect(run.asked.filter((a) => a.path.startsWith('/wall-check'))).toHaveLength(1);
    expect(run.pages.has('/wall-check')).toBe(false);
  });

  it('follows a moved page that set a cookie at once only twice a site: later ones are left to the frontier', () => {
    // /moved1../moved4 all set a session cookie and move to /here.html, which never leads back:
    // /moved1 and /moved2 ask it at once (fruitless), /moved3 and /moved4 do not; the frontier asks it
    // once, as before.
    const order = run.asked.map((a) => a.path).filter((p) => p.startsWith('/moved') || p === '/here.html');
    expect(order.slice(0, 6)).toEqual(['/moved1', '/here.html', '/moved2', '/here.html', '/moved3', '/moved4']);
    expect(order.filter((p) => p === '/here.html')).toHaveLength(3);
    for (const p of ['/moved1', '/moved2', '/moved3', '/moved4']) expect(run.pages.get(p)).toMatchObject({ state: 'redirect', finalUrl: expect.stringMatching(/\/here\.html$/) as unknown });
    expect(run.pages.get('/here.html')).toMatchObject({ state: 'ok' });
  });

  it('asks a server that never takes its cookie back twice, then stores its loop as an error saying so', () => {
    expect(run.asked.filter((a) => a.path === '/stubborn')).toHaveLength(2);
    expect(run.pages.get('/stubborn')?.state).toBe('error');
    expect(run.pages.get('/stubborn')?.error).toMatch(/^redirect to itself: /);
  });

  it('keeps at most 50 cookie names for a host that sets more', () => {
    const after = run.asked.find((a) => a.path === '/after-fresh.html');
    const sent = after?.cookie.split('; ') ?? [];
    // 50 names in all for the host: `seen`, and `JSESSIONID`, `try`, `consent` and `sid` when /app/,
    // /stubborn, /wall/ and /a.html's moved pages came first (the crawl's order decides), then the first of the 60 until 50.
    const fresh = sent.filter((c) => c.startsWith('fresh'));
    expect(fresh.length).toBeGreaterThanOrEqual(45);
    expect(fresh.length).toBeLessThanOrEqual(49);
    expect(fresh).toEqual(Array.from({ length: fresh.length }, (_, i) => `fresh${i}=1`));
    expect(run.pages.get('/after-fresh.html')).toMatchObject({ state: 'ok' });
  });
});

describe('a crawl with cookies off', () => {
  it('sends none and stores the cookie check as a redirect to itself, an error saying so', async () => {
    const { asked, pages } = await crawlSite({ cookies: false });
    expect(asked.every((a) => a.cookie === '')).toBe(true);
    expect(asked.map((a) => a.path)).toEqual(['/']);
    expect(pages.get('/')?.state).toBe('error');
    expect(pages.get('/')?.error).toMatch(/^redirect to itself: /);
  });
});
