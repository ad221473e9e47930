// `gleaner trace URL --query Q`: one URL's journey, each step naming the file that decided it, on a
// loopback site crawled and indexed first (real CLI, dist/).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceStep } from '../shared/trace.js';
import { serve } from '../web/index.js';
import { BUILT, runCli } from './support/run-cli.js';
import { refusedOrigin } from './sites/robots-hostile.js';
import { tempDirs } from './support/temp-dirs.js';

const dirs = tempDirs('gleaner-trace-');

describe.skipIf(!BUILT)('gleaner trace', () => {
  let base: string;
  let close: () => Promise<void>;
  let data: string;

  beforeAll(async () => {
    const server = createServer((req, res) => {
      const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: '"v1"' }).end(body);
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\nAllow: /private/open\n');
      if (req.url === '/') { html('<title>Gear shop</title><p>Welcome. <a href="/gears">Gear catalogue</a> <a href="/old">old link</a> <a href="/gears-print">print</a></p>'); return; }
      if (req.url === '/gears-print') { html('<title>Printable</title><link rel="canonical" href="/gears"><p>A printable version.</p>'); return; }
      if (req.url === '/gears') { html('<title>Gears</title><meta name="date" content="2024-03-05"><h1>Helical gears</h1><p>Helical gears run quietly; spur gears are cheaper. <a href="/">home</a></p>'); return; }
      if (req.url === '/old') return void res.writeHead(301, { location: '/gears' }).end();
      if (req.url === '/to-script') return void res.writeHead(302, { location: 'javascript:alert(1)' }).end();
      if (req.url === '/broken.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7\n(((garbage');
      if (req.url === '/says-gzip') return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end('<title>plain</title>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((r) => server.close(() => r()));
    data = join(await dirs.make(), 'data');
    const crawled = await runCli(['crawl', `${base}/`, '--data', data, '--delay', '0', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
    const indexed = await runCli(['index', '--data', data]);
    expect(indexed.code, indexed.stderr).toBe(0);
  });
  afterAll(async () => {
    await close();
    await dirs.removeAll();
  });

  const trace = async (...args: string[]) => {
    const r = await runCli(['trace', ...args, '--data', data, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const steps = (JSON.parse(r.stdout) as { steps: TraceStep[] }).steps;
    return new Map(steps.map((s) => [s.title, s]));
  };

  it('follows a page from robots.txt to its rank for a query, naming the file behind each step', async () => {
    const steps = await trace(`${base}/gears`, '--query', 'helical gears');
    expect([...steps.keys()]).toEqual(['The URL', 'robots.txt', 'Politeness', 'Fetch', 'Charset', 'Extraction', 'The stored record', 'Indexed document', 'Tokens and stems per field', 'Index entries', 'Inbound links', 'The query "helical gears"']);
    expect(steps.get('robots.txt')).toMatchObject({ verdict: 'allowed', decidedBy: ['shared/robots/parse.ts', 'shared/robots/match.ts'] });
    expect(steps.get('Fetch')?.verdict).toMatch(/^HTTP 200/);
    // The store has the page with an ETag: the trace says what a recrawl would send (and asks whole itself).
    expect(steps.get('Fetch')?.facts).toEqual([
      ['a recrawl would send', 'if-none-match: "v1" (the stored validators); an unchanged page answers 304 and keeps its stored copy'],
      [`GET ${base}/gears`, 'HTTP 200; content-type: text/html; charset=utf-8; etag: "v1"'],
    ]);
    expect(steps.get('Charset')).toMatchObject({ verdict: 'utf-8' });
    expect(steps.get('The stored record')?.verdict).toMatch(/^ok, HTTP 200/);
    expect(Object.fromEntries(steps.get('Indexed document')!.facts)).toMatchObject({ title: 'Gears', headings: 'Helical gears', date: '2024-03-05T00:00:00.000Z' });
    expect(Object.fromEntries(steps.get('Extraction')!.facts)['declared date']).toBe('2024-03-05T00:00:00.000Z');
    expect(Object.fromEntries(steps.get('Tokens and stems per field')!.facts).body).toMatch(/gears→gear/);
    expect(Object.fromEntries(steps.get('Index entries')!.facts).helic).toMatch(/^in 1 documents; here headings 1, body [12]/);
    expect(Object.fromEntries(steps.get('Inbound links')!.facts)['anchor texts']).toMatch(/Gear catalogue/);
    const q = steps.get('The query "helical gears"')!;
    expect(q.verdict).toMatch(/^ranked 1 of 1, score /);
    expect(q.facts.some(([k]) => k.includes('helic in body'))).toBe(true);
  });

  it('says a page is a partial match, and what it lacks, rather than a rank past the total', async () => {
    const q = (await trace(`${base}/gears`, '--query', 'helical zebra')).get('The query "helical zebra"')!;
    expect(q.verdict).toMatch(/^a partial match lacking zebra: listed 1, after the 0 results with every word, score /);
  });

  it('a disallowed URL stops at robots.txt, with the line that blocked it', async () => {
    const steps = await trace(`${base}/private/report`);
    expect(steps.get('robots.txt')?.verdict).toMatch(/^disallowed/);
    expect(Object.fromEntries(steps.get('robots.txt')!.facts)['verdict (rfc9309)']).toBe('disallowed (line 2: disallow /private/)');
    expect(steps.has('Fetch')).toBe(false);
    expect(steps.get('The stored record')?.verdict).toBe('not in the store');
  });

  it('a host that cannot be reached decides for the whole site, and trace and extract say it cannot be reached', async () => {
    const origin = await refusedOrigin();
    const steps = await trace(`${origin}/page`);
    expect(steps.get('robots.txt')?.verdict).toBe('the host cannot be reached (connection refused): a crawl gives the site up');
    const extracted = await runCli(['extract', `${origin}/page`]);
    expect(extracted.code).toBe(1);
    expect(extracted.stderr).toBe(`gleaner extract: ${origin}/page: could not fetch it: ${origin} cannot be reached: connection refused\n`);
    expect(steps.get('robots.txt')?.facts.map(([k]) => k)).toEqual(['robots.txt', 'verdict']);
    expect(Object.fromEntries(steps.get('robots.txt')!.facts).verdict).toBe('disallowed: the whole site, no rules read');
    expect(steps.has('Fetch')).toBe(false);
  });

  it('/trace shows the index-side steps and the query\'s score, and points to the command for the rest', async () => {
    const gateway = await serve({ dataDir: data, port: 0, host: '127.0.0.1' });
    try {
      const page = await fetch(new URL(`/trace?url=${encodeURIComponent(`${base}/gears`)}&q=helical+gears`, gateway.url));
      expect(page.status).toBe(200);
      const html = await page.text();
      const headings = [...html.matchAll(/<h2>([^<]*): <span class="verdict">([^<]*)<\/span><\/h2>/g)].map((m) => `${m[1]}: ${m[2]}`);
      expect(headings[0]).toBe('The URL: already canonical');
      expect(headings[1]).toBe('robots.txt: allowed');
      expect(headings[2]).toBe('Fetch, charset, extraction, the stored record: shown by the command line');
      expect(headings.slice(3).map((h) => h.split(':')[0])).toEqual(['Indexed document', 'Tokens and stems per field', 'Index entries', 'Inbound links', 'The query &#34;helical gears&#34;']);
      expect(headings.at(-1)).toMatch(/ranked 1 of 1/);
      expect(html).toContain(`gleaner trace ${base}/gears --query &#39;helical gears&#39;`);
      const results = await (await fetch(new URL('/search?q=helical', gateway.url))).text();
      expect(results).toContain(`href="/trace?url=${encodeURIComponent(`${base}/gears`)}&amp;q=helical"`);
      const ftp = await fetch(new URL('/trace?url=ftp%3A%2F%2Fx%2F', gateway.url));
      expect(ftp.status).toBe(400);
      expect(await ftp.text()).toContain('Cannot trace ftp://x/: not an http(s) URL');
      // A URL refused for its port says so, not that it is no http(s) URL.
      expect(await (await fetch(new URL('/trace?url=http%3A%2F%2F127.0.0.1%3A1%2F', gateway.url))).text()).toContain('port 1 is not for the web');
      const missing = await (await fetch(new URL(`/trace?url=${encodeURIComponent(`${base}/nowhere`)}`, gateway.url))).text();
      expect(missing).toContain('The index: <span class="verdict">not in the index</span>');
    } finally {
      await gateway.close();
    }
  });

  it('says why a stored page is not in the index: where its redirect leads, the page its rel=canonical names', async () => {
    // Both are stored in state ok or redirect and were crawled before the index was built: the general
    // note ("...or the index was built before the page was crawled (run gleaner index)") sent the owner
    // to rebuild an index that was right.
    const old = (await trace(`${base}/old`)).get('The index')!;
    expect(old.verdict).toBe('not in the index');
    expect(old.note).toBe(`It is stored as a redirect to ${base}/gears: that page is indexed, with this URL's inbound links and anchor texts.`);
    const print = (await trace(`${base}/gears-print`)).get('The index')!;
    expect(print.note).toBe(`Its rel=canonical names ${base}/gears, which is indexed in its place, with this page's inbound links and anchor texts.`);
    const never = (await trace(`${base}/nowhere`)).get('The index')!;
    expect(never.note).toMatch(/^Only stored pages/);
  });

  it('shows each redirect hop, and prints numbered steps for people', async () => {
    const steps = await trace(`${base}/old`);
    const hops = steps.get('Fetch')!.facts.map(([k]) => k);
    expect(hops).toEqual([`GET ${base}/old`, `GET ${base}/gears`]);
    expect(steps.get('Fetch')!.facts[0]![1]).toMatch(/^HTTP 301; location: \/gears/);
    const text = await runCli(['trace', `${base}/gears`, '--data', data]);
    expect(text.stdout).toMatch(/^1\. The URL: already canonical\n {3}decided by shared\/url\.ts\n/);
    expect(text.stdout).toContain('2. robots.txt: allowed');
    // A redirect a crawl would not follow ends the trace there, saying so; so does a document it cannot read.
    const script = await trace(`${base}/to-script`);
    expect(script.get('Fetch')!.verdict).toBe('a redirect to an unusable location, not followed: javascript:alert(1)');
    const pdf = await trace(`${base}/broken.pdf`);
    expect(pdf.get('Document')!.verdict).toMatch(/^unreadable: the PDF cannot be read: /);
    // An answer whose body failed is named as an answer, not as none.
    const gzip = await trace(`${base}/says-gzip`);
    expect(gzip.get('Fetch')!.facts[0]![1]).toMatch(/^HTTP 200 text\/html, then: the body is not the Content-Encoding it says \(gzip: /);
    const bad = await runCli(['trace', 'ftp://x/', '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe.skipIf(!BUILT)('gleaner trace without --config', () => {
  let base: string;
  let close: () => Promise<void>;
  let data: string;
  let requests = 0;

  beforeAll(async () => {
    const server = createServer((req, res) => {
      requests++;
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: FaunaBot\nDisallow: /members/\n\nUser-agent: *\nDisallow:\n');
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Fauna</title><a href="/members/list">members</a>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((r) => server.close(() => r()));
    data = join(await dirs.make(), 'data');
    const crawled = await runCli(['crawl', `${base}/`, '--data', data, '--delay', '0.25', '--user-agent', 'FaunaBot', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
  });
  afterAll(async () => {
    await close();
    await dirs.removeAll();
  });

  it("judges the URL under the settings the data dir's crawl ran with: its user agent and its delay", async () => {
    // Traced under the default agent and delay, a page the crawl was refused read as allowed, and the
    // politeness step said 1 s where the crawl waited 0.25 s.
    const r = await runCli(['trace', `${base}/members/list`, '--data', data, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const steps = new Map((JSON.parse(r.stdout) as { steps: TraceStep[] }).steps.map((s) => [s.title, s]));
    expect(steps.get('robots.txt')?.verdict).toMatch(/^disallowed/);
    const home = await runCli(['trace', `${base}/`, '--data', data, '--json']);
    const politeness = (JSON.parse(home.stdout) as { steps: TraceStep[] }).steps.find((s) => s.title === 'Politeness');
    expect(politeness?.verdict).toBe(`a crawl waits 0.25 s between two requests to ${base}`);
  });

  it('a --data that is a file is refused in one line before any request', async () => {
    const file = join(await dirs.make(), 'not-a-dir');
    await writeFile(file, 'x');
    const before = requests;
    const r = await runCli(['trace', `${base}/`, '--data', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`gleaner trace: ${file} is a file, not a directory: give --data a directory\n`);
    expect(r.stdout).toBe('');
    expect(requests).toBe(before);
  });

  it('a --data typed that does not exist is refused in one line before any request; without --data the live steps stand alone', async () => {
    const missing = join(await dirs.make(), 'mistyped');
    const before = requests;
    const r = await runCli(['trace', `${base}/`, '--data', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`gleaner trace: ${missing} does not exist: give --data the data dir a crawl wrote, or leave --data out to trace the live fetch alone\n`);
    expect(r.stdout).toBe('');
    expect(requests).toBe(before);
    // The default data dir ("data" in the working directory) missing: the live fetch is traced.
    const alone = await runCli(['trace', `${base}/`, '--json'], await dirs.make());
    expect(alone.code, alone.stderr).toBe(0);
    const steps = (JSON.parse(alone.stdout) as { steps: TraceStep[] }).steps;
    expect(steps.find((s) => s.title === 'Fetch')?.verdict).toMatch(/^HTTP 200/);
    expect(steps.find((s) => s.title === 'The stored record')?.verdict).toBe('not read');
  });
});
