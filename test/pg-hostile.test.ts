// Text PostgreSQL's jsonb cannot hold: a NUL character (jsonb refuses "\u0000"). A robots.txt, a page's
// title, text and link anchors with NULs in them, crawled into a PostgreSQL store, are stored and
// indexed like any others.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { havePostgres, PostgresServer } from './support/postgres-server.js';
import { BUILT, runCli } from './support/run-cli.js';

const run = havePostgres('the PostgreSQL hostile-text test') && BUILT;

describe.runIf(run)('NUL characters crawled into PostgreSQL', () => {
  let server: PostgresServer | undefined;
  let site: Server;
  let origin = '';
  let dir = '';
  beforeAll(async () => {
    server = await PostgresServer.create();
    dir = await mkdtemp(join(tmpdir(), 'gleaner-pg-hostile-'));
    site = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\u0000x\n# a NUL\u0000 in a comment\n');
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home\u0000page</title><p>Null\u0000bytes here and there.</p><a href="/next">anchor\u0000text</a><a href="/next?q=%00">encoded</a>');
      if (req.url?.startsWith('/next')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Next ${req.url}</title><p>The next page ${req.url.length}.</p>`);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => site.close(resolve));
    if (server) await server.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stores and indexes them', async () => {
    const url = await server!.createDatabase('hostile');
    const crawled = await runCli(['crawl', `${origin}/`, '--store', url, '--data', join(dir, 'pg'), '--delay', '0', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
    expect(crawled.stdout).toMatch(/3 pages stored/);
    const indexed = await runCli(['index', '--store', url, '--data', join(dir, 'pg')]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/^indexed 3 documents/);
  });
});
