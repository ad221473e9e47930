// kill -9 at any moment, then `gleaner crawl` again: the crawl resumes where it stopped. No page stored
// twice, no discovered URL lost, at most the in-flight requests repeated; the final store equals the
// store of an uninterrupted crawl. Runs the real CLI (dist/, built by `npm test`) as a child process.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../shared/store/index.js';
import { startTreeSite, type TreeSite } from './sites/tree-site.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'gleaner');
const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));
const PAGES = 150;
const DELAY_MS = 8;
/** Pages under way at once: the one being fetched and those fetched but not yet stored (being parsed). */
const CONCURRENCY = 2;

function runCrawl(site: TreeSite, dataDir: string, killAfterRequests?: number): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'crawl', `${site.url}/`, '--data', dataDir, '--delay', '0', '--no-sitemaps', '--concurrency', String(CONCURRENCY)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    if (killAfterRequests !== undefined) {
      const start = site.requests.length;
      timer = setInterval(() => {
        if (site.requests.length - start >= killAfterRequests) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 1);
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      if (code !== 0 && signal === null) reject(new Error(`crawl exited ${code}: ${stderr}`));
      else resolve({ code, signal });
    });
  });
}

async function storedPages(dataDir: string): Promise<Map<string, string>> {
  const store = await openStore(dataDir, { mustExist: true });
  const out = new Map<string, string>();
  for await (const p of store.pages()) out.set(new URL(p.url).pathname, `${p.state} ${p.status} ${p.title} ${p.links.length}`);
  let queued = 0;
  for await (const _e of store.frontier.queued()) queued++;
  await store.close();
  if (queued !== 0) throw new Error(`${queued} URLs still queued after the crawl finished`);
  return out;
}

describe.skipIf(!BUILT)('crawl resume after kill -9 (real CLI, real LevelDB)', () => {
  let dirs: string[] = [];
  let reference: Map<string, string>;
  const tmp = async () => {
    const d = await mkdtemp(join(tmpdir(), 'gleaner-resume-'));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    const site = await startTreeSite(PAGES, DELAY_MS);
    const dir = await tmp();
    await runCrawl(site, dir);
    reference = await storedPages(dir);
    await site.close();
  });
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    dirs = [];
  });

  it('an uninterrupted crawl stores every page of the tree', () => {
    expect(reference.size).toBe(PAGES); // page 0 is the root, /
    expect([...reference.values()].every((v) => v.startsWith('ok 200'))).toBe(true);
  });

  it.each([3, 40, 97])('killed after %i requests, a second run completes the same store', async (killAfter) => {
    const site = await startTreeSite(PAGES, DELAY_MS);
    const dir = await tmp();
    const first = await runCrawl(site, dir, killAfter);
    expect(first.signal).toBe('SIGKILL');
    const requestedBefore = site.requests.length;
    await runCrawl(site, dir);
    expect(await storedPages(dir)).toEqual(reference);
    // Only what was in flight at the kill is asked again: at most CONCURRENCY pages (one fetching, the
    // others fetched and being parsed); robots.txt is cached in the store and not fetched again.
    const counts = new Map<string, number>();
    for (const p of site.requests) counts.set(p, (counts.get(p) ?? 0) + 1);
    const repeated = [...counts].filter(([, n]) => n > 1).map(([p]) => p);
    expect(repeated.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(repeated).not.toContain('/robots.txt');
    expect(site.requests.length).toBeGreaterThan(requestedBefore);
    expect(site.requests.some((p) => p.startsWith('/private/'))).toBe(false);
    await site.close();
  });
});

if (!BUILT) console.warn('crawl-resume tests skipped: dist/ is not built (run `npm run build`; `npm test` does)');
