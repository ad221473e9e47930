// The embeddable search box's doors, over HTTP through createApp and a real index: closed by default,
// opened by allowOrigins to exactly the listed origins, for /embed.js and /api/* only.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { gatewayPages } from '../test/support/web-corpus.js';
import { createApp } from './app.js';
import { corsHeaders, normalizeOrigin } from './cross-origin.js';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { listen, type RunningServer } from './server.js';

describe('origins', () => {
  it('an origin is scheme, host and port, as a browser sends it', () => {
    expect(normalizeOrigin('https://www.example.org')).toBe('https://www.example.org');
    expect(normalizeOrigin('https://www.example.org/')).toBe('https://www.example.org');
    expect(normalizeOrigin('HTTP://Example.ORG:80')).toBe('http://example.org');
    expect(normalizeOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    for (const bad of ['www.example.org', 'https://www.example.org/search', 'ftp://x.org', 'https://u:p@x.org', '*', '']) expect(normalizeOrigin(bad), bad).toBeUndefined();
  });
  it('CORS headers only for a listed origin', () => {
    const allowed = new Set(['https://a.example']);
    expect(corsHeaders('https://a.example', allowed)).toMatchObject({ 'Access-Control-Allow-Origin': 'https://a.example' });
    expect(corsHeaders('https://b.example', allowed)).toEqual({});
    expect(corsHeaders(undefined, allowed)).toEqual({});
  });
});

describe('over HTTP', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  let closed: RunningServer;
  let open: RunningServer;
  const SITE = 'http://site.example:8080';

  beforeAll(async () => {
    fixture = await buildFixtureIndex(gatewayPages());
    engine = await openSearchEngine(fixture.dataDir);
    closed = await listen(createApp({ engine }), '127.0.0.1', 0);
    open = await listen(createApp({ engine, options: { allowOrigins: [SITE] } }), '127.0.0.1', 0);
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
    engine.close();
    await fixture.cleanup();
  });

  const get = (server: RunningServer, path: string, origin?: string) => fetch(new URL(path, server.url), { headers: origin ? { Origin: origin } : {} });

  it('by default nothing is shared: the script and the API stay same-origin', async () => {
    const script = await get(closed, '/embed.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    const api = await get(closed, '/api/search?q=crawler', SITE);
    expect(api.status).toBe(200);
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
    expect(api.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('an allowed origin may load the script and read the API; another origin may not', async () => {
    expect((await get(open, '/embed.js')).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const api = await get(open, '/api/search?q=crawler', SITE);
    expect(api.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(api.headers.get('vary')).toMatch(/Origin/);
    expect(((await api.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const other = await get(open, '/api/search?q=crawler', 'http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    const preflight = await fetch(new URL('/api/search?q=x', open.url), { method: 'OPTIONS', headers: { Origin: SITE, 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
  });

  it('a preflight for a GET that sends Content-Type: application/json (as fetch wrappers do) is allowed', async () => {
    // Without Access-Control-Allow-Headers, Chromium refused `fetch(api, {headers: {'Content-Type':
    // 'application/json'}})` from the allowed site: "Request header field content-type is not allowed".
    const preflight = await fetch(new URL('/api/search?q=x', open.url), { method: 'OPTIONS', headers: { Origin: SITE, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toContain('content-type');
  });

  it('with origins allowed, every API answer varies by Origin, refusals and answers to no Origin too', async () => {
    // A shared cache keys on Vary: an answer refused to one origin must not be served to the allowed one.
    for (const origin of [SITE, 'http://evil.example', undefined]) {
      const res = await get(open, '/api/search?q=crawler', origin);
      expect(res.headers.get('vary'), String(origin)).toMatch(/\bOrigin\b/);
      await res.arrayBuffer();
    }
    const refusedPreflight = await fetch(new URL('/api/search?q=x', open.url), { method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' } });
    expect(refusedPreflight.headers.get('vary')).toMatch(/\bOrigin\b/);
    const notFound = await get(open, '/api/nothing-here', 'http://evil.example');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('pages stay unframeable and same-origin whatever is allowed', async () => {
    const page = await get(open, '/search?q=crawler', SITE);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });
});
