// A page's place in its site, end to end: a section page titled only "Introduction" is found by the
// words of its chapter's title (DocBook's Up link), and a guide page by its breadcrumb trail's parent,
// once crawled over HTTP and indexed (crawler/parent-link.ts, indexer/parent-context.ts).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { parseQuery } from '../web/query/index.js';
import { openSearchEngine, type GleanerSearchEngine } from '../web/search/index.js';
import { serve, type RunningServer } from '../web/index.js';

const prose = (topic: string) => `<p>${topic} keeps its entries sorted so that a scan reads them in order, and the planner estimates how many it will visit before it chooses a plan.</p>`.repeat(3);
const docbookPage = (title: string, up: string | undefined, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><div class="navheader"><a accesskey="h" href="/">Home</a>${up ? ` <a accesskey="u" href="${up}">Up</a>` : ''}</div><h1>${title}</h1>${body}</body></html>`;
const trailPage = (title: string, trail: [string, string][], body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav aria-label="Breadcrumb">${trail.map(([href, text]) => `<a href="${href}">${text}</a> › `).join('')}${title}</nav><h1>${title}</h1>${body}</body></html>`;

const PAGES: Record<string, string> = {
  '/': docbookPage('Example Manual', undefined, '<a href="/manual/lantern.html">Lantern Indexes</a> <a href="/manual/beacon.html">Beacon Queues</a> <a href="/guide/">Replication Guide</a>'),
  '/manual/lantern.html': docbookPage('Chapter 7. Lantern Indexes', '/', '<a href="/manual/lantern-intro.html">7.1. Introduction</a> <a href="/manual/lantern-tuning.html">7.2. Tuning</a>'),
  '/manual/lantern-intro.html': docbookPage('7.1. Introduction', '/manual/lantern.html', prose('This structure')),
  '/manual/lantern-tuning.html': docbookPage('7.2. Tuning', '/manual/lantern.html', prose('Each page')),
  '/manual/beacon.html': docbookPage('Chapter 8. Beacon Queues', '/', '<a href="/manual/beacon-intro.html">8.1. Introduction</a>'),
  // A page of another chapter that says "lantern" and "index" in its text, as a page about something else does.
  '/manual/beacon-intro.html': docbookPage('8.1. Introduction', '/manual/beacon.html', `<p>Unlike a lantern index, a beacon queue is read once.</p>${prose('A beacon queue')}`),
  '/guide/': trailPage('Replication Guide', [['/', 'Home']], '<a href="/guide/setup.html">Quick Setup</a>'),
  '/guide/setup.html': trailPage('Quick Setup', [['/', 'Home'], ['/guide/', 'Replication Guide']], prose('A standby')),
  '/notes/setup.html': docbookPage('Setup notes', undefined, `<p>Replication needs a guide; this setup note is not one.</p>${prose('The note')}`),
};

describe('the parent page as context, crawled and indexed', () => {
  let server: Server;
  let dataDir: string;
  let engine: GleanerSearchEngine;
  let gateway: RunningServer;
  const first = (q: string) => new URL(engine.rankedUrls(parseQuery(q), 1)[0]!.url).pathname;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      const html = PAGES[req.url ?? ''];
      if (html === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-parent-'));
    // The notes page is reached from no other: seeded.
    await crawl({ dataDir, seeds: [`${site}/`, `${site}/notes/setup.html`], delayMs: 0 });
    await buildIndex(dataDir);
    engine = await openSearchEngine(dataDir);
    gateway = await serve({ dataDir, port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await gateway.close();
    engine.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("finds a section page titled only \"Introduction\" by its chapter's words, before another chapter's page that says them", () => {
    expect(first('lantern index')).toBe('/manual/lantern-intro.html');
    expect(first('beacon queue introduction')).toBe('/manual/beacon-intro.html');
  });

  /** The query's tokens that score in the headings field of the page at `path`, among the top 10. */
  const headingTokens = (q: string, path: string): string[] => {
    const hit = engine.search(parseQuery(q), { offset: 0, limit: 10, explain: true }).hits.find((h) => new URL(h.url).pathname === path);
    expect(hit).toBeDefined();
    return hit!.explain!.terms.filter((t) => t.field === 'headings' && t.contribution > 0).map((t) => t.token);
  };

  it("scores the chapter's title as a heading of the page, and shows it in why-this-result", () => {
    // "Lantern Indexes": both words and their pair; the page's own headings say only "7.1. Introduction".
    expect(headingTokens('lantern index', '/manual/lantern-intro.html')).toEqual(expect.arrayContaining(['lantern', 'index', 'lantern index']));
  });

  it("takes a guide's page's context from its breadcrumb trail", () => {
    // The trail's text is in the page's body either way; its parent's title counts as a heading only as context.
    expect(headingTokens('replication guide', '/guide/setup.html').length).toBeGreaterThanOrEqual(2);
    expect(first('replication guide setup')).toBe('/guide/setup.html');
  });

  it("shows the parent's title before the result's, in the JSON API and on the result page, and none under the top", async () => {
    const api = (await (await fetch(new URL('api/search?q=lantern+index', gateway.url))).json()) as { results: { url: string; context?: string }[] };
    const intro = api.results.find((r) => r.url.endsWith('/manual/lantern-intro.html'));
    expect(intro?.context).toBe('Lantern Indexes');
    // The chapter's parent is the top of the manual: no context.
    const chapter = api.results.find((r) => r.url.endsWith('/manual/lantern.html'));
    expect(chapter).toBeDefined();
    expect(chapter!.context).toBeUndefined();
    const html = await (await fetch(new URL('search?q=lantern+index', gateway.url))).text();
    expect(html).toMatch(/<p class="context"[^>]*>Lantern Indexes ›<\/p>/);
  });
});
