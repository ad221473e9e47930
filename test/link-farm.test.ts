// A link farm: every page links 2,000 new pages named by random letters and digits, so no URL rule
// (shape, chain, calendar) sees a trap. The host's budget (maxPagesPerHost, URLs queued or stored)
// bounds the queue, the memory of shapes and the store; the log names the first cuts, not all.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, type CrawlSummary } from '../crawler/index.js';
import { openStore } from '../shared/store/index.js';
import { seededRandom } from './support/seeded-random.js';

const LINKS_PER_PAGE = 2_000;
const HOST_BUDGET = 3_000;
const MAX_PAGES = 25;

let server: Server;
let origin = '';
let dataDir = '';
let summary: CrawlSummary;
const log: string[] = [];

beforeAll(async () => {
  const random = seededRandom(7);
  const name = (): string => Array.from({ length: 10 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)]).join('');
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const links = Array.from({ length: LINKS_PER_PAGE }, () => `<a href="/${name()}">${name()} ${name()}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Farm ${req.url}</title><p>${name()} ${name()} ${name()}</p>${links}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'gleaner-farm-'));
  summary = await crawl(
    { dataDir, seeds: [`${origin}/`], delayMs: 0, useSitemaps: false, maxPages: MAX_PAGES, maxPagesPerHost: HOST_BUDGET, parseThreads: 0 },
    { log: (_level, msg) => void log.push(msg) },
  );
}, 120_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

describe('a link farm no URL rule sees', () => {
  it('stops at --max-pages with the host\u2019s queue held to its budget, every cut counted', async () => {
    expect(summary.stoppedBecause).toBe('max-pages');
    const store = await openStore(dataDir, { mustExist: true });
    let queued = 0;
    for await (const _ of store.frontier.queued()) queued++;
    let refused = 0;
    for await (const _ of store.refusedUrls()) refused++;
    await store.close();
    expect(queued + MAX_PAGES).toBeLessThanOrEqual(HOST_BUDGET + 1);
    // Cut for the budget, not remembered: a resumed crawl cuts them again.
    expect(refused).toBe(0);
    const cut = summary.stats.trapsCut['host-page-limit'] ?? 0;
    expect(cut).toBeGreaterThan(MAX_PAGES * LINKS_PER_PAGE - HOST_BUDGET - LINKS_PER_PAGE * 2);
  });
  it('logs a hundred cuts and one line for the rest', async () => {
    expect(log.filter((m) => m === 'URL cut as a trap')).toHaveLength(100);
    expect(log.filter((m) => m.startsWith('more URLs cut as host-page-limit'))).toHaveLength(1);
    expect((await stat(join(dataDir, 'crawl.log.jsonl')).catch(() => undefined))?.size ?? 0).toBeLessThan(200_000);
  });
});
