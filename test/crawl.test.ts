// The crawler against a site with every case of issue 4 (test/sites/crawl-cases.ts), on 127.0.0.1, with
// a real LevelDB store: what was requested (the server's log), in what order and how far apart, and what
// was stored.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, EXTRACTION_VERSION, type CrawlSummary } from '../crawler/index.js';
import { openStore, type PageRecord } from '../shared/store/index.js';
import { CASES, startCrawlCases, type CrawlCasesSite } from './sites/crawl-cases.js';
import { startTreeSite } from './sites/tree-site.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'gleaner-crawl-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function pagesOf(dataDir: string): Promise<Map<string, PageRecord>> {
  const store = await openStore(dataDir, { mustExist: true });
  const out = new Map<string, PageRecord>();
  for await (const p of store.pages()) out.set(new URL(p.url).pathname + new URL(p.url).search, p);
  await store.close();
  return out;
}

/** Fast retries so the suite stays short; the behaviour (how many, in what order) is what is tested. */
// maxBackoffMs caps Retry-After too (crawler/politeness.ts retryStep): above the site's 1 s Retry-After so
// the retry test sees the server's wait honoured, not the cap.
const TEST_TIMING = { delayMs: 0, backoffMs: 20, maxBackoffMs: 2_000, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 };

describe('a full crawl of the crawl-cases site', () => {
  let site: CrawlCasesSite;
  let dataDir: string;
  let summary: CrawlSummary;
  let pages: Map<string, PageRecord>;
  const requested = () => site.requests.map((r) => r.path);

  beforeAll(async () => {
    site = await startCrawlCases({ slowMs: 300 });
    dataDir = await tmp();
    // Depth 60 rather than 20, so the calendar (cut by its year window 3 years ahead) is not cut by depth first.
    summary = await crawl({ dataDir, seeds: [site.url], ...TEST_TIMING, maxDepth: 60 });
    pages = await pagesOf(dataDir);
  }, 120_000);
  afterAll(async () => {
    await site.close();
  });

  it('reads robots.txt before anything else, and stores every ordinary page as ok', () => {
    expect(requested()[0]).toBe('/robots.txt');
    for (const p of CASES.ok) expect(pages.get(p)?.state, p).toBe('ok');
    expect(summary.stoppedBecause).toBe('done');
  });

  it('never requests a disallowed URL or a link it must not follow (src, nofollow, a duplicate’s links)', () => {
    for (const p of CASES.neverFetched) expect(site.hits(p), p).toEqual([]);
    expect(Object.keys(summary.stats.blockedByRule).some((k) => k.includes('/private/'))).toBe(true);
  });

  it('sends User-Agent with token, version and info URL, Accept, compression, and the Referer of the linking page', () => {
    const about = site.hits('/about.html')[0]!;
    expect(about.headers['user-agent']).toMatch(/^Gleaner\/\d+\.\d+\.\d+ \(\+https?:\/\/\S+\)$/);
    expect(about.headers['accept']).toContain('text/html');
    expect(about.headers['accept-encoding']).toMatch(/gzip/);
    expect(about.headers['referer']).toBe(site.url);
    expect(pages.get('/compressed.html')?.text.length).toBeGreaterThan(0);
  });

  it('honours META robots and X-Robots-Tag: noindex stored but flagged, nofollow links not followed', () => {
    for (const p of CASES.noindex) expect(pages.get(p)?.robots.index, p).toBe(false);
    for (const p of CASES.nofollowPages) expect(pages.get(p)?.robots.follow, p).toBe(false);
    expect(pages.get('/meta/all.html')?.robots).toEqual({ index: true, follow: true });
  });

  it('decodes each charset into correct text', () => {
    for (const [p, { phrase }] of Object.entries(CASES.charsets)) expect(pages.get(p)?.text, p).toContain(phrase);
  });

  it('stores copies as duplicates of the first copy and follows none of their links', () => {
    const { original, copies, linkedOnlyFromCopy } = CASES.duplicates;
    expect(pages.get(original)?.state).toBe('ok');
    for (const c of copies) {
      expect(pages.get(c)?.state, c).toBe('duplicate');
      expect(pages.get(c)?.duplicateOf).toBe(`${site.origin}${original}`);
    }
    expect(site.hits(linkedOnlyFromCopy)).toEqual([]);
  });

  it('follows the links of a copy in another folder, whose relative links name other pages', () => {
    const { original, mirror } = CASES.duplicates;
    expect(pages.get(mirror.copy)?.state).toBe('duplicate');
    expect(pages.get(mirror.copy)?.duplicateOf).toBe(`${site.origin}${original}`);
    expect(pages.get(mirror.linkedOnlyFromIt)?.state).toBe('ok');
  });

  it('canonicalizes URLs: a session id alias is never requested as such; rel=canonical is recorded and fetched', () => {
    expect(site.hits(CASES.sessionAlias)).toEqual([]);
    expect(pages.get(CASES.canonical.page)?.canonical).toBe(`${site.origin}${CASES.canonical.canonical}`);
    expect(pages.get(CASES.canonical.canonical)?.state).toBe('ok');
    expect(pages.get(CASES.refresh.target)?.state).toBe('ok');
    expect(pages.get(CASES.base.resolvedLink)?.state).toBe('ok');
  });

  it('follows a redirect chain hop by hop, stops a loop, a chain longer than 5, and hops out of scope or into disallowed paths', () => {
    const { chain3, loop, chain6, toDisallowed, offsite } = CASES.redirects;
    for (const hop of chain3.hops) expect(pages.get(hop)?.state, hop).toBe('redirect');
    expect(pages.get(chain3.final)?.state).toBe('ok');
    expect(site.hits(loop.start).length).toBe(1);
    expect(site.hits(loop.other).length).toBe(1);
    expect(site.hits(chain6.final)).toEqual([]);
    expect([...pages.values()].some((p) => p.error?.includes('more than 5 redirects'))).toBe(true);
    expect(site.hits(toDisallowed.target)).toEqual([]);
    expect(pages.get(offsite.start)?.state).toBe('redirect');
    expect(pages.has('/from-sitemap-offsite.html')).toBe(false);
  });

  it('cuts traps with a logged reason: calendar, endless numbers, repeated segments, cycles, growing URLs, next-link chains', () => {
    const cut = summary.stats.trapsCut;
    // /events?day=N and /deep/N are next-link chains: cut after 50 same-shape hops, before depth 60.
    for (const reason of ['calendar', 'repeated-segments', 'url-too-long', 'shape-chain']) expect(cut[reason], reason).toBeGreaterThan(0);
    const calendar = requested().filter((p) => p.startsWith('/calendar/')).length;
    const events = requested().filter((p) => p.startsWith('/events')).length;
    expect(calendar).toBeLessThan(200);
    expect(events).toBeLessThan(1000);
    expect(requested().filter((p) => p.startsWith('/deep/')).length).toBeLessThanOrEqual(61);
  });

  it('retries 429 after Retry-After and 503 with backoff, and stores a page that always fails as an error', () => {
    const tooMany = site.hits(CASES.retry.tooMany);
    expect(tooMany.map((r) => r.status)).toEqual([429, 200]);
    // Retry-After holds the whole host, not only the URL: nothing is asked of it for 1 s (not the 20 ms
    // backoff). The wait starts when the 429 arrives, after the server logged its request, on the same
    // monotonic clock; 2 ms for timer rounding. (The retry of the URL itself comes later still: it
    // queues behind the host's other URLs.)
    const at = site.requests.indexOf(tooMany[0]!);
    const next = site.requests[at + 1]!;
    expect(next.monotonicMs - tooMany[0]!.monotonicMs).toBeGreaterThanOrEqual(998);
    expect(site.hits(CASES.retry.unavailable).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(pages.get(CASES.retry.unavailable)?.state).toBe('ok');
    expect(site.hits(CASES.retry.alwaysFailing).length).toBe(4); // the first try and 3 retries
    expect(pages.get(CASES.retry.alwaysFailing)?.state).toBe('error');
  });

  it('marks 404 and 410 pages gone, skips other types without reading them, and truncates oversized bodies', () => {
    expect(pages.get(CASES.gone.notFound)?.state).toBe('gone');
    expect(pages.get(CASES.gone.gone)?.state).toBe('gone');
    for (const p of CASES.skippedTypes) {
      expect(pages.get(p)?.state, p).toBe('skipped');
      expect(site.hits(p)[0]?.completed, p).toBe(false);
    }
    expect(pages.get(CASES.oversized)?.truncated).toBe(true);
    expect(pages.get(CASES.slow.headers)?.state).toBe('ok');
  });

  it('reads sitemaps named in robots.txt and /sitemap.xml, index and gzip ones too, and queues their in-scope URLs', () => {
    for (const p of CASES.sitemaps.onlyInSitemaps) expect(pages.get(p)?.state, p).toBe('ok');
    for (const f of CASES.sitemaps.files) expect(site.hits(f).length, f).toBeGreaterThan(0);
  });

  it('a recrawl asks conditionally; 304 keeps the stored page', async () => {
    const before = pages.get(CASES.conditional)!;
    await crawl({ dataDir, seeds: [site.url], ...TEST_TIMING, recrawl: true, useSitemaps: false });
    const hits = site.hits(CASES.conditional);
    const last = hits[hits.length - 1]!;
    expect(last.headers['if-none-match']).toBe(before.etag);
    expect(last.status).toBe(304);
    const after = (await pagesOf(dataDir)).get(CASES.conditional)!;
    expect(after.text).toBe(before.text);
    expect(after.state).toBe('ok');
  });

  it('a recrawl reads a page stored by older extraction rules again: no validators, a 200, today\'s rules', async () => {
    const store = await openStore(dataDir, { mustExist: true });
    let older: PageRecord | undefined;
    for await (const p of store.pages()) if (new URL(p.url).pathname === CASES.conditional) older = p;
    await store.commitPages([{ page: { ...older!, extractedBy: EXTRACTION_VERSION - 1 }, refused: [] }]);
    await store.close();
    await crawl({ dataDir, seeds: [site.url], ...TEST_TIMING, recrawl: true, useSitemaps: false });
    const hits = site.hits(CASES.conditional);
    const last = hits[hits.length - 1]!;
    expect(last.headers['if-none-match']).toBeUndefined();
    expect(last.status).toBe(200);
    expect((await pagesOf(dataDir)).get(CASES.conditional)?.extractedBy).toBe(EXTRACTION_VERSION);
  });
});

describe('politeness', () => {
  it('waits the robots.txt Crawl-delay between two requests to the host, measured from the server log', async () => {
    const site = await startCrawlCases({ crawlDelaySeconds: 0.5 });
    try {
      await crawl({ dataDir: await tmp(), seeds: [site.url], ...TEST_TIMING, maxPages: 5, useSitemaps: false });
      const times = site.requests.map((r) => r.monotonicMs);
      expect(times.length).toBeGreaterThanOrEqual(5);
      // robots.txt is the first request; every request after the first page waits the delay.
      const gaps = times.slice(2).map((t, i) => t - times[i + 1]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(500 - 5);
    } finally {
      await site.close();
    }
  });

  it('asks one host one request at a time on one connection, unless told it may ask more at once', async () => {
    const site = await startTreeSite(30, 30);
    try {
      await crawl({ dataDir: await tmp(), seeds: [`${site.url}/`], ...TEST_TIMING, useSitemaps: false });
      expect(site.requests.length).toBe(31); // robots.txt + 30 pages
      expect(site.maxInFlight()).toBe(1);
      expect(site.connections()).toBe(2); // robots.txt is read on a connection of its own, then one for every page
    } finally {
      await site.close();
    }
    const own = await startTreeSite(30, 30);
    try {
      await crawl({ dataDir: await tmp(), seeds: [`${own.url}/`], ...TEST_TIMING, useSitemaps: false, hostConnections: 3 });
      expect(own.requests.length).toBe(31);
      expect(own.maxInFlight()).toBe(3);
      expect(own.connections()).toBeLessThanOrEqual(1 + 3);
    } finally {
      await own.close();
    }
  });

  it('a slow host does not stall a fast one', async () => {
    // The slow host's answers take 1 s, so its eighth request comes about 7 s in: the fast host's 40
    // pages take a fraction of that (0.4 s on a quiet machine: room for one twenty times as slow), and
    // would take 40 s behind the slow host if it stalled them.
    const slow = await startTreeSite(8, 1000);
    const fast = await startTreeSite(40, 0);
    try {
      await crawl({ dataDir: await tmp(), seeds: [`${slow.url}/`, `${fast.url}/`], ...TEST_TIMING, useSitemaps: false });
      expect(fast.requests.filter((p) => p.startsWith('/p/') || p === '/').length).toBe(40);
      expect(slow.requests.length).toBe(9); // robots.txt + 8 pages: it finished too, later
      // The fast host's 40 pages were all asked for before the slow host had answered its seventh page.
      const fastDone = fast.times[fast.times.length - 1]!;
      expect(fastDone).toBeLessThan(slow.times[7]!);
    } finally {
      await slow.close();
      await fast.close();
    }
  });
});

describe('a sitemap larger than a page may be', () => {
  it('is read to its end, up to the protocol\'s 50 MB, whatever the page body cap', async () => {
    // 3,000 entries robots.txt disallows (never asked), then the one page to crawl, past a 64 KiB page cap.
    const pad = Array.from({ length: 3_000 }, (_, i) => `<url><loc>ORIGIN/pad/${i}/${'x'.repeat(60)}.html</loc></url>`).join('\n');
    const { createServer } = await import('node:http');
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      const origin = `http://${req.headers.host}`;
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /pad/\nSitemap: ${origin}/sitemap.xml\n`);
      if (req.url === '/sitemap.xml') {
        const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pad.replaceAll('ORIGIN', origin)}\n<url><loc>${origin}/last.html</loc></url>\n</urlset>\n`;
        return void res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Page</title><p>A page.</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as import('node:net').AddressInfo;
    try {
      const dataDir = await tmp();
      await crawl({ dataDir, seeds: [`http://127.0.0.1:${port}/`], ...TEST_TIMING, maxBodyBytes: 64 * 1024 });
      expect(asked).toContain('/last.html');
      expect(asked.some((p) => p.startsWith('/pad/'))).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
