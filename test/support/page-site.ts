// A site of fixed pages on 127.0.0.1 for tests: a path -> HTML map, a robots.txt that disallows
// /private/, 404 for the rest. `close()` stops it.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function servePages(pages: ReadonlyMap<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
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
