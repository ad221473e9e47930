// Results a reader can read whatever the page's script, in Chromium: an Arabic or Hebrew page's title and
// snippet run right to left (a screen reader reads them in their language), while the result's own
// labels ("Why this result", "Missing:") stay English and left to right; missing words typed in Arabic
// keep the order they were typed in.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium.js';
import { siteInChromium, type SiteInChromium } from './support/site-in-chromium.js';

const run = hasChromium('the readable-results browser test');

const doc = (lang: string, dir: string, title: string, text: string) =>
  `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

function sitePages(): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set('/', doc('en', 'ltr', 'Handbook', 'The crawler handbook. <a href="/ar">ar</a> <a href="/he">he</a>'));
  pages.set('/ar', doc('ar', 'rtl', 'دليل الزاحف: كيف يعمل محرك البحث؟', 'يزور الزاحف الصفحات واحدة تلو الأخرى، ويحترم ملف robots.txt دائماً. هذا نص عربي طويل عن محركات البحث والفهرسة.'));
  pages.set('/he', doc('he', 'rtl', 'מדריך הסורק: איך זה עובד?', 'הסורק מבקר בדפים אחד אחרי השני, ומכבד את הקובץ robots.txt תמיד. זהו טקסט עברי ארוך על מנועי חיפוש.'));
  return pages;
}

describe.runIf(run)('results in a right-to-left language, in Chromium', () => {
  let site: SiteInChromium;
  let gateway: SiteInChromium['gateway'];
  let tab: Page;

  beforeAll(async () => {
    site = await siteInChromium(sitePages(), { width: 1000, height: 800 });
    ({ gateway, tab } = site);
  });
  afterAll(async () => {
    await site.close();
  });

  /** Direction and language (the nearest lang) of the first match of each selector in the first result. */
  const readAs = (selectors: string[]) =>
    tab.evaluate<string[]>(`((selectors) => {
      const li = document.querySelector('ol.results > li.result');
      return selectors.map((s) => { const e = li.querySelector(s); return getComputedStyle(e).direction + ' ' + e.closest('[lang]').getAttribute('lang'); });
    })(${JSON.stringify(selectors)})`);

  for (const [lang, word] of [['ar', 'الزاحف'], ['he', 'הסורק']] as const) {
    it(`a ${lang} page's title and snippet run right to left in ${lang}; the result's labels stay English`, async () => {
      await tab.goto(`${gateway.url}search?q=${encodeURIComponent(word)}`);
      expect(await readAs(['h2.title', 'p.snippet', 'details.why summary', 'cite.url'])).toEqual([`rtl ${lang}`, `rtl ${lang}`, 'ltr en', 'ltr en']);
    });
  }

  it('a query typed in Arabic runs right to left in the search box, here and in the result page\'s box', async () => {
    for (const path of ['', `search?q=${encodeURIComponent('الزاحف')}`]) {
      await tab.goto(gateway.url + path);
      await tab.locator('#q').fill('كيف يعمل الزاحف؟');
      expect(await tab.evaluate<string>(`getComputedStyle(document.getElementById('q')).direction`), path || '/').toBe('rtl');
    }
  });

  it('missing words typed in Arabic are listed in the order they were typed', async () => {
    const [first, second] = ['ثعلبان', 'قنفذية'];
    await tab.goto(`${gateway.url}search?q=${encodeURIComponent(`الزاحف ${first} ${second}`)}`);
    const missing = tab.locator('ol.results > li.result p.missing').first();
    await expect.poll(() => missing.innerText()).toContain(first);
    expect(await tab.evaluate<string>(`getComputedStyle(document.querySelector('p.missing')).direction`)).toBe('ltr');
    const left = async (w: string) => (await missing.locator('s', { hasText: w }).boundingBox())?.x ?? NaN;
    // Read left to right, as the English list around them: the first typed word stands first.
    expect(await left(first)).toBeLessThan(await left(second));
  });
});
