// Servers that show pages only to a client that sends their cookie back (crawler/cookies.ts): a cookie
// check that redirects to itself, a servlet container that redirects to `;jsessionid=` on the first
// visit. With the run's cookies the crawl stores their pages, as wget and Scrapy would; with
// `cookies: false` it stores one redirect, as before. A server that never takes its cookie back costs
// one request more, not a loop.

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
    if (!/seen=1/.test(cookie)) {
      res.writeHead(302, { 'set-cookie': 'seen=1; Path=/', location: path }).end();
      return;
    }
    if (path === '/') html(res, 'Home', ['/a.html', '/app/', '/stubborn', '/fresh']);
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

  it('asks a server that never takes its cookie back twice, then stores its redirect', () => {
    expect(run.asked.filter((a) => a.path === '/stubborn')).toHaveLength(2);
    expect(run.pages.get('/stubborn')).toMatchObject({ state: 'redirect' });
  });

  it('keeps at most 50 cookie names for a host that sets more', () => {
    const after = run.asked.find((a) => a.path === '/after-fresh.html');
    const sent = after?.cookie.split('; ') ?? [];
    // 50 names in all for the host: `seen`, and `JSESSIONID` and `try` when /app/ and /stubborn came
    // first (the crawl's order decides), then the first of the 60 until 50.
    const fresh = sent.filter((c) => c.startsWith('fresh'));
    expect(fresh.length).toBeGreaterThanOrEqual(47);
    expect(fresh.length).toBeLessThanOrEqual(49);
    expect(fresh).toEqual(Array.from({ length: fresh.length }, (_, i) => `fresh${i}=1`));
    expect(run.pages.get('/after-fresh.html')).toMatchObject({ state: 'ok' });
  });
});

describe('a crawl with cookies off', () => {
  it('sends none and stores the cookie check as a redirect to itself, as before', async () => {
    const { asked, pages } = await crawlSite({ cookies: false });
    expect(asked.every((a) => a.cookie === '')).toBe(true);
    expect(asked.map((a) => a.path)).toEqual(['/']);
    expect(pages.get('/')).toMatchObject({ state: 'redirect' });
  });
});
