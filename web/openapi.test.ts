// The API description is true: /openapi.json is a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator against the official schema), and real answers of /api/search,
// /api/suggest and /api/stats over a real index validate against its response schemas (ajv, JSON
// Schema 2020-12, which OpenAPI 3.1 uses), which forbid undocumented fields. /api renders it for people.

import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { gatewayPages } from '../test/support/web-corpus.js';
import { createApp } from './app.js';
import { WEB_DEFAULTS } from './defaults.js';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { listen, type RunningServer } from './server.js';
import { indexStats } from './stats.js';
import { parsePromoted } from './query/index.js';

let fixture: FixtureDir;
let engine: GleanerSearchEngine;
let server: RunningServer;
const CRAWL = {
  startedAt: '2026-01-01T10:00:00.000Z', finishedAt: '2026-01-01T10:05:00.000Z', seeds: ['http://intranet.test/'],
  pagesByState: { ok: 31 }, pagesByStatus: { '200': 31 }, hosts: 1, requests: 31, bytes: 1000, errors: 0,
  blockedByRule: {}, trapsCut: {}, duplicates: 0, outOfScope: 0,
};

beforeAll(async () => {
  const pages = gatewayPages();
  fixture = await buildFixtureIndex(pages, CRAWL);
  engine = await openSearchEngine(fixture.dataDir);
  // A page promoted for "crawler", so the answer's promoted pages are checked too.
  const promoted = parsePromoted(`<elevate><query text="crawler"><doc id="${pages[0]!.url}"/></query></elevate>`, 'test');
  server = await listen(createApp({ engine, stats: indexStats(engine), options: { promoted } }), '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
  engine.close();
  await fixture.cleanup();
});

const get = (path: string) => fetch(new URL(path, server.url));

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document stating the limits the server enforces', async () => {
    const doc = (await (await get('/openapi.json')).json()) as Record<string, unknown>;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    const size = (doc as { paths: Record<string, { get: { parameters: { name: string; schema: { maximum?: number } }[] } }> }).paths['/api/search']!.get.parameters.find((p) => p.name === 'size');
    expect(size?.schema.maximum).toBe(WEB_DEFAULTS.maxPageSize);
  });

  it('real answers validate against its response schemas, which allow no undocumented field', async () => {
    const doc = (await (await get('/openapi.json')).json()) as { components: { schemas: Record<string, object> } };
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'gleaner', components: doc.components });
    const check = (name: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `gleaner#/components/schemas/${name}` });
      const ok = validate(value);
      return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    };
    const search = await (await get('/api/search?q=crawler&size=3')).json();
    expect(check('SearchAnswer', search)).toEqual([]);
    expect((search as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect((search as { promoted?: unknown[] }).promoted).toHaveLength(1);
    expect(check('SearchAnswer', await (await get('/api/search?q=crawlr')).json())).toEqual([]);
    expect(check('SearchAnswer', await (await get('/api/search?q=crawler&size=3&explain=1')).json())).toEqual([]);
    expect(check('SuggestAnswer', await (await get('/api/suggest?q=cra')).json())).toEqual([]);
    expect(check('StatsAnswer', await (await get('/api/stats')).json())).toEqual([]);
    expect(check('Error', await (await get('/api/search?q=')).json())).toEqual([]);
    expect(check('Error', await (await get('/api/stats/live')).json())).toEqual([]);
    // The schemas do catch a field they do not describe.
    expect(check('SearchAnswer', { ...(search as object), surprise: 1 })).not.toEqual([]);
  });

  it('/api shows it to people, and the footer links there', async () => {
    const page = await (await get('/api')).text();
    expect(page).toContain('<code>GET /api/search</code>: Search');
    expect(page).toMatch(/<td><code>size<\/code><\/td><td>integer, default 10<\/td><td>Results per page, 1 to 50\.<\/td>/);
    expect(page).toContain('<caption><code>Hit</code>: One result.</caption>');
    expect(page).toContain('<a href="/api">JSON API</a>');
  });
});
