// The embeddable search box in Chromium, as a site owner uses it: a page on another loopback origin,
// under a strict Content-Security-Policy that names only Gleaner's origin, carries the two lines the
// README gives. With `allowOrigins` naming that site, the box appears, a typed query shows results,
// the keyboard picks one and the browser follows it. Without it, the browser refuses the script and
// the API, and the page shows no box.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { buildIndex } from '../indexer/index.js';
import { parsePromoted, serve, type RunningServer } from '../web/index.js';
import { hasChromium, launchChromium } from './support/chromium.js';
import { servePages } from './support/page-site.js';

const run = hasChromium('the embedded search box test');

/** The content Gleaner indexes. */
function docs(): Map<string, string> {
  const pages = new Map<string, string>();
  const links = [1, 2, 3].map((i) => `<a href="/doc/${i}">doc ${i}</a>`).join(' ') + ' <a href="/manual/">manual</a>';
  pages.set('/', `<!doctype html><html lang="en"><title>Docs home</title><h1>Docs</h1>${links} <a href="/ar">عربي</a></html>`);
  // A page in Arabic: its result runs right to left.
  pages.set('/ar', `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>دليل الفظ: أين يعيش؟</title></head><body><h1>الفظ</h1><p>يعيش الفظ في المحيط المتجمد الشمالي، ويستريح على الجليد طويلاً.</p></body></html>`);
  // Guide 2 declares its date: the result shows the day.
  for (const i of [1, 2, 3]) pages.set(`/doc/${i}`, `<!doctype html><html lang="en"><title>Walrus guide ${i}</title>${i === 2 ? '<meta name="date" content="2024-03-05T10:00:00Z">' : ''}<h1>Walrus ${i}</h1><p>How a walrus crawler works, part ${i}.</p><a href="/">home</a></html>`);
  // A manual's chapter that names its parent, with a section further down: the result shows the
  // parent as context and the section's heading, and leads to the section.
  pages.set('/manual/', `<!doctype html><html lang="en"><head><title>Pinniped Manual</title><link rel="up" href="/"></head><body><h1>Pinniped Manual</h1><p>Chapters of the manual.</p><a href="/manual/intro">Introduction</a></body></html>`);
  const filler = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} about seals and sea lions resting on the ice floe.</p>`).join('');
  pages.set('/manual/intro', `<!doctype html><html lang="en"><head><title>Introduction</title><link rel="up" href="/manual/"></head><body><h1 id="introduction">Introduction</h1>${filler}<h2 id="tusks">Ivory tusks</h2><p>Their ivory tusks grow all their life.</p><a href="/manual/">up</a></body></html>`);
  return pages;
}

describe.runIf(run)('the search box on another site, in Chromium', () => {
  let content: Awaited<ReturnType<typeof servePages>>;
  let site: Server;
  let siteOrigin = '';
  let dataDir: string;
  let allowing: RunningServer;
  let refusing: RunningServer;
  let capped: RunningServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let tab: Page;
  const consoleErrors: string[] = [];

  /** The owner's page: Gleaner's two lines, and a CSP that lets in only Gleaner's script and API. */
  const ownerPage = (gleaner: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Owner page</title>
<script src="${gleaner}embed.js" defer></script></head><body><h1>Our site</h1><div data-gleaner></div></body></html>`;

  beforeAll(async () => {
    content = await servePages(docs());
    dataDir = await mkdtemp(join(tmpdir(), 'gleaner-embed-'));
    await crawl({ dataDir, seeds: [content.url], delayMs: 0, useSitemaps: false });
    await buildIndex(dataDir, { full: true });
    // The owner's site, on its own origin: /allowing uses the gateway that allows it, /refusing the other.
    site = createServer((req, res) => {
      const gleaner = req.url === '/refusing' ? refusing.url : req.url === '/capped' ? capped.url : allowing.url;
      const origin = gleaner.replace(/\/$/, '');
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'self'; script-src ${origin}; connect-src ${origin}`,
      }).end(ownerPage(gleaner));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // The manual promoted for "walrus crawler": its page says neither word.
    const promoted = parsePromoted(`<elevate><query text="walrus crawler"><doc id="${content.url}manual/"/></query><query text="okapi husbandry"><doc id="${content.url}manual/"/></query></elevate>`, 'test');
    allowing = await serve({ dataDir, port: 0, host: '127.0.0.1', web: { allowOrigins: [siteOrigin], promoted } });
    refusing = await serve({ dataDir, port: 0, host: '127.0.0.1' });
    // Allows the site but answers at most 5 results a page, fewer than the box asks for (8).
    capped = await serve({ dataDir, port: 0, host: '127.0.0.1', web: { allowOrigins: [siteOrigin], maxPageSize: 5 } });
    browser = await launchChromium({ width: 1000, height: 800 });
    tab = browser.context.pages()[0] ?? (await browser.context.newPage());
    tab.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser.close();
    await allowing.close();
    await refusing.close();
    await capped.close();
    await new Promise((resolve) => site.close(resolve));
    await content.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Opens the owner's page whose gateway allows it and types `query` into the box. */
  const typeInBox = async (query: string) => {
    await tab.goto(`${siteOrigin}/allowing`);
    const box = tab.getByRole('combobox', { name: 'Search this site' });
    await box.fill(query);
    return { box, options: tab.getByRole('option') };
  };

  it('allowed: types a query, sees results, picks one with the keyboard and follows it', async () => {
    const { box, options } = await typeInBox('walrus');
    await expect.poll(() => options.count()).toBeGreaterThanOrEqual(3);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await options.first().innerText()).toMatch(/Walrus guide \d/);
    const dated = options.filter({ hasText: 'Walrus guide 2' });
    expect(await dated.locator('time.gleaner-date').getAttribute('datetime')).toBe('2024-03-05T10:00:00.000Z');
    expect(await dated.locator('time.gleaner-date').innerText()).toBe('2024-03-05');
    expect(await options.filter({ hasText: 'Walrus guide 1' }).locator('time').count()).toBe(0);
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    const second = options.nth(1);
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    const target = (await second.locator('small').innerText()).trim();
    expect(target).toMatch(new RegExp(`^${content.url.replace(/\./g, '\\.')}doc/\\d$`));
    await Promise.all([tab.waitForURL(target), box.press('Enter')]);
    expect(tab.url()).toBe(target);
  });

  it('lists the pages the site promotes for the query first, marked, and leads to them', async () => {
    const { box, options } = await typeInBox('walrus crawler');
    await expect.poll(() => options.count()).toBe(4);
    const first = options.first();
    expect(await first.locator('.gleaner-promoted').innerText()).toMatch(/^recommended$/i);
    expect(await first.locator('strong').innerText()).toBe('Pinniped Manual');
    expect(await options.nth(1).locator('.gleaner-promoted').count()).toBe(0);
    expect(await tab.getByRole('status').innerText()).toMatch(/^1 recommended, [1-9]\d* results$/);
    await box.press('ArrowDown');
    await Promise.all([tab.waitForURL(`${content.url}manual/`), box.press('Enter')]);
  });

  it('a query only a promoted page answers: that page, and the status says so', async () => {
    const { options } = await typeInBox('okapi husbandry');
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().locator('.gleaner-promoted').count()).toBe(1);
    expect(await tab.getByRole('status').innerText()).toBe('1 recommended');
  });

  it("shows a result's parent and the section that matched, and leads to the section", async () => {
    const { box, options } = await typeInBox('ivory tusks');
    await expect.poll(() => options.count()).toBe(1);
    const option = options.first();
    expect((await option.locator('.gleaner-context').innerText()).trim()).toBe('Pinniped Manual \u203a');
    expect(await option.locator('strong').innerText()).toBe('Introduction');
    expect(await option.locator('.gleaner-section').innerText()).toBe('Ivory tusks');
    const target = `${content.url}manual/intro#tusks`;
    expect((await option.locator('small').innerText()).trim()).toBe(target);
    await box.press('ArrowDown');
    await Promise.all([tab.waitForURL(target), box.press('Enter')]);
    expect(tab.url()).toBe(target);
  });

  it('a query typed in Arabic runs right to left in the box', async () => {
    await typeInBox('كيف يعمل الفظ؟');
    expect(await tab.evaluate<string>(`getComputedStyle(document.querySelector('[data-gleaner] input')).direction`)).toBe('rtl');
  });

  it("an Arabic page's title and snippet run right to left, in Arabic; its address stays left to right", async () => {
    const { options } = await typeInBox('الفظ');
    await expect.poll(() => options.count()).toBe(1);
    const read = await tab.evaluate<string[]>(`[...document.querySelectorAll('[role=option] > *')].map((e) => e.tagName.toLowerCase() + ' ' + getComputedStyle(e).direction + ' ' + (e.closest('[lang]') || {}).lang)`);
    expect(read).toEqual([expect.stringMatching(/^strong rtl ar$/), expect.stringMatching(/^small ltr en$/), expect.stringMatching(/^span rtl ar$/)]);
    // Written as the API says it (`direction`), not left to the browser's guess from the letters.
    expect(await tab.evaluate<(string | null)[]>(`[...document.querySelectorAll('[role=option] strong, [role=option] span')].map((e) => e.getAttribute('dir'))`)).toEqual(['rtl', 'rtl']);
    const answer = (await (await fetch(new URL(`/api/search?q=${encodeURIComponent('الفظ')}`, allowing.url))).json()) as { results: { language: string; direction: string }[] };
    expect(answer.results.map((r) => [r.language, r.direction])).toEqual([['ar', 'rtl']]);
    const english = (await (await fetch(new URL('/api/search?q=walrus', allowing.url))).json()) as { results: { language: string; direction: string }[] };
    expect(new Set(english.results.map((r) => `${r.language} ${r.direction}`))).toEqual(new Set(['en ltr']));
  });

  it('Escape closes the list', async () => {
    const { box, options } = await typeInBox('walrus');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    await box.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await tab.getByRole('listbox').isHidden()).toBe(true);
    // Only the list: Chromium's own Escape in a search field had emptied what was typed too.
    expect(await box.inputValue()).toBe('walrus');
  });

  it('ArrowUp on a closed list opens it on the last result, never choosing a result that is not shown', async () => {
    // After Escape, ArrowUp chose the first result in the hidden list, and Enter then opened it unseen.
    const { box, options } = await typeInBox('walrus');
    await expect.poll(() => options.count()).toBeGreaterThanOrEqual(3);
    await box.press('Escape');
    await box.press('ArrowUp');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await tab.getByRole('listbox').isVisible()).toBe(true);
    const last = options.last();
    expect(await last.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));
  });

  it('the chosen result shows its address and date at full strength on the highlight', async () => {
    // Dimmed to .75 on the Highlight colour, the address was 3.7:1, under WCAG AA's 4.5:1.
    const { box, options } = await typeInBox('walrus');
    await expect.poll(() => options.count()).toBeGreaterThanOrEqual(3);
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    const opacity = (n: number) => options.nth(n).locator('small').evaluate((e) => (e as unknown as { style: { opacity: string } }).style.opacity);
    expect(await opacity(1)).toBe('1');
    expect(await opacity(0)).toBe('0.75');
  });

  it('the status counts what the list shows: one result, and partial matches not as "No results"', async () => {
    // It said "1 results", and "No results" over a list of pages that lack one of the words typed.
    const one = await typeInBox('ivory tusks');
    await expect.poll(() => one.options.count()).toBe(1);
    expect(await tab.getByRole('status').innerText()).toBe('1 result');
    const partial = await typeInBox('walrus qqxqzz');
    await expect.poll(() => partial.options.count()).toBeGreaterThanOrEqual(3);
    const shown = await partial.options.count();
    expect(await tab.getByRole('status').innerText()).toBe(`${shown} partial matches, lacking some words`);
  });

  it('as you type, a half-typed last word is read as the start of a word, and the status says the words', async () => {
    // "walr" alone matched no page, so the box said "No results" until the word was whole.
    const half = await typeInBox('walr');
    await expect.poll(() => half.options.count()).toBeGreaterThanOrEqual(3);
    expect(await half.options.first().innerText()).toMatch(/Walrus guide \d/);
    expect(await tab.getByRole('status').innerText()).toMatch(/^\d+ results for walrus$/);
    // Finished with a space, the word is read as typed: no page has "walr".
    const whole = await typeInBox('walr ');
    await expect.poll(() => tab.getByRole('status').innerText()).toBe('No results');
    expect(await whole.options.count()).toBe(0);
  });

  it('an error answer is said in Gleaner\'s words, not shown as "No results"', async () => {
    // The box asks 8 results of a server whose --max-page-size is 5: it said "No results", silently.
    await tab.goto(`${siteOrigin}/capped`);
    await tab.getByRole('combobox', { name: 'Search this site' }).fill('walrus');
    await expect.poll(() => tab.getByRole('status').innerText()).toMatch(/^Search failed: size must be .*5/);
    expect(await tab.getByRole('option').count()).toBe(0);
  });

  it('not allowed: the browser refuses the script and the API; no box appears', async () => {
    consoleErrors.length = 0;
    await tab.goto(`${siteOrigin}/refusing`);
    await tab.waitForLoadState('load');
    expect(await tab.locator('[data-gleaner] form').count()).toBe(0);
    const api = `${refusing.url}api/search?q=walrus`;
    const outcome = await tab.evaluate<string>(`fetch(${JSON.stringify(api)}).then(() => 'read', (e) => 'refused: ' + e.name)`);
    expect(outcome).toBe('refused: TypeError');
    expect(consoleErrors.join('\n')).toMatch(/embed\.js|CORS|Cross-Origin/i);
  });
});
