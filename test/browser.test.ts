// The search page in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
// browser). A small site on 127.0.0.1, including a page whose title and text carry <script> and
// <img onerror> payloads, is crawled by the real crawler, indexed, and served; the browser searches,
// pages, opens "why this result", uses the autocomplete, and shows the hostile page without running
// anything. Screenshots go to test/screenshots/ (git-ignored) for review.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { serve, type RunningServer } from '../web/index.js';
import { servePages } from './support/page-site.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser test skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run does it)`);

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const GUIDES = 14;
const HOSTILE_WORD = 'quokkapayload';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** The site to crawl. The hostile title is raw (a <title> is text to an HTML parser, so the payload
 * becomes the title's text); the hostile body text is escaped so that it, too, is text on the page. */
function site(): Map<string, string> {
  const pages = new Map<string, string>();
  const guideLinks = Array.from({ length: GUIDES }, (_, i) => `<li><a href="/guide/${i + 1}">Crawler guide ${i + 1}</a></li>`).join('');
  pages.set('/', page('Northwind handbook', `<h1>Handbook</h1><p>The crawler handbook.</p><ul>${guideLinks}</ul><a href="/hostile">odd page</a>`));
  for (let i = 1; i <= GUIDES; i++) {
    pages.set(`/guide/${i}`, page(`Crawler guide part ${i}`, `<h1>Part ${i}</h1><p>A web crawler visits pages breadth-first; part ${i} covers robots and politeness.</p><a href="/">handbook</a>`));
  }
  const payloads = `<script>window.__xss='script'</script> <img src=x onerror="window.__xss='img'">`;
  pages.set('/hostile', page(`${payloads} ${HOSTILE_WORD}`, `<p>Before ${escapeHtml(payloads)} ${HOSTILE_WORD} after.</p>`));
  return pages;
}

describe.skipIf(!hasChromium)('the search page in Chromium', () => {
  let origin: Awaited<ReturnType<typeof servePages>>;
  let dataDir: string;
  let gateway: RunningServer;
  let profile: string;
  let context: BrowserContext;
  let tab: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    origin = await servePages(site());
    const siteUrl = origin.url;

    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-browser-'));
    await crawl({ dataDir, seeds: [siteUrl], delayMs: 0, useSitemaps: false });
    await buildIndex(dataDir, { full: true });
    gateway = await serve({ dataDir, port: 0, host: '127.0.0.1' });

    profile = await mkdtemp(join(tmpdir(), 'gleaner-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1100, height: 900 },
    });
    tab = context.pages()[0] ?? (await context.newPage());
    tab.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    tab.on('pageerror', (e) => pageErrors.push(e.message));
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await context.close();
    await gateway.close();
    await origin.close();
    for (const dir of [dataDir, profile]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('types a query, submits, sees results, follows pagination and opens "why this result"', async () => {
    await tab.goto(gateway.url);
    await tab.getByLabel('Search', { exact: true }).fill('crawler');
    await Promise.all([tab.waitForURL(/\/search\?q=crawler/), tab.keyboard.press('Enter')]);
    const results = tab.locator('ol.results > li.result');
    await expect.poll(() => results.count()).toBe(10);
    await expect.poll(() => tab.locator('p.count').innerText()).toMatch(/^\d+ results, page 1 of 2/);

    await Promise.all([tab.waitForURL(/page=2/), tab.getByRole('link', { name: 'Next' }).click()]);
    const onPage2 = await results.count();
    expect(onPage2).toBeGreaterThan(0);
    expect(await tab.locator('a[aria-current="page"]').innerText()).toBe('2');

    const why = results.first().locator('details.why');
    expect(await why.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    await why.locator('summary').click();
    expect(await why.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    await expect.poll(() => why.locator('table').isVisible()).toBe(true);
    expect(await why.innerText()).toMatch(/Text relevance \(BM25F\)/);
    await tab.screenshot({ path: join(SCREENSHOTS, 'search-page-2-why.png'), fullPage: true });
  });

  it('a typo is searched corrected at once, and "search instead for" searches it as typed', async () => {
    await tab.goto(`${gateway.url}search?q=crawlr`);
    const notice = tab.locator('p.corrected');
    await expect.poll(() => notice.innerText()).toBe('Showing results for crawler; search instead for crawlr');
    expect(await tab.locator('ol.results > li.result').count()).toBe(10);
    await Promise.all([tab.waitForURL(/literal=1/), notice.locator('a.literal').click()]);
    expect(await tab.locator('ol.results > li.result').count()).toBe(0);
    expect(await tab.locator('p.did-you-mean').innerText()).toBe('Did you mean crawler?');
  });

  it('no page with every word: pages with some of them are shown, each with the words it lacks', async () => {
    await tab.goto(`${gateway.url}search?q=${encodeURIComponent(`politeness ${HOSTILE_WORD}`)}`);
    await expect.poll(() => tab.locator('p.partial-note').innerText()).toMatch(/^No page has every word of the query/);
    const missing = await tab.locator('ol.results > li.result p.missing').allInnerTexts();
    expect(missing.length).toBeGreaterThan(1);
    expect(missing).toContain('Missing: politeness');
    expect(missing).toContain(`Missing: ${HOSTILE_WORD}`);
    await tab.screenshot({ path: join(SCREENSHOTS, 'partial-matches.png'), fullPage: true });
  });

  it('the autocomplete fills the datalist from /api/suggest', async () => {
    await tab.goto(gateway.url);
    await tab.locator('#q').pressSequentially('robots hand', { delay: 20 });
    await expect.poll(() => tab.locator('#suggestions option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toContain('robots handbook');
  });

  it('the search box offers matching pages as links while typing, and one leads to its page', async () => {
    await tab.goto(gateway.url);
    await tab.locator('#q').pressSequentially('northwind hand', { delay: 20 });
    const link = tab.locator('#page-suggestions a', { hasText: 'Northwind handbook' });
    await expect.poll(() => link.count()).toBe(1);
    // A screen reader hears how many pages match, from a status line, not the whole list on each key.
    const shown = await tab.locator('#page-suggestions a').count();
    expect(await tab.locator('#page-suggestions').getAttribute('aria-live')).toBeNull();
    expect(await tab.locator('#page-suggestions-status[role="status"]').innerText()).toBe(shown === 1 ? '1 matching page below the search box' : `${shown} matching pages below the search box`);
    expect(await link.getAttribute('href')).toBe(origin.url);
    await link.click();
    await expect.poll(() => tab.url()).toBe(origin.url);
  });

  it('a crawled page with <script> and <img onerror> in its title and text is shown as text; nothing runs', async () => {
    await tab.goto(`${gateway.url}search?q=${HOSTILE_WORD}`);
    const result = tab.locator('ol.results > li.result').first();
    const title = await result.locator('h2.title').innerText();
    expect(title).toContain("<script>window.__xss='script'</script>");
    expect(title).toContain('<img src=x onerror=');
    expect(await result.locator('p.snippet').innerText()).toContain('<img src=x onerror=');
    expect(await result.locator('p.snippet mark').innerText()).toBe(HOSTILE_WORD);
    expect(await tab.locator('main img, main script').count()).toBe(0);
    // Give any payload the chance to run (an image error fires asynchronously), then look for its marks.
    await tab.waitForTimeout(300);
    expect(await tab.evaluate(() => (globalThis as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.screenshot({ path: join(SCREENSHOTS, 'hostile-page-phone.png'), fullPage: true });
    await tab.setViewportSize({ width: 1100, height: 900 });
  });
});
