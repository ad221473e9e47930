// The demo intranet's web server: serves bin/demo/site on 127.0.0.1 and records every request, so a
// test can prove what a crawler did (and did not) fetch. node:http only; loopback only, because the
// demo is a target for our own crawler and must never be reachable from the network.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GleanerError } from '../../shared/errors.js';

export interface DemoSiteOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** The only address the demo listens on. */
  host?: '127.0.0.1';
}

export const DEMO_SITE_DEFAULTS: Required<DemoSiteOptions> = { port: 0, host: '127.0.0.1' };

export interface DemoRequest {
  method: string;
  /** Path and query as the client sent them, e.g. `/policies/travel.html?print=1`. */
  path: string;
  userAgent: string;
  /** Epoch milliseconds when the request arrived. */
  at: number;
}

export interface DemoSite {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request received, in order of arrival. */
  requests: DemoRequest[];
  close(): Promise<void>;
}

/** Files whose `{{origin}}` is replaced by the server's origin: absolute URLs cannot be known before the port is. */
const TEMPLATED = new Set(['/robots.txt', '/sitemap.xml']);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.pdf': 'application/pdf',
};

/**
 * The demo site folder. Found from the repository root (the nearest folder above this module holding
 * package.json), so it works both from source (bin/demo/) and compiled (dist/bin/demo/).
 */
export function demoSiteDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'bin', 'demo', 'site');
    const parent = dirname(dir);
    if (parent === dir) throw new GleanerError('NOT_FOUND', 'cannot find the Gleaner folder (package.json) holding the demo site');
    dir = parent;
  }
}

/** What a request path maps to: a file under `root`, a redirect to the folder's slash form, or nothing. Pure. */
export type SitePath = { kind: 'file'; file: string; urlPath: string } | { kind: 'folder'; urlPath: string } | { kind: 'invalid' };

export function resolveSitePath(root: string, rawPath: string): SitePath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'invalid' };
  }
  // Refuse `..` outright rather than normalise it into some other page: no real link here needs it.
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) {
    return { kind: 'invalid' };
  }
  const urlPath = posix.normalize(decoded);
  const relative = urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath;
  const file = join(root, ...relative.split('/').filter((s) => s !== ''));
  if (file !== root && !file.startsWith(root + sep)) return { kind: 'invalid' };
  if (extname(relative) === '') return { kind: 'folder', urlPath };
  return { kind: 'file', file, urlPath };
}

/** Starts the demo site on 127.0.0.1; resolves once it listens. */
export async function startDemoSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const { port, host: given } = { ...DEMO_SITE_DEFAULTS, ...options };
  // JavaScript callers are not held to the type: anything but loopback is refused, not served.
  const host: string = given;
  if (host !== '127.0.0.1') throw new TypeError(`the demo site only listens on 127.0.0.1, not ${host}`);
  const root = demoSiteDir();
  const requests: DemoRequest[] = [];
  let origin = '';

  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', userAgent: req.headers['user-agent'] ?? '', at: Date.now() });
    handle(root, origin, req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `demo site error: ${(e as Error).message}\n`, req.method === 'HEAD');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        // Keep-alive connections (undici pools them) would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}

async function handle(root: string, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD');
    send(res, 405, 'text/plain; charset=utf-8', 'only GET and HEAD are served here\n', false);
    return;
  }
  const url = new URL(req.url ?? '/', origin);
  const target = resolveSitePath(root, url.pathname);
  if (target.kind === 'invalid') {
    send(res, 400, 'text/plain; charset=utf-8', 'bad request path\n', head);
    return;
  }
  if (target.kind === 'folder') {
    if (await isDirectory(join(root, ...target.urlPath.split('/').filter((s) => s !== '')))) {
      res.setHeader('Location', `${target.urlPath}/${url.search}`);
      send(res, 301, 'text/plain; charset=utf-8', 'moved\n', head);
    } else notFound(res, head);
    return;
  }
  const info = await stat(target.file).catch(() => undefined);
  if (!info?.isFile()) {
    notFound(res, head);
    return;
  }
  let body: Buffer = await readFile(target.file);
  if (TEMPLATED.has(target.urlPath)) body = Buffer.from(body.toString('utf8').replaceAll('{{origin}}', origin));
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', info.mtime.toUTCString());
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  send(res, 200, CONTENT_TYPES[extname(target.file)] ?? 'application/octet-stream', body, head);
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function notFound(res: ServerResponse, head: boolean): void {
  const page = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Page not found</title></head>
<body><h1>Page not found</h1><p>There is no page at this address on the Northwind intranet. <a href="/">Go to the home page</a>.</p></body>
</html>
`;
  send(res, 404, 'text/html; charset=utf-8', page, head);
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer, head: boolean): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  res.end(head ? undefined : bytes);
}
