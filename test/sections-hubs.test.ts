// Sections and hubs end to end (issue 14 item 3): a crawl of a site with a chapter table of contents, an
// alphabetical index, paginated news listings and long sectioned pages, an index build, and the gateway's
// JSON API and result page. A result whose best part is a section links to page#id, shows the section's
// heading and takes its snippet from it; a hub (TOC, index, listing) never beats the page it points to.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { parseQuery } from '../web/query/index.js';
import { DEFAULT_RANK_PARAMS, openSearchEngine } from '../web/search/index.js';
import { serve, type RunningServer } from '../web/index.js';
import { startSectionedSite, type SectionedSite } from './sites/sectioned-site.js';

interface ApiHit {
  url: string;
  title: string;
  snippet: string;
  section?: { id: string; heading: string; url: string };
}

describe('sections and hubs, crawled, indexed and served', () => {
  let site: SectionedSite;
  let dataDir: string;
  let server: RunningServer;

  const search = async (q: string): Promise<ApiHit[]> => {
    const res = await fetch(new URL(`api/search?q=${encodeURIComponent(q)}`, server.url));
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: ApiHit[] }).results;
  };
  const path = (url: string) => new URL(url).pathname + new URL(url).hash;

  /** The first result's path with the hub rule off: what the page ranking gave before it. */
  const firstWithoutHubRule = async (q: string): Promise<string> => {
    const engine = await openSearchEngine(dataDir, { rank: { ...DEFAULT_RANK_PARAMS, hubWeight: 0 } });
    try {
      return path(engine.rankedUrls(parseQuery(q), 1)[0]!.url);
    } finally {
      engine.close();
    }
  };

  /** What to close after the tests, last opened first. */
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    site = await startSectionedSite();
    closers.push(() => site.close());
    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-sections-'));
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    await crawl({ dataDir, seeds: [`${site.url}/`], delayMs: 0 });
    await buildIndex(dataDir);
    server = await serve({ dataDir, port: 0, host: '127.0.0.1' });
    closers.push(() => server.close());
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('links a long page to the section that answers, with its heading and a snippet from it (JSON API)', async () => {
    const [first] = await search('pending list maximum size');
    expect(path(first!.url)).toBe('/manual/config.html');
    expect(first!.section).toEqual({ id: 'config-pending', heading: 'Pending list limit', url: `${site.url}/manual/config.html#config-pending` });
    expect(first!.snippet).toContain('gin_pending_list_limit sets the maximum size of the pending list');
  });

  it('takes section ids from a wrapping <section> too, and leaves a result matching at the page top unsectioned', async () => {
    const [memory] = await search('shared_buffers memory buffers');
    expect(memory!.section?.url).toBe(`${site.url}/manual/config.html#config-memory`);
    const [top] = await search('settings control behaviour server');
    expect(path(top!.url)).toBe('/manual/config.html');
    expect(top!.section).toBeUndefined();
  });

  it('links to the page itself when its title names every query word, not to a section repeating them', async () => {
    // "Reloading the server configuration" says both words more often than the page's top.
    const [page] = await search('server configuration');
    expect(path(page!.url)).toBe('/manual/config.html');
    expect(page!.section).toBeUndefined();
    const [reload] = await search('configuration reloading');
    expect(reload!.section?.id).toBe('config-reload');
  });

  it('links a setting a list defines to its term (`<dt id>`), and leaves the rest of the section to the section', async () => {
    const [setting] = await search('work_mem');
    expect(path(setting!.url)).toBe('/manual/config.html');
    expect(setting!.section).toEqual({ id: 'guc-work-mem', heading: 'work_mem (integer)', url: `${site.url}/manual/config.html#guc-work-mem` });
    expect(setting!.snippet).toContain('Sets the base maximum amount of memory');
    const [word] = await search('fsync');
    expect(word!.section?.id).toBe('guc-fsync');
    // The text after the list is the section's, not the last term's.
    const [after] = await search('kernel overcommit accounting');
    expect(after!.section?.id).toBe('config-memory');
  });

  it('indexes a section heading of any level as a heading of the page (an h4 subsection)', async () => {
    const engine = await openSearchEngine(dataDir);
    try {
      const [hit] = engine.search(parseQuery('huge pages'), { offset: 0, limit: 1, explain: true }).hits;
      expect(path(hit!.url)).toBe('/manual/config.html');
      expect(hit!.section?.id).toBe('config-huge-pages');
      expect(hit!.explain!.terms.filter((t) => t.field === 'headings').map((t) => t.token)).toContain('huge');
    } finally {
      engine.close();
    }
  });

  it('shows the section heading under the title and links the result to page#id (result page)', async () => {
    const html = await (await fetch(new URL(`search?q=${encodeURIComponent('pending list maximum size')}`, server.url))).text();
    expect(html).toContain(`href="${site.url}/manual/config.html#config-pending"`);
    expect(html).toMatch(/<p class="section"[^>]*>Pending list limit<\/p>/);
  });

  it('ranks the chapter introduction above the chapter table of contents and the alphabetical index', async () => {
    expect(await firstWithoutHubRule('gin index')).toMatch(/^\/manual\/(bookindex\.html)?$/);
    const hits = (await search('gin index')).map((h) => path(h.url));
    expect(hits[0]).toBe('/manual/gin-intro.html');
    expect(hits.indexOf('/manual/')).toBeGreaterThan(0);
    expect(hits.indexOf('/manual/bookindex.html')).toBeGreaterThan(0);
    // "Why this result" shows the demotion that ranked it.
    const html = await (await fetch(new URL('search?q=gin+index', server.url))).text();
    expect(html).toMatch(/<dt>Hub \(a list of other pages\)<\/dt><dd>× 0\.\d+: \d+% of its text names or repeats other pages/);
  });

  it('ranks a post above the listing page whose teaser repeats it', async () => {
    const q = 'presorted prefix columns reused';
    expect(await firstWithoutHubRule(q)).toMatch(/^\/news\/(page\/\d+\/)?$/);
    const hits = (await search(q)).map((h) => path(h.url));
    expect(hits[0]).toMatch(/^\/news\/post-(5|11)\.html$/);
    expect(hits[1]).toMatch(/^\/news\/post-(5|11)\.html$/);
  });

  it('gives a page that is all template no body: found by its title, never by the navigation, its snippet empty', async () => {
    const engine = await openSearchEngine(dataDir);
    try {
      const placeholder = engine.search(parseQuery('placeholder'), { offset: 0, limit: 10 }).hits.find((h) => path(h.url) === '/manual/placeholder.html');
      expect(placeholder?.snippet).toBe('');
      // "Home" is in the navigation alone, which every page's body leaves out.
      expect(engine.search(parseQuery('home'), { offset: 0, limit: 10 }).hits.map((h) => path(h.url))).not.toContain('/manual/placeholder.html');
    } finally {
      engine.close();
    }
  });

  it("counts no template text in a page's opening (web/search/lead.ts): the navigation opening every post says News", async () => {
    const engine = await openSearchEngine(dataDir);
    try {
      // The first page of results: the rule's pool.
      const hits = engine.search(parseQuery('news'), { offset: 0, limit: 10 }).hits;
      const opening = new Map(hits.map((h) => [path(h.url), h.explain!.openingWords]));
      const posts = [...opening].filter(([p]) => /^\/news\/post-\d+\.html$/.test(p));
      expect(posts.length).toBeGreaterThan(3);
      // Every post's page starts with the site's navigation ("Home Manual Index News"), which is template:
      // left out of the body, so "news" stands in no post's opening.
      for (const [, words] of posts) expect(words).toBe(0);
      // The listing's own text opens with its heading "News".
      expect(opening.get('/news/')).toBe(1);
    } finally {
      engine.close();
    }
  });
});
