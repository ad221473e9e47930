// A three-page site whose redirect lands on a URL with a session id: `/` links to `/r`, which answers
// 301 to `/b?sid=${SESSION_ID}`. A crawl told to keep `sid` stores that URL; the default canonicalizer
// strips it (a session-like value). Served by node:http on 127.0.0.1, port 0.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A value the default canonicalizer takes for a session id. */
export const SESSION_ID = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';

export interface RedirectParamsSite {
  url: string;
  close(): Promise<void>;
}

export async function startRedirectParamsSite(): Promise<RedirectParamsSite> {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(404).end();
    } else if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><p>The home page links <a href="/r">the moved page</a>.</p>');
    } else if (path === '/r') {
      res.writeHead(301, { location: `/b?sid=${SESSION_ID}` }).end();
    } else if (path === `/b?sid=${SESSION_ID}`) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Landing</title><p>Where the redirect lands, with its parameter.</p>');
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>nothing here</p>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
