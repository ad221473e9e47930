// Sitemaps as sites serve them beyond the plain urlset: one that moved (a 301, as http to https or a
// renamed file does), a feed under its own media type (the protocol accepts RSS and Atom), and one
// saved as UTF-16 with its byte order mark. Each names a page nothing else links to.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore } from '../shared/store/index.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-sitemap-kinds-');

describe('sitemaps that moved, feeds and UTF-16', () => {
  let server: Server;
  let origin = '';
  const asked: string[] = [];
  const states = new Map<string, string>();

  beforeAll(async () => {
    const urlset = (path: string) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}${path}</loc></url></urlset>`;
    server = createServer((req, res) => {
      const path = req.url ?? '';
      asked.push(path);
      const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
      if (path === '/robots.txt') return send('text/plain', ['User-agent: *', ...['/old-sitemap.xml', '/feed.rss', '/atom.xml', '/utf16.xml', '/elsewhere.xml'].map((p) => `Sitemap: ${origin}${p}`)].join('\n'));
      if (path === '/old-sitemap.xml') return void res.writeHead(301, { location: '/sitemaps/new.xml' }).end();
      // Another host name (the same server): a sitemap speaks for its own site only.
      if (path === '/elsewhere.xml') return void res.writeHead(301, { location: `${origin.replace('127.0.0.1', 'localhost')}/sitemaps/other.xml` }).end();
      if (path === '/sitemaps/new.xml') return send('application/xml', urlset('/from-moved.html'));
      if (path === '/feed.rss') return send('application/rss+xml', `<?xml version="1.0"?><rss version="2.0"><channel><item><link>${origin}/from-rss.html</link></item></channel></rss>`);
      if (path === '/atom.xml') return send('application/atom+xml', `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="${origin}/from-atom.html"/></entry></feed>`);
      if (path === '/utf16.xml') return send('application/xml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(urlset('/from-utf16.html').replace('?>', ' encoding="UTF-16"?>'), 'utf16le')]));
      if (path.startsWith('/from-') || path === '/') return send('text/html', `<title>${path}</title><p>The page ${path.replace(/\W/g, ' ')} and its own words.</p>`);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], delayMs: 0 });
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) states.set(new URL(p.url).pathname, p.state);
    await store.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dirs.removeAll();
  });

  it('follows a moved sitemap on its own host to where it went', () => {
    expect(asked).toContain('/sitemaps/new.xml');
    expect(states.get('/from-moved.html')).toBe('ok');
  });
  it('reads RSS and Atom feeds served under their own media types', () => {
    expect(states.get('/from-rss.html')).toBe('ok');
    expect(states.get('/from-atom.html')).toBe('ok');
  });
  it('reads a UTF-16 sitemap by its byte order mark', () => {
    expect(states.get('/from-utf16.html')).toBe('ok');
  });
  it('does not follow a sitemap to another host name', () => {
    expect(asked).toContain('/elsewhere.xml');
    expect(asked).not.toContain('/sitemaps/other.xml');
  });
});

// A site whose sitemaps list far more than the crawl may store: 300 sitemaps of one URL each in
// robots.txt, and a sitemap index of 20 children of 2,000 URLs. Sitemaps are asked before the pages
// they list, so all of them were read before a second page, whatever --max-pages said.
describe('sitemaps beyond the crawl\u2019s page budget', () => {
  let server: Server;
  let origin = '';
  const asked: string[] = [];
  let stored = 0;
  const logged: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      asked.push(path);
      const xml = (body: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?>${body}`);
      if (path === '/robots.txt') {
        const lines = ['User-agent: *', `Sitemap: ${origin}/index.xml`, ...Array.from({ length: 300 }, (_, i) => `Sitemap: ${origin}/one-${i}.xml`)];
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\n'));
      }
      if (path === '/index.xml') return void xml(`<sitemapindex>${Array.from({ length: 20 }, (_, i) => `<sitemap><loc>${origin}/child-${i}.xml</loc></sitemap>`).join('')}</sitemapindex>`);
      const child = /^\/child-(\d+)\.xml$/.exec(path);
      if (child) return void xml(`<urlset>${Array.from({ length: 2000 }, (_, j) => `<url><loc>${origin}/c${child[1]}-${j}.html</loc></url>`).join('')}</urlset>`);
      const one = /^\/one-(\d+)\.xml$/.exec(path);
      if (one) return void xml(`<urlset><url><loc>${origin}/one-${one[1]}.html</loc></url></urlset>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${path}</title><p>Words of ${path}.</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const data = join(await dirs.make(), 'data');
    await crawl({ dataDir: data, seeds: [`${origin}/`], delayMs: 0, maxPages: 5 }, { log: (_level, msg) => void logged.push(msg) });
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) if (p.state === 'ok') stored++;
    await store.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dirs.removeAll();
  });

  it('stops reading a host\u2019s sitemaps once it has as many URLs as the crawl may store', () => {
    expect(stored).toBe(5);
    // Of the 321 sitemaps, those read until the host had 5 URLs (the seed and one a sitemap, or 2,000
    // from a child of the index); the rest are left unread.
    const sitemaps = asked.filter((p) => p.endsWith('.xml'));
    expect(sitemaps.length).toBeGreaterThanOrEqual(2);
    expect(sitemaps.length).toBeLessThanOrEqual(6);
    expect(asked.filter((p) => p.startsWith('/child-')).length).toBeLessThanOrEqual(1);
    expect(logged).toContain('sitemaps left unread: the host already has as many URLs as the crawl may store');
  });
});
