// A test site for filling a disk: the home page links to `pages` pages of `bytesPerPage` bytes of text
// that neither snappy nor LevelDB's log can shrink (pseudo-random words, different on every page), so a
// crawl of it writes about pages * bytesPerPage bytes into the store. Loopback only; counts requests.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FillerSite {
  /** `http://127.0.0.1:PORT/`: the seed. */
  url: string;
  /** Every path requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Deterministic words for page `n` (xorshift), about `bytes` long. */
function fillerText(n: number, bytes: number): string {
  let x = (n + 1) * 2654435761;
  const words: string[] = [];
  let length = 0;
  while (length < bytes) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const word = (x >>> 0).toString(36);
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** `robotsTxt`: the body of /robots.txt (a 404 when undefined). */
export async function startFillerSite(pages: number, bytesPerPage: number, robotsTxt?: string): Promise<FillerSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    if (path === '/robots.txt' && robotsTxt !== undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robotsTxt);
      return;
    }
    if (path === '/') {
      const links = Array.from({ length: pages }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join('\n');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Filler</title><h1>Filler</h1>${links}`);
      return;
    }
    const m = /^\/p\/(\d+)$/.exec(path);
    const n = m ? Number(m[1]) : NaN;
    if (!(n >= 0 && n < pages)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Filler ${n}</title><p>${fillerText(n, bytesPerPage)}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
