// The live state of a crawl, between the crawler (writes it about once a second, and at the end) and
// the web gateway (/stats and /api/stats/live read it). A file in the data dir, not the store: a
// running crawl holds the store's lock, and `gleaner serve` must show the crawl while it runs. Written
// to a temporary name and renamed, so a reader never sees half a file.

import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlStats } from './store/index.js';

export const CRAWL_STATUS_FILE = 'crawl-status.json';

/** Hosts a status lists one by one. A crawl of every host a page links to (`--scope any`) reached
 * 3,253 hosts from one page: every one in the file written each second (430 KB) and in /stats (1 MB of
 * table rows, redrawn every two seconds). The counts per host stay in the crawl's stats. */
export const LIVE_STATUS_HOSTS = 100;

export interface HostStatus {
  /** `scheme://host:port`. */
  origin: string;
  /** Pages stored (the whole crawl), errors among them. */
  pages: number;
  errors: number;
  /** URLs waiting in this host's queue, and requests under way. */
  queued: number;
  inFlight: number;
  /** The wait between two requests to this host now (the crawl's delay or the site's Crawl-delay). */
  delayMs: number;
  /** Pages stored per minute over the last half minute. */
  pagesPerMinute: number;
  /** URLs robots.txt kept the crawl from, and URLs cut as traps. */
  blocked: number;
  cut: number;
}

export interface CrawlStatus {
  /** False once the crawl has ended (finished, stopped or failed). */
  running: boolean;
  pid: number;
  updatedAt: string;
  pages: number;
  pagesThisRun: number;
  /** Pages stored plus those queued or under way. */
  known: number;
  queued: number;
  inFlight: number;
  pagesPerSecond: number;
  secondsLeft?: number;
  /** Error pages of the whole crawl, by reason (crawler/error-reason.ts). */
  errorsByReason: Record<string, number>;
  /** The LIVE_STATUS_HOSTS hosts with the most pages (then the most queued), most first. */
  hosts: HostStatus[];
  /** Hosts the crawl knows, `hosts` among them. Absent in a status written before the list was cut. */
  hostsTotal?: number;
  /** The whole crawl's counters, every run so far. */
  stats: CrawlStats;
}

export const crawlStatusPath = (dataDir: string): string => join(dataDir, CRAWL_STATUS_FILE);

export async function writeCrawlStatus(dataDir: string, status: CrawlStatus): Promise<void> {
  const path = crawlStatusPath(dataDir);
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(status));
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** The last status a crawl wrote in `dataDir`, or undefined when there is none (or it is unreadable). */
export async function readCrawlStatus(dataDir: string): Promise<CrawlStatus | undefined> {
  try {
    const value = JSON.parse(await readFile(crawlStatusPath(dataDir), 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && 'running' in value && 'stats' in value ? (value as CrawlStatus) : undefined;
  } catch {
    return undefined;
  }
}
