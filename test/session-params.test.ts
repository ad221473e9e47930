// A site that keys its stories by `sid` (Slashdot's `article.pl?sid=99/01/01/121`, PHP-Nuke's `sid=42`)
// beside links carrying a real session id in the same name. With `sid` stripped whatever its value, a
// crawl asked `/article.pl`, which no page links to, stored "gone 404" and lost every story.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore, recordedCanonicalizer } from '../shared/store/index.js';
import { servePages, type PageRequest } from './support/page-site.js';

const STORIES = ['/article.pl?sid=99/01/01/121', '/article.pl?sid=99/01/02/1337', '/modules.php?name=News&sid=42'];
const SESSION = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const pages = new Map<string, string>([
  ['/', page('Home', [...STORIES, `/faq.pl?sid=${SESSION}`].map((p) => `<a href="${p}">${p}</a>`).join(' '))],
  ...STORIES.map((p, i): [string, string] => [p, page(`Story ${i}`, `<p>Story number ${i}.</p>`)]),
  ['/faq.pl', page('FAQ', '<p>Questions.</p>')],
]);

describe('sid as a story id, and as a session id', () => {
  let site: Awaited<ReturnType<typeof servePages>>;
  const requests: PageRequest[] = [];
  const dirs: string[] = [];
  const tmp = async () => {
    const d = await mkdtemp(join(tmpdir(), 'gleaner-sid-'));
    dirs.push(d);
    return d;
  };
  async function okUrls(dataDir: string): Promise<string[]> {
    const store = await openStore(dataDir, { mustExist: true });
    try {
      const out: string[] = [];
      for await (const p of store.pages()) if (p.state === 'ok') out.push(p.url.slice(site.url.length - 1));
      return out.sort();
    } finally {
      await store.close();
    }
  }
  beforeAll(async () => {
    site = await servePages(pages, requests);
  });
  afterAll(async () => {
    await site.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('a crawl with the default settings stores every story, and the page behind a session id once, without it', async () => {
    requests.length = 0;
    const dataDir = await tmp();
    await crawl({ dataDir, seeds: [site.url], delayMs: 0, parseThreads: 0, useSitemaps: false });
    expect(await okUrls(dataDir)).toEqual(['/', '/faq.pl', ...STORIES].sort());
    expect(requests.map((r) => r.path)).not.toContain('/article.pl');
  });

  it('a crawl begun when sid was stripped whatever its value, resumed with --recrawl, finds the stories', async () => {
    const dataDir = await tmp();
    const old = ['phpsessid', 'sid', 'sessionid', 'session_id', 'jsessionid', 'aspsessionid*', 'utm_*'];
    await crawl({ dataDir, seeds: [site.url], delayMs: 0, parseThreads: 0, useSitemaps: false, stripParams: old });
    expect(await okUrls(dataDir)).toEqual(['/', '/faq.pl']);
    await crawl({ dataDir, seeds: [site.url], delayMs: 0, parseThreads: 0, useSitemaps: false, recrawl: true });
    expect(await okUrls(dataDir)).toEqual(['/', '/faq.pl', ...STORIES].sort());
    const store = await openStore(dataDir, { mustExist: true });
    try {
      expect((await recordedCanonicalizer(store)).canonicalize(`${site.url}${STORIES[0]!.slice(1)}`)).toBe(`${site.url}${STORIES[0]!.slice(1)}`);
    } finally {
      await store.close();
    }
  });
});
