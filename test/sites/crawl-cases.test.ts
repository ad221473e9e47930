// The test site behaves as CASES says, and the crawler's pure modules read it right: this is what the
// crawl integration tests rely on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBody } from '../../crawler/charset.js';
import { duplicateKey } from '../../crawler/dedup.js';
import { extractHtml } from '../../crawler/extract.js';
import { mergeRobots, robotsFromHeader } from '../../crawler/robots-meta.js';
import { gunzipIfNeeded, parseSitemap } from '../../crawler/sitemaps.js';
import { CASES, startCrawlCases, type CrawlCasesSite } from './crawl-cases.js';

let site: CrawlCasesSite;
beforeAll(async () => {
  site = await startCrawlCases({ slowMs: 300, bigBodyBytes: 200_000, crawlDelaySeconds: 2 });
});
afterAll(async () => {
  await site.close();
});

const get = (path: string, init: RequestInit = {}) => fetch(new URL(path, site.origin), { redirect: 'manual', ...init });

async function page(path: string) {
  const res = await get(path);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { text, charset } = decodeBody(bytes, res.headers.get('content-type') ?? undefined);
  const extracted = extractHtml(text, new URL(path, site.origin).href);
  // fetch joins repeated headers with ', '; robotsFromHeader reads a named agent up to the next one.
  const xRobots = res.headers.get('x-robots-tag');
  const header = robotsFromHeader(xRobots === null ? [] : [xRobots], 'Gleaner');
  return { res, charset, extracted, robots: mergeRobots(extracted.robots, header) };
}

