// A generated site for crawl-resume tests: page N links to pages 2N+1 and 2N+2 (a binary tree of
// `pages` pages, so breadth-first order is 0, 1, 2, ...) and back to the root. Each response waits
// `delayMs`, so a crawl takes long enough to be interrupted at a chosen moment. Loopback only.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TreeSite {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** performance.now() of each request, parallel to `requests`. */
  times: number[];
  /** The most requests this server was answering at one moment. */
  maxInFlight(): number;
  /** TCP connections the crawler opened. */
  connections(): number;
  close(): Promise<void>;
}

export async function startTreeSite(pages: number, delayMs: number): Promise<TreeSite> {
  let port = 0; // in the text, so two tree sites are not mirrors of each other (duplicates)
  const requests: string[] = [];
  const times: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    times.push(performance.now());
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    setTimeout(() => {
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
        return;
      }
      const m = /^\/p\/(\d+)$/.exec(path) ?? (path === '/' ? ['', '0'] : null);
      const n = m ? Number(m[1]) : NaN;
      if (!(n >= 0 && n < pages)) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
        return;
      }
      const kids = [2 * n + 1, 2 * n + 2].filter((k) => k < pages).map((k) => `<a href="/p/${k}">page ${k}</a>`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><title>Page ${n}</title><h1>Page ${n}</h1><p>Unique words page${n} and token${n * 7} on site ${port}.</p>${kids.join(' ')} <a href="/">home</a> <a href="/private/${n}">private</a></html>`,
      );
    }, delayMs);
  });
  server.on('connection', () => connections++);
  // undici does not reuse a connection whose server announces a keep-alive shorter than its safety margin
  // (about 2 s); 5 s lets a crawl keep one connection, as it does with nginx. close() ends them anyway.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    times,
    maxInFlight: () => maxInFlight,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
