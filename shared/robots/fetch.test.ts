// fetchRobots against a real HTTP server on loopback: a compressed robots.txt is read as its rules.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRobots } from './fetch.js';
import { parseRobots } from './parse.js';
import { checkUrl } from './match.js';
import { ROBOTS_DEFAULTS } from './policy.js';

const RULES = 'User-agent: *\nDisallow: /secret\n';
/** Locations no crawler follows: other schemes, one that does not parse, a port browsers refuse. */
const UNUSABLE = ['file:///etc/passwd', 'ftp://127.0.0.1/robots.txt', 'javascript:alert(1)', 'http://[::1/robots.txt', 'http://127.0.0.1:25/robots.txt'];
const BOMB_BYTES = 100 * 1024 * 1024;
let server: Server;
let origin = '';
const asked: IncomingHttpHeaders[] = [];
/** When each hop of /hops/ arrived and when its answer ended (performance.now()). */
const hops: { arrived: number; answered: number }[] = [];

beforeAll(async () => {
  const gzipped = gzipSync(RULES);
  const bomb = gzipSync(Buffer.concat([Buffer.from(RULES), Buffer.alloc(BOMB_BYTES, 0x20)]));
  server = createServer((req, res) => {
    asked.push(req.headers);
    if (req.url === '/gzip/robots.txt') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipped);
    else if (req.url === '/br/robots.txt') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(brotliCompressSync(RULES));
    else if (req.url === '/bomb/robots.txt') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb);
    else if (req.url?.startsWith('/moved/')) res.writeHead(301, { location: UNUSABLE[Number(req.url.slice('/moved/'.length))] }).end();
    else if (req.url?.startsWith('/hops/')) {
      const hop = { arrived: performance.now(), answered: 0 };
      hops.push(hop);
      const n = Number(req.url.slice('/hops/'.length));
      res.on('finish', () => (hop.answered = performance.now()));
      if (n < 3) res.writeHead(301, { location: `/hops/${n + 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
    }
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const secretAllowed = (body: Uint8Array): boolean => checkUrl(parseRobots(new TextDecoder().decode(body)), 'Gleaner', `${origin}/secret`, 'rfc9309').allowed;

describe('fetchRobots and content codings', () => {
  it('asks for a compressed body and reads a gzip or brotli robots.txt as its rules', async () => {
    for (const path of ['/gzip/robots.txt', '/br/robots.txt']) {
      const outcome = await fetchRobots(origin + path, { userAgentHeader: 'Gleaner' });
      expect(outcome.kind, path).toBe('response');
      if (outcome.kind !== 'response') continue;
      expect(new TextDecoder().decode(outcome.body)).toBe(RULES);
      expect(secretAllowed(outcome.body)).toBe(false);
    }
    expect(asked[0]!['accept-encoding']).toBe('gzip, deflate, br');
  });
  it('reads a compressed bomb only up to the cap, its first rules obeyed', async () => {
    const outcome = await fetchRobots(`${origin}/bomb/robots.txt`, { userAgentHeader: 'Gleaner' });
    expect(outcome.kind).toBe('response');
    if (outcome.kind !== 'response') return;
    expect(outcome.body.length).toBe(ROBOTS_DEFAULTS.maxBodyBytes);
    expect(secretAllowed(outcome.body)).toBe(false);
  });
});

describe('fetchRobots and redirects it cannot follow', () => {
  it('a Location that is not http(s), does not parse or names a bad port is an outcome of its own, asked once', async () => {
    for (const [i, location] of UNUSABLE.entries()) {
      const before = asked.length;
      expect(await fetchRobots(`${origin}/moved/${i}`, { userAgentHeader: 'Gleaner' }), location).toEqual({ kind: 'unusable-redirect', status: 301, location });
      expect(asked.length - before, location).toBe(1);
    }
  });
});

describe('fetchRobots and redirects within the site', () => {
  it('follows a redirect to the same origin only after hopDelayMs, as a page request waits its delay', async () => {
    const outcome = await fetchRobots(`${origin}/hops/0`, { userAgentHeader: 'Gleaner', hopDelayMs: 150 });
    expect(outcome.kind).toBe('response');
    expect(hops).toHaveLength(4);
    // Each hop asked at least the pause after the last answer ended (a chain had come 2 ms apart).
    for (let i = 1; i < hops.length; i++) expect(hops[i]!.arrived - hops[i - 1]!.answered, `hop ${i}`).toBeGreaterThanOrEqual(145);
  });
});
