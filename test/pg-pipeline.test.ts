// The pipeline with its pages in PostgreSQL, as a shared crawl keeps them: `gleaner crawl --store
// postgres://...` of the demo intranet, `gleaner index --store ...` into a data dir, and the search
// answers those of the same crawl kept in LevelDB. A --store that is not a postgres:// URL, and one
// that cannot be reached, are one line and a non-zero exit.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSite, type DemoSite } from '../bin/demo/server.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine } from '../web/search/index.js';
import { havePostgres, PostgresServer } from './support/postgres-server.js';
import { BUILT, runCli } from './support/run-cli.js';

const run = havePostgres('the PostgreSQL pipeline test') && BUILT;
let server: PostgresServer | undefined;
let site: DemoSite | undefined;
let dir: string;

describe.runIf(run)('crawl into PostgreSQL -> index -> search', () => {
  beforeAll(async () => {
    server = await PostgresServer.create();
    site = await startDemoSite();
    dir = await mkdtemp(join(tmpdir(), 'gleaner-pg-pipeline-'));
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    if (server) await server.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds what the same crawl into LevelDB finds', async () => {
    const url = await server!.createDatabase('crawl');
    const seed = `${site!.url}/`;
    const shared = await runCli(['crawl', seed, '--store', url, '--data', join(dir, 'pg'), '--delay', '0']);
    expect(shared.code, shared.stderr).toBe(0);
    const indexed = await runCli(['index', '--store', url, '--data', join(dir, 'pg')]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/indexed \d+ documents/);
    const local = await runCli(['crawl', seed, '--data', join(dir, 'level'), '--delay', '0']);
    expect(local.code, local.stderr).toBe(0);
    expect((await runCli(['index', '--data', join(dir, 'level')])).code).toBe(0);
    const fromPg = await openSearchEngine(join(dir, 'pg'));
    const fromLevel = await openSearchEngine(join(dir, 'level'));
    try {
      expect(fromPg.summary().documents).toBe(fromLevel.summary().documents);
      expect(fromPg.summary().documents).toBeGreaterThan(10);
      let found = 0;
      for (const q of ['travel policy', 'holiday', 'printer', '"expense report"', 'security']) {
        const a = fromPg.search(parseQuery(q), { offset: 0, limit: 10 });
        const b = fromLevel.search(parseQuery(q), { offset: 0, limit: 10 });
        expect(a.hits.map((h) => h.url), q).toEqual(b.hits.map((h) => h.url));
        expect(a.total, q).toBe(b.total);
        found += a.hits.length;
      }
      expect(found).toBeGreaterThan(0);
    } finally {
      fromPg.close();
      fromLevel.close();
    }
  }, 120_000);

  it('refuses a --store that is not a postgres:// URL, or that cannot be reached, in one line', async () => {
    const bad = await runCli(['index', '--store', 'mysql://x/y', '--data', join(dir, 'bad')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/--store takes a postgres:\/\/ URL/);
    const gone = await runCli(['crawl', `${site!.url}/`, '--store', `postgres://postgres@localhost/x?host=${encodeURIComponent('/nonexistent-gleaner-sock')}`, '--data', join(dir, 'gone')]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr.trim().split('\n')).toHaveLength(1);
    expect(gone.stderr).toMatch(/cannot reach PostgreSQL/);
  }, 60_000);
});
