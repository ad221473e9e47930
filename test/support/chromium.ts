// Debian's Chromium, driven by playwright-core (never a downloaded browser), for the tests that need a
// real browser. One profile per call, in a temp dir the caller removes with `close()`.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { requireResource } from './resources.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether Chromium is here (skips with a line, fails under CI=true: see resources.ts). */
export const hasChromium = (what: string): boolean => requireResource(what, CHROMIUM);

/** A headless Chromium with a fresh profile, at `viewport`. */
export async function launchChromium(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'gleaner-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
