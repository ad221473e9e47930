// `gleaner demo` as a newcomer runs it: the real CLI (dist/, built by `npm test`) serves the demo
// intranet, crawls, indexes and serves search; the search page answers; Ctrl-C (SIGINT) stops it all.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_FACTS } from '../bin/demo/facts.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT = existsSync(join(ROOT, 'dist', 'bin', 'cli.js'));
if (!BUILT) console.warn('demo CLI test skipped: dist/ is not built (run `npm run build`; `npm test` does)');

describe.skipIf(!BUILT)('gleaner demo (real CLI)', () => {
  const dirs: string[] = [];
  // A demo a failed assertion left running is ended here, not left serving after the suite.
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('serves a working search page, and Ctrl-C stops everything with exit 0', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'gleaner-demo-'));
    dirs.push(parent);
    const dataDir = join(parent, 'demo');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'gleaner'), 'demo', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /Gleaner search: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`demo exited ${code} early: ${stderr}`)));
    });
    expect(stdout).toMatch(/demo intranet: http:\/\/127\.0\.0\.1:\d+\//);
    expect(stdout).toMatch(/crawled \d+ pages/);
    expect(stdout).toMatch(/indexed \d+ documents/);

    const home = await fetch(url);
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/<form[^>]*action="\/search"/);
    const results = await fetch(new URL(`search?q=${encodeURIComponent(DEMO_FACTS.languageQueries.es.query)}`, url));
    expect(await results.text()).toContain(DEMO_FACTS.languageQueries.es.path);
    // No page says "vacation": the demo's synonyms (bin/demo/synonyms.txt) find the leave policy.
    const vacation = await (await fetch(new URL('search?q=vacation', url))).text();
    expect(vacation).toContain('Showing results for <strong class="q"><bdi>vacation OR holiday OR &#34;annual leave&#34;</bdi></strong>');
    expect(vacation).toContain('/policies/leave.html');
    // Its promoted pages (bin/demo/elevate.xml): a query with "help" in it recommends the help desk.
    const help = (await (await fetch(new URL('api/search?q=printer+help', url))).json()) as { promoted?: { url: string }[] };
    expect(help.promoted?.map((p) => new URL(p.url).pathname)).toEqual(['/services/help-desk.html']);
    // The news pages declare their dates: sorted by date, the newest comes first, its day shown.
    const news = (await (await fetch(new URL('api/search?q=news+site%3A127.0.0.1&sort=date&size=3', url))).json()) as { results: { url: string; date?: string }[] };
    expect(news.results.map((r) => [new URL(r.url).pathname, r.date?.slice(0, 10)])).toEqual([
      ['/news/open-day.html', '2026-09-18'],
      ['/news/library-refurbishment.html', '2026-09-04'],
      ['/news/new-starters.html', '2026-08-28'],
    ]);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    // The demo marks its data dir as its own, so a second run may clear it.
    expect(await readdir(dataDir)).toContain('.gleaner-demo');
  });

  it('refuses to clear a data dir that is not the demo’s', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gleaner-not-demo-'));
    dirs.push(dataDir);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dataDir, 'precious.txt'), 'keep me');
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'gleaner'), 'demo', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^gleaner demo: .* not the demo's/);
    expect(await readdir(dataDir)).toEqual(['precious.txt']);
  });

  it('says a port in use in one line before it crawls or indexes anything', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'gleaner-demo-port-'));
    dirs.push(parent);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'gleaner'), 'demo', '--port', String(port), '--data', join(parent, 'demo')], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toBe(`gleaner demo: port ${String(port)} on 127.0.0.1 is in use: choose another with --port\n`);
      expect(stdout).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
