import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteDir, resolveSitePath, startDemoSite, type DemoSite } from './server.js';

describe('demoSiteDir', () => {
  it('finds the site folder from the repository root', () => {
    const dir = demoSiteDir();
    expect(dir.endsWith(join('bin', 'demo', 'site'))).toBe(true);
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    expect(existsSync(join(dir, 'robots.txt'))).toBe(true);
  });
});

describe('resolveSitePath', () => {
  const root = '/srv/site';

  it('maps a folder path to its index.html and a file path to the file', () => {
    expect(resolveSitePath(root, '/')).toEqual({ kind: 'file', file: '/srv/site/index.html', urlPath: '/' });
    expect(resolveSitePath(root, '/news/')).toEqual({ kind: 'file', file: '/srv/site/news/index.html', urlPath: '/news/' });
    expect(resolveSitePath(root, '/news/open-day.html')).toEqual({ kind: 'file', file: '/srv/site/news/open-day.html', urlPath: '/news/open-day.html' });
  });

  it('asks for a redirect when a folder is named without its slash', () => {
    expect(resolveSitePath(root, '/news')).toEqual({ kind: 'folder', urlPath: '/news' });
  });

  it('decodes percent-escapes, and refuses paths that climb out of the site or cannot be decoded', () => {
    expect(resolveSitePath(root, '/zh/%E5%AE%BF.html')).toEqual({ kind: 'file', file: '/srv/site/zh/宿.html', urlPath: '/zh/宿.html' });
    for (const bad of ['/../package.json', '/news/%2e%2e/%2e%2e/package.json', '/%2E%2E%2Fpackage.json', '/a%00.html', '/%E0%A4%A', '/..\\x.html']) {
      expect(resolveSitePath(root, bad), bad).toEqual({ kind: 'invalid' });
    }
  });
});

describe('startDemoSite', () => {
  let site: DemoSite;
  beforeAll(async () => {
    site = await startDemoSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('listens on 127.0.0.1 on a port of its own choosing', () => {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(site.url.endsWith(':0')).toBe(false);
  });

  it('serves pages as UTF-8 HTML, Chinese and Russian text intact', async () => {
    const home = await fetch(`${site.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toContain('<title>Northwind Polytechnic intranet</title>');

    const zh = await fetch(`${site.url}/zh/sushe.html`);
    expect(zh.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await zh.text()).toContain('宿舍');
    const ru = await fetch(`${site.url}/ru/stipendiya.html`);
    expect(await ru.text()).toContain('стипендия');
  });

  it('gives other files their own types', async () => {
    const css = await fetch(`${site.url}/style.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const svg = await fetch(`${site.url}/campus/map.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const sitemap = await fetch(`${site.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  });

  it('renders robots.txt and the sitemap with its own origin', async () => {
    const res = await fetch(`${site.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const robots = await res.text();
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
    expect(robots).not.toContain('{{origin}}');
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${site.url}/services/help-desk.html</loc>`);
    expect(sitemap).not.toContain('{{origin}}');
  });

  it('answers 404 with an HTML page for a missing path', async () => {
    const res = await fetch(`${site.url}/news/2019-archive.html`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('Page not found');
  });

  it('redirects a folder named without its slash, keeping the query', async () => {
    const res = await fetch(`${site.url}/news?x=1`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/news/?x=1');
  });

  it('never serves files outside the site folder', async () => {
    const res = await fetch(`${site.url}/%2E%2E%2F%2E%2E%2F%2E%2E%2Fpackage.json`);
    expect(res.status).toBe(400);
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await fetch(`${site.url}/about.html`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    const post = await fetch(`${site.url}/about.html`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers a conditional request for an unchanged page with 304', async () => {
    const first = await fetch(`${site.url}/glossary.html`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('last-modified')).toBeTruthy();
    const again = await fetch(`${site.url}/glossary.html`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });

  it('records every request with its method, path and query, user agent and time', async () => {
    const before = Date.now();
    const from = site.requests.length;
    await fetch(`${site.url}/policies/travel.html?print=1`, { headers: { 'User-Agent': 'GleanerTest/1.0' } });
    await fetch(`${site.url}/no/such/page.html`, { method: 'HEAD', headers: { 'User-Agent': 'Other' } });
    const recorded = site.requests.slice(from);
    expect(recorded.map(({ method, path, userAgent }) => ({ method, path, userAgent }))).toEqual([
      { method: 'GET', path: '/policies/travel.html?print=1', userAgent: 'GleanerTest/1.0' },
      { method: 'HEAD', path: '/no/such/page.html', userAgent: 'Other' },
    ]);
    for (const r of recorded) expect(r.at).toBeGreaterThanOrEqual(before);
  });
});

describe('startDemoSite options', () => {
  it('refuses any address but loopback', async () => {
    await expect(startDemoSite({ host: '0.0.0.0' as '127.0.0.1' })).rejects.toThrow(TypeError);
  });

  it('closes promptly although a client keeps its connection alive', async () => {
    const site = await startDemoSite();
    const res = await fetch(`${site.url}/`, { headers: { Connection: 'keep-alive' } });
    await res.text();
    await site.close();
    await expect(fetch(`${site.url}/`)).rejects.toThrow();
  });
});
