// Hosts with hostile or broken robots.txt files (issue 12, classes 3 and 5), each a node:http server on
// 127.0.0.1 (port 0) recording every request, beside a healthy host to crawl at the same time:
//
//   healthy     plain robots.txt disallowing /private/
//   status-503  robots.txt answers 503 every time (RFC 9309 2.3.1.4: disallow the site while it does)
//   hang        robots.txt never answers (the request stays open until the client gives up)
//   html-rules  robots.txt is an HTML page holding User-agent/Disallow lines (RFC 9309 2.2: obey them)
//   html-empty  robots.txt is an HTML page with no rule at all (read as empty: everything allowed)
//   alow        `Alow: /private/open.html` after `Disallow: /private/` (a typo must not open it)
//   redirect-file  robots.txt answers 301 to `file:///etc/passwd` (no robots.txt: allow all, at once)
//
// Every host serves the same small site: / links to /a.html, /b.html, /private/secret.html and
// /private/open.html. `refusedOrigin()` gives an origin whose port takes no connection.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refusingPort } from '../support/quiet-port.js';

export type RobotsHostKind = 'healthy' | 'status-503' | 'hang' | 'html-rules' | 'html-empty' | 'alow' | 'redirect-file';

export interface RobotsHost {
  kind: RobotsHostKind;
  /** `http://127.0.0.1:PORT/`: the seed. */
  url: string;
  origin: string;
  /** Paths requested, in arrival order. */
  requested: string[];
  hits(path: string): number;
  close(): Promise<void>;
}

/** The site's pages; what a crawl stores of them depends on the host's robots.txt. */
export const PAGES = { home: '/', public: ['/a.html', '/b.html'], secret: '/private/secret.html', open: '/private/open.html' } as const;

const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`;

const ROBOTS: Record<Exclude<RobotsHostKind, 'status-503' | 'hang' | 'redirect-file'>, { type: string; body: string }> = {
  healthy: { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
  'html-rules': {
    type: 'text/html; charset=utf-8',
    body: '<!DOCTYPE html>\n<html><head><title>robots.txt</title></head><body>\n<pre>User-agent: *\nDisallow: /private/</pre>\n<p>Crawl <b>nicely</b>, please.</p>\n</body></html>\n',
  },
  'html-empty': {
    type: 'text/html; charset=utf-8',
    body: '<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body>\n<h1>Welcome to our intranet</h1>\n<p>Nothing to see: here.</p>\n</body></html>\n',
  },
  alow: { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\nAlow: /private/open.html\n' },
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startRobotsHost(kind: RobotsHostKind): Promise<RobotsHost> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/robots.txt') {
      if (kind === 'hang') return; // never answered; closeAllConnections ends it
      if (kind === 'status-503') { send(res, 503, 'text/plain', 'Service Unavailable\n'); return; }
      if (kind === 'redirect-file') { res.writeHead(301, { location: 'file:///etc/passwd' }).end(); return; }
      const robots = ROBOTS[kind];
      send(res, 200, robots.type, robots.body); return;
    }
    if (path === PAGES.home) {
      const links = [...PAGES.public, PAGES.secret, PAGES.open].map((p) => `<a href="${p}">${p}</a>`).join(' ');
      send(res, 200, 'text/html; charset=utf-8', page(`Home of ${kind}`, `<p>The ${kind} host.</p>${links}`)); return;
    }
    if ([...PAGES.public, PAGES.secret, PAGES.open].includes(path as never)) {
      send(res, 200, 'text/html; charset=utf-8', page(`${kind} ${path}`, `<p>Page ${path} of the ${kind} host.</p>`)); return;
    }
    send(res, 404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    kind,
    url: `${origin}/`,
    origin,
    requested,
    hits: (path) => requested.filter((p) => p === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An origin on 127.0.0.1 whose port refuses connections (test/support/quiet-port.ts says why it stays so). */
export async function refusedOrigin(): Promise<string> {
  return `http://127.0.0.1:${await refusingPort()}`;
}
