// A crawl behind an HTTP proxy named by the environment (HTTP_PROXY, as wget and curl read it;
// shared/http/proxy.ts): robots.txt and pages of a host only the proxy can resolve are asked through
// it, loopback is asked directly.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { connectProxy, type ConnectProxy } from './support/connect-proxy.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-proxy-');

function site(name: string, asked: string[]): Server {
  return createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<title>${name} ${req.url}</title><p>The text of ${name.toLowerCase()} page ${req.url}, about nothing but itself.</p><a href="/next.html">next</a> <a href="/private">private</a>`);
  });
}

describe('a crawl behind the proxy the environment names', () => {
  let proxy: ConnectProxy;
  const farAsked: string[] = [];
  const nearAsked: string[] = [];
  const far = site('Far', farAsked);
  const near = site('Near', nearAsked);
  const pages = new Map<string, PageRecord>();
  let farPort = 0;
  const saved = { ...process.env };

  beforeAll(async () => {
    await new Promise<void>((resolve) => far.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => near.listen(0, '127.0.0.1', resolve));
    farPort = (far.address() as AddressInfo).port;
    proxy = await connectProxy({ 'docs.example.test': farPort });
    process.env = { ...Object.fromEntries(Object.entries(saved).filter(([name]) => !/^(https?_proxy|no_proxy)$/i.test(name))), HTTP_PROXY: proxy.url };
    const data = join(await dirs.make(), 'data');
    const nearUrl = `http://127.0.0.1:${(near.address() as AddressInfo).port}/`;
    await crawl({ dataDir: data, seeds: [`http://docs.example.test:${farPort}/`, nearUrl], delayMs: 0, useSitemaps: false, maxRetries: 0 });
    const store = await openStore(data, { mustExist: true });
    for await (const p of store.pages()) pages.set(p.url, p);
    await store.close();
  });
  afterAll(async () => {
    process.env = saved;
    await proxy.close();
    await new Promise<void>((resolve) => far.close(() => resolve()));
    await new Promise<void>((resolve) => near.close(() => resolve()));
    await dirs.removeAll();
  });

  it('asks a host only the proxy can reach through it, robots.txt first and obeyed', () => {
    expect(pages.get(`http://docs.example.test:${farPort}/`)).toMatchObject({ state: 'ok', title: 'Far /' });
    expect(pages.get(`http://docs.example.test:${farPort}/next.html`)).toMatchObject({ state: 'ok' });
    expect(farAsked[0]).toBe('/robots.txt');
    expect(farAsked).not.toContain('/private');
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`docs.example.test:${farPort}`]));
  });

  it('asks loopback directly', () => {
    expect(nearAsked).toContain('/');
    expect(nearAsked).toContain('/next.html');
    expect([...pages.values()].filter((p) => p.url.startsWith('http://127.0.0.1') && p.state === 'ok')).toHaveLength(2);
  });
});