describe('the crawl-cases site', () => {
  it('listens on 127.0.0.1 and records each request with its time and headers', async () => {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const before = Date.now();
    await (await get('/about.html', { headers: { 'User-Agent': 'Gleaner/test' } })).text();
    const r = site.hits('/about.html').at(-1);
    expect(r?.status).toBe(200);
    expect(r?.headers['user-agent']).toBe('Gleaner/test');
    expect(r?.time).toBeGreaterThanOrEqual(before);
    expect(r?.completed).toBe(true);
  });

  it('serves robots.txt with disallow rules, Crawl-delay and Sitemap lines', async () => {
    const body = await (await get('/robots.txt')).text();
    expect(body).toContain('Disallow: /private/');
    expect(body).toContain('Disallow: /*?print=');
    expect(body).toContain('Crawl-delay: 2');
    expect(body).toContain(`Sitemap: ${site.origin}/sitemap-index.xml`);
  });

  it('links from the home page to the cases, and never to what only sitemaps name', async () => {
    const { extracted } = await page('/');
    const paths = extracted.links.map((l) => l.url.slice(site.origin.length));
    for (const p of [...CASES.disallowed, CASES.redirects.chain3.start, CASES.traps.calendar, ...Object.keys(CASES.charsets)]) expect(paths).toContain(p);
    for (const p of CASES.sitemaps.onlyInSitemaps) expect(paths).not.toContain(p);
    expect(paths).toContain('/about.html'); // the session-id alias canonicalizes to it
    expect(extracted.links.find((l) => l.url.endsWith('/only-nofollow-link.html'))?.rel).toEqual(['nofollow']);
    expect(paths).not.toContain('/never-src.html');
    expect(paths).toContain('/area-target.html');
  });

  it('serves each charset page so that it decodes to the expected phrase', async () => {
    for (const [path, want] of Object.entries(CASES.charsets)) {
      const { charset, extracted } = await page(path);
      expect(charset, path).toBe(want.charset);
      expect(extracted.text, path).toContain(want.phrase);
    }
  });

  it('marks noindex and nofollow pages through META and X-Robots-Tag', async () => {
    for (const p of CASES.noindex) expect((await page(p)).robots.index, p).toBe(false);
    for (const p of CASES.nofollowPages) expect((await page(p)).robots.follow, p).toBe(false);
    expect((await page('/x-robots/otherbot.html')).robots).toEqual({ index: true, follow: true });
    expect((await page('/meta/all.html')).robots).toEqual({ index: true, follow: true });
  });

  it('gives the duplicates one fingerprint and the original links to them', async () => {
    const orig = await page(CASES.duplicates.original);
    const { copies, mirror } = CASES.duplicates;
    for (const c of [...copies, mirror.copy]) expect(duplicateKey((await page(c)).extracted.text), c).toBe(duplicateKey(orig.extracted.text));
    // The original's relative link names a page of its folder; the mirror's the same link, of its own.
    expect(orig.extracted.links.map((l) => l.url.slice(site.origin.length))).toEqual([...copies, mirror.copy, '/dup/mirror-only.html']);
    expect((await page(mirror.copy)).extracted.links.map((l) => l.url.slice(site.origin.length))).toEqual([mirror.linkedOnlyFromIt]);
  });

  it('names a canonical, a refresh target and a base-resolved link', async () => {
    expect((await page(CASES.canonical.page)).extracted.canonical).toBe(site.origin + CASES.canonical.canonical);
    expect((await page(CASES.refresh.page)).extracted.links).toEqual([{ url: site.origin + CASES.refresh.target, text: '', rel: [], kind: 'refresh' }]);
    expect((await page(CASES.base.page)).extracted.links[0]?.url).toBe(site.origin + CASES.base.resolvedLink);
  });

  it('redirects: a chain of 3 to a page, a loop, a chain of 6, into robots-disallowed space, and off-site', async () => {
    const follow = async (start: string, max: number) => {
      const seen: string[] = [];
      let url = new URL(start, site.origin).href;
      for (let i = 0; i < max; i++) {
        const res = await fetch(url, { redirect: 'manual' });
        await res.arrayBuffer();
        if (res.status < 300 || res.status > 399) return { seen, final: url, status: res.status };
        seen.push(url.slice(site.origin.length));
        url = new URL(res.headers.get('location') ?? '', url).href;
      }
      return { seen, final: url, status: 0 };
    };
    const chain = await follow(CASES.redirects.chain3.start, 10);
    expect(chain.seen).toEqual([...CASES.redirects.chain3.hops]);
    expect(chain.final).toBe(site.origin + CASES.redirects.chain3.final);
    expect(chain.status).toBe(200);
    expect((await follow(CASES.redirects.loop.start, 4)).seen).toEqual(['/redirect/loop-a', '/redirect/loop-b', '/redirect/loop-a', '/redirect/loop-b']);
    const six = await follow(CASES.redirects.chain6.start, 10);
    expect(six.seen).toHaveLength(6);
    expect(six.final).toBe(site.origin + CASES.redirects.chain6.final);
    expect((await get(CASES.redirects.toDisallowed.start)).headers.get('location')).toBe(CASES.redirects.toDisallowed.target);
    expect((await get(CASES.redirects.offsite.start)).headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.2:/);
  });

  it('traps produce new URLs forever', async () => {
    const next = async (path: string) => (await page(path)).extracted.links[0]?.url.slice(site.origin.length);
    expect(await next('/calendar/2026/12/')).toBe('/calendar/2027/01/');
    expect(await next('/events?day=41')).toBe('/events?day=42');
    expect(await next('/loop/sub/sub/')).toBe('/loop/sub/sub/sub/');
    expect(await next('/cycle/x/y/x/y/')).toBe('/cycle/x/y/x/y/x/y/');
    expect((await next('/grow/a'))?.length).toBe('/grow/a'.length + 100);
    expect(await next('/deep/7')).toBe('/deep/8');
  });

  it('answers 429 with Retry-After once, then 200; 503 twice, then 200; 500 always', async () => {
    const first = await get(CASES.retry.tooMany);
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await get(CASES.retry.tooMany)).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(CASES.retry.unavailable)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect((await get(CASES.retry.alwaysFailing)).status).toBe(500);
    expect((await get(CASES.retry.alwaysFailing)).status).toBe(500);
  });

  it('answers 404 and 410', async () => {
    expect((await get(CASES.gone.notFound)).status).toBe(404);
    expect((await get(CASES.gone.gone)).status).toBe(410);
  });

  it('streams binary types and records a client that stopped reading as not completed', async () => {
    const controller = new AbortController();
    const res = await get(CASES.skippedTypes[0], { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('application/zip');
    controller.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(site.hits(CASES.skippedTypes[0]).at(-1)?.completed).toBe(false);
  });

  it('serves an oversized body of the configured size', async () => {
    const res = await get(CASES.oversized);
    expect(res.headers.get('content-length')).toBe('200000');
    expect((await res.arrayBuffer()).byteLength).toBe(200_000);
  });

  it('answers the slow endpoints in the end', async () => {
    expect(await (await get(CASES.slow.headers)).text()).toContain('Finally');
    const r = await get(CASES.slow.body);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('second half');
  });

  it('answers a conditional GET with 304', async () => {
    const res = await get(CASES.conditional);
    const etag = res.headers.get('etag');
    expect(etag).not.toBeNull();
    expect((await get(CASES.conditional, { headers: { 'If-None-Match': etag ?? '' } })).status).toBe(304);
    expect((await get(CASES.conditional, { headers: { 'If-Modified-Since': res.headers.get('last-modified') ?? '' } })).status).toBe(304);
  });

  it('compresses when the client accepts gzip', async () => {
    const res = await get('/compressed.html', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('gzip-compressed'); // fetch inflates it
  });

  it('serves the sitemaps: urlset, index to a gzip urlset, plain text', async () => {
    const read = async (p: string) => parseSitemap(new TextDecoder().decode(await gunzipIfNeeded(new Uint8Array(await (await get(p)).arrayBuffer()))));
    expect((await read('/sitemap.xml')).urls).toEqual([`${site.origin}/from-sitemap.html`, `${site.origin}/about.html`, CASES.sitemaps.offsite]);
    expect((await read('/sitemap-index.xml')).sitemaps).toEqual([`${site.origin}/sitemaps/pages.xml.gz`]);
    expect((await read('/sitemaps/pages.xml.gz')).urls).toEqual([`${site.origin}/from-gz-sitemap.html`]);
    expect((await read('/sitemaps/plain.txt')).urls).toEqual([`${site.origin}/from-text-sitemap.html`]);
  });

  it('gives each started site fresh counters', async () => {
    const other = await startCrawlCases();
    try {
      expect(other.origin).not.toBe(site.origin);
      expect((await fetch(`${other.origin}${CASES.retry.tooMany}`)).status).toBe(429);
      expect(other.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
