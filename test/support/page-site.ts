// A site of fixed pages on 127.0.0.1 for tests: a path -> HTML map, a robots.txt that disallows
// /private/, 404 for the rest. `close()` stops it. Requests are logged into `log` when given.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageRequest {
  path: string;
  /** performance.now() when the request arrived. */
  monotonicMs: number;
}

export async function servePages(pages: ReadonlyMap<string, string>, log?: PageRequest[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    log?.push({ path: req.url ?? '', monotonicMs: performance.now() });
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    const body = pages.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
