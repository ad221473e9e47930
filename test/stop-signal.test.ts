// The crawl's stop signal (Ctrl-C) is listened to by every request under way, robots.txt fetch and page
// analysis, each letting go when it ends. A crawl of more hosts than Node's default of 10 listeners
// printed MaxListenersExceededWarning on the terminal; it must not, and the listeners must not stay.

import { mkdtemp, rm } from 'node:fs/promises';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';

const HOSTS = 16;

describe('a crawl of many hosts with a stop signal', () => {
  const servers: Server[] = [];
  let dir: string | undefined;
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('prints no MaxListenersExceededWarning and leaves no listener on the signal', async () => {
    const seeds: string[] = [];
    for (let i = 0; i < HOSTS; i++) {
      const server = createServer((req, res) => {
        if (req.url === '/robots.txt') return void res.writeHead(404).end();
        // Answers a little later, so every host's requests are under way at once.
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>host ${String(i)}</title><p>page ${req.url ?? ''}</p><a href="/next">next</a>`), 100);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      seeds.push(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`);
    }
    dir = await mkdtemp(join(tmpdir(), 'gleaner-stop-signal-'));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      const summary = await crawl({ dataDir: dir, seeds, delayMs: 0, concurrency: HOSTS, useSitemaps: false }, { signal: controller.signal });
      expect(summary.pagesThisRun).toBe(2 * HOSTS);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 60_000);
});
