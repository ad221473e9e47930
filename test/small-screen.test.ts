// Every page usable at 375 px (a small phone), in Chromium: nothing wider than the screen (no sideways
// scrolling; a table of long URLs was the known offender on /stats), and the /robots checker lands on
// its verdicts after a check, shows the Host, Sitemap and Crawl-delay lines, and links to the same
// check by GET.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium.js';
import { siteInChromium, type SiteInChromium } from './support/site-in-chromium.js';

const WIDTH = 375;
const run = hasChromium('the small-screen browser test');
const LONG = 'a-very-long-path-segment-that-does-not-break-anywhere-on-its-own-and-keeps-on-going';

/** Pages of a site whose URLs are long, so that the most-linked table lists long URLs. */
function sitePages(): Map<string, string> {
  const pages = new Map<string, string>();
  const links = Array.from({ length: 6 }, (_, i) => `<a href="/${LONG}/${i}/${LONG}.html">guide ${i}</a>`).join(' ');
  pages.set('/', `<!doctype html><html lang="en"><title>Handbook</title><h1>Handbook</h1><p>The crawler handbook.</p>${links}</html>`);
  for (let i = 0; i < 6; i++) {
    pages.set(`/${LONG}/${i}/${LONG}.html`, `<!doctype html><html lang="en"><title>Crawler guide ${i} ${LONG}</title><p>A crawler visits ${LONG} pages, part ${i}.</p>${links}</html>`);
  }
  return pages;
}

describe.runIf(run)('every page at 375 px in Chromium', () => {
  let site: SiteInChromium;
  let origin: SiteInChromium['origin'];
  let gateway: SiteInChromium['gateway'];
  let tab: Page;

  beforeAll(async () => {
    site = await siteInChromium(sitePages(), { width: WIDTH, height: 700 });
    ({ origin, gateway, tab } = site);
  });
  afterAll(async () => {
    await site.close();
  });

  /** The widest thing on the page, in CSS px, and what it is (a script string: the test has no DOM types). */
  const WIDEST = `(() => {
    let worst = { width: document.documentElement.scrollWidth, what: 'document' };
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > worst.width) worst = { width: Math.round(r.right), what: el.tagName.toLowerCase() + '.' + el.className };
    }
    return worst;
  })()`;
  const widest = () => tab.evaluate<{ width: number; what: string }>(WIDEST);

  for (const path of ['/', '/search?q=crawler', '/search?q=crawler+guide&explain=1', '/about', '/stats', '/robots']) {
    it(`${path} fits in ${WIDTH} px`, async () => {
      await tab.goto(new URL(path, gateway.url).href);
      expect(await tab.title()).not.toMatch(/not found/i);
      const w = await widest();
      expect(w.width, `${path}: ${w.what} is ${w.width} px wide`).toBeLessThanOrEqual(WIDTH);
    });
  }

  it('a query of long identifiers, repeated as typed, corrected and as "did you mean", wraps at 320 px', async () => {
    // The typed words, echoed in "search instead for" and "Did you mean", did not wrap: 816 px wide.
    const ident = 'pg_stat_statements_reset_and_pg_stat_statements_info_functions_reference';
    await tab.setViewportSize({ width: 320, height: 700 });
    try {
      for (const q of [`crawlr ${ident}`, `crawlr ${ident}&literal=1`, `${ident} ${ident}`]) {
        await tab.goto(new URL(`/search?q=${q.replace(/ /g, '+')}`, gateway.url).href);
        const w = await widest();
        expect(w.width, `${q}: ${w.what} is ${w.width} px wide`).toBeLessThanOrEqual(320);
      }
    } finally {
      await tab.setViewportSize({ width: WIDTH, height: 700 });
    }
  });

  it('/trace of a crawled page fits in 375 px and tells its steps', async () => {
    await tab.goto(new URL(`/trace?url=${encodeURIComponent(origin.url)}&q=crawler`, gateway.url).href);
    const w = await widest();
    expect(w.width, `/trace: ${w.what} is ${w.width} px wide`).toBeLessThanOrEqual(WIDTH);
    const headings = await tab.locator('ol.trace-steps h2').allTextContents();
    expect(headings[0]).toMatch(/^The URL: /);
    expect(headings.some((h) => h.startsWith('Tokens and stems per field: '))).toBe(true);
    expect(headings.some((h) => h.startsWith('Indexed document: document '))).toBe(true);
  });

  it('the robots checker lands on its verdicts, shows Host, Sitemap and Crawl-delay, and links the check by GET', async () => {
    await tab.goto(new URL('/robots', gateway.url).href);
    await tab.locator('#robots').fill('User-agent: *\nCrawl-delay: 5\nDisallow: /private/\n\nHost: www.example.org\nSitemap: https://www.example.org/sitemap.xml\n');
    await tab.locator('#urls').fill('/private/x\n/public/y');
    await Promise.all([tab.waitForURL(/\/robots#verdicts-h$/), tab.getByRole('button', { name: 'Check' }).click()]);
    // The verdicts are on screen without scrolling by hand: the form alone is taller than the screen.
    const box = await tab.locator('#verdicts-h').boundingBox();
    expect(box?.y).toBeGreaterThanOrEqual(0);
    expect(box?.y).toBeLessThan(700);
    const directives = tab.locator('dl.robots-directives');
    await expect.poll(() => directives.innerText()).toMatch(/Crawl-delay\s+5 s\s+Host\s+www\.example\.org\s+Sitemap\s+https:\/\/www\.example\.org\/sitemap\.xml/);
    expect((await widest()).width).toBeLessThanOrEqual(WIDTH);
    // The share link runs the same check by GET.
    const href = await tab.getByRole('link', { name: 'share or bookmark it' }).getAttribute('href');
    expect(href).toMatch(/^\/robots\?robots=/);
    await tab.goto(new URL(href!, gateway.url).href);
    await expect.poll(() => tab.locator('table.verdicts tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/\/private\/x\s+Disallowed/), expect.stringMatching(/\/public\/y\s+Allowed/)]);
  });
});
