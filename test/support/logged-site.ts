// A small site on 127.0.0.1 that keeps a log of every request, for politeness tests: when each request
// arrived and when its response ended (or its connection was dropped), and which crawler asked (the
// From header, one address per crawler process). `politenessViolations` reads such a log the way a
// site owner reads an access log: more than one request at once, or a request sooner than the delay
// after the previous response ended.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  path: string;
  /** The From header: which crawler process asked. */
  from: string;
  /** performance.now() when the request arrived. */
  startMs: number;
  /** performance.now() when the response was sent whole (`end()` hands a page this small to the kernel
   * at once), or when the connection closed without one; undefined while under way. */
  endMs?: number;
}

export interface LoggedSiteSpec {
  /** The robots.txt body. */
  robots: string;
  /** path -> HTML. */
  pages: ReadonlyMap<string, string>;
  /** path -> ms the response waits before it is sent. */
  slowMs?: ReadonlyMap<string, number>;
}

export interface LoggedSite {
  /** The site's root URL (with the trailing slash). */
  url: string;
  log: LoggedRequest[];
  /** Called when a request arrives (after it is logged). */
  onRequest?: (r: LoggedRequest) => void;
  /** When set, every answer waits for it (a test holding the site until all its crawlers are up). */
  hold?: Promise<void>;
  close(): Promise<void>;
}

export async function startLoggedSite(spec: LoggedSiteSpec): Promise<LoggedSite> {
  const log: LoggedRequest[] = [];
  const site: LoggedSite = { url: '', log, close: () => Promise.resolve() };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const entry: LoggedRequest = { path: req.url ?? '', from: req.headers.from ?? '', startMs: performance.now() };
    log.push(entry);
    // The end is taken where the response is sent, not in the 'close' event: on a loaded machine that
    // event ran tens of milliseconds after the bytes left, and the gap to the next request read shorter
    // than it was (a CI run under two suites at once: 195 ms for a delay of 250). 'close' keeps the
    // end of a connection dropped without an answer.
    res.on('close', () => (entry.endMs ??= performance.now()));
    site.onRequest?.(entry);
    const send = () => {
      if (res.destroyed) return;
      if (entry.path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(spec.robots);
      else {
        const body = spec.pages.get(entry.path);
        if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
        else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      }
      entry.endMs ??= performance.now();
    };
    const wait = spec.slowMs?.get(entry.path);
    const answer = () => (wait === undefined ? send() : void setTimeout(send, wait));
    if (site.hold === undefined) answer();
    else void site.hold.then(answer);
  };
  const server = createServer(handle);
  // A dropped client (a crawler killed mid-request) must not leave the slow response's timer holding close().
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  site.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

/** The politeness faults in a site's log: two requests under way at once, or a request that started
 * less than `delayMs - toleranceMs` after the previous one's response ended. */
export function politenessViolations(log: readonly LoggedRequest[], delayMs: number, toleranceMs = 15): string[] {
  const sorted = [...log].sort((a, b) => a.startMs - b.startMs);
  const faults: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const next = sorted[i]!;
    if (prev.endMs === undefined || prev.endMs > next.startMs) {
      faults.push(`${next.path} (${next.from}) started while ${prev.path} (${prev.from}) was under way`);
      continue;
    }
    const gap = next.startMs - prev.endMs;
    if (gap < delayMs - toleranceMs) faults.push(`${next.path} (${next.from}) started ${gap.toFixed(0)} ms after ${prev.path} (${prev.from}) ended; the delay is ${delayMs} ms`);
  }
  return faults;
}

/** A site of `n` pages: / links to /p1../p<n-1>, /p1 links deeper to /deep and to /private/secret
 * (which robots.txt disallows), and to `extra` paths. */
export function pagesOfSite(name: string, n: number, extra: readonly string[] = []): Map<string, string> {
  const page = (title: string, links: readonly string[]) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>The ${name} site, page ${title}.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
  const pages = new Map<string, string>();
  const children = Array.from({ length: n - 1 }, (_, i) => `/p${i + 1}`);
  pages.set('/', page(`${name} home`, [...children, ...extra]));
  for (const c of children) pages.set(c, page(`${name} ${c}`, c === '/p1' ? ['/deep', '/private/secret', '/'] : ['/']));
  pages.set('/deep', page(`${name} deep`, ['/p1']));
  for (const e of extra) pages.set(e, page(`${name} ${e}`, ['/']));
  return pages;
}
