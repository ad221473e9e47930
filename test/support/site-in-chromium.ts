// A small site crawled, indexed and served by the real stages, with a Chromium tab to look at it: the
// setup of the browser tests that check how pages read (right-to-left results, a small screen).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { crawl } from '../../crawler/index.js';
import { buildIndex } from '../../indexer/index.js';
import { serve, type RunningServer } from '../../web/index.js';
import { launchChromium } from './chromium.js';
import { servePages } from './page-site.js';

export interface SiteInChromium {
  origin: Awaited<ReturnType<typeof servePages>>;
  gateway: RunningServer;
  tab: Page;
  /** Stops the browser, the gateway and the site, and removes the data dir. */
  close(): Promise<void>;
}

/** Serves `pages` on loopback, crawls and indexes them into a temp data dir, serves search over them, and
 * opens a Chromium tab of `viewport`. */
export async function siteInChromium(pages: Map<string, string>, viewport: { width: number; height: number }): Promise<SiteInChromium> {
  const origin = await servePages(pages);
  const dataDir = await mkdtemp(join(tmpdir(), 'gleaner-browser-'));
  await crawl({ dataDir, seeds: [origin.url], delayMs: 0, useSitemaps: false });
  await buildIndex(dataDir, { full: true });
  const gateway = await serve({ dataDir, port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(viewport);
  const tab = browser.context.pages()[0] ?? (await browser.context.newPage());
  return {
    origin,
    gateway,
    tab,
    async close() {
      await browser.close();
      await gateway.close();
      await origin.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
