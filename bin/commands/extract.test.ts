// `gleaner extract URL` through its run(argv) against a site on 127.0.0.1, robots.txt included.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractCommand } from './extract.js';
import { crawlOptionsFromArgs } from './crawl.js';
import { makePdf } from '../../test/support/make-pdf.js';

const PAGE = `<html><head><title>Widgets</title><meta property="article:published_time" content="2024-03-05T10:00:00+01:00"></head><body><nav><a href="/">Home</a> Menu</nav>
<main><h1>Widget guide</h1><p>How widgets work.</p><aside class="promo">Buy widgets</aside></main></body></html>`;

let server: Server;
let base: string;
let dir: string;
const agents: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gleaner-extract-'));
  server = createServer((req, res) => {
    agents.push(req.headers['user-agent'] ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (req.url === '/escapes') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Evil \x1b]0;pwned\x07\x1b[2J \u009b31m</title><p>text \x1b[31mred</p>');
    if (req.url === '/manual.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(makePdf(['Fitting the widget to the frame.'], { title: 'Widget Manual' }));
    if (req.url === '/broken.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7\n(((garbage');
    if (req.url === '/old') return void res.writeHead(301, { location: '/page.html' }).end();
    if (req.url === '/to-script') return void res.writeHead(302, { location: 'javascript:alert(1)' }).end();
    if (req.url === '/to-nowhere') return void res.writeHead(302, { location: 'http://[::1/x' }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await createExtractCommand({ out: { write: (s: string) => (out += s) }, err: { write: () => 0 } }).run(argv);
  return { code, out };
}

describe('gleaner extract', () => {
  it('prints title, headings, text and links; --selector and --drop narrow the text', async () => {
    const plain = await run([`${base}/page.html`]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('rules: none');
    expect(plain.out).toContain('Home Menu Widget guide');
    expect(plain.out).toContain('defines: -');
    expect(plain.out).toContain('\ndate: 2024-03-05T09:00:00.000Z\n');
    const ruled = await run([`${base}/old`, '--selector', 'main', '--drop', '.promo', '--json']);
    const j = JSON.parse(ruled.out) as Record<string, unknown>;
    expect(j).toMatchObject({ url: `${base}/page.html`, title: 'Widgets', date: '2024-03-05T09:00:00.000Z', headings: ['Widget guide'], defines: [], text: 'Widget guide How widgets work.', contentMatches: 1, dropped: 1 });
    expect(j.links).toEqual([{ url: `${base}/`, text: 'Home', rel: [], kind: 'a', block: 0 }]);
    expect(agents.every((a) => a.startsWith('Gleaner/'))).toBe(true);
  });

  it('never prints a page\'s control characters to the terminal: extraction makes them spaces, as the crawl stores them', async () => {
    const shown = await run([`${base}/escapes`]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('title: Evil ]0;pwned [2J 31m');
    expect(shown.out).toContain('text [31mred');
    expect(shown.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    const json = JSON.parse((await run([`${base}/escapes`, '--json'])).out) as { title: string };
    expect(json.title).toBe('Evil ]0;pwned [2J 31m');
  });

  it('reads a PDF as a crawl does, not as text; one it cannot read is one line saying why', async () => {
    const { code, out } = await run([`${base}/manual.pdf`]);
    expect(code).toBe(0);
    expect(out).toContain('title: Widget Manual');
    expect(out).toContain('Fitting the widget to the frame.');
    expect(out).not.toContain('%PDF');
    await expect(run([`${base}/broken.pdf`])).rejects.toThrow(/^extract: http:\/\/127\.0\.0\.1:\d+\/broken\.pdf: the PDF cannot be read: /);
  });

  it('a redirect to a location a crawl would not follow is one line saying so, as the crawl says it', async () => {
    await expect(run([`${base}/to-script`])).rejects.toThrow(/^extract: http:\/\/127\.0\.0\.1:\d+\/to-script: could not fetch it: HTTP 302: a redirect to an unusable location: javascript:alert\(1\)$/);
    await expect(run([`${base}/to-nowhere`])).rejects.toThrow(/^extract: http:\/\/127\.0\.0\.1:\d+\/to-nowhere: could not fetch it: HTTP 302: a redirect to an unusable location: http:\/\/\[::1\/x$/);
  });

  it('uses the config file\'s rules for the origin when no flag is given', async () => {
    const config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ crawl: { sites: { [base]: { contentSelector: 'main', dropSelectors: ['aside'] } } } }));
    const { out } = await run([`${base}/page.html`, '--config', config]);
    expect(out).toContain('rules: content main; drop aside');
    expect(out).toContain('text (30 characters):\nWidget guide How widgets work.\n');
  });

  it('obeys robots.txt and refuses a bad selector in one line', async () => {
    await expect(run([`${base}/private/x.html`])).rejects.toThrow(/robots\.txt disallows it \(line 2: disallow \/private\/\)/);
    await expect(run([`${base}/page.html`, '--selector', 'div['])).rejects.toThrow(/^extract: --selector: "div\[" is not a valid CSS selector/);
  });

  it('a crawl config file with a bad drop selector is refused', async () => {
    const config = join(dir, 'bad.json');
    const read = () => crawlOptionsFromArgs(['--config', config, `${base}/`]).options;
    await writeFile(config, JSON.stringify({ crawl: { sites: { [base]: { dropSelectors: ['a[href'] } } } }));
    expect(read).toThrow(/dropSelectors\[0\]: "a\[href" is not a valid CSS selector/);
    await writeFile(config, JSON.stringify({ crawl: { sites: { [base]: 'never' } } }));
    expect(read()).toMatchObject({ sites: { [base]: 'never' }, extractRules: {} });
  });
});
