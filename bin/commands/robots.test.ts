// `gleaner robots check|lint` through its run(argv), with stdout captured; --url against a server on
// 127.0.0.1.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GleanerError } from '../../shared/errors.js';
import { createRobotsCommand } from './robots.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const command = createRobotsCommand({ out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) } });
  const code = await command.run(argv);
  return { code, out, err };
}

const jsonLines = (s: string) => s.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

const ROBOTS = `User-agent: *
Disallow: /private/

User-agent: Gleaner
Disallow: /drafts/
Allow: /drafts/public/
Crawl-delay: 2
Host: www.example.org
Sitemap: https://www.example.org/sitemap.xml
`;

let dir: string;
let file: string;
let server: Server;
let base: string;
/** path -> [status, content type, body] */
const routes = new Map<string, [number, string, string]>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gleaner-robots-cli-'));
  file = join(dir, 'robots.txt');
  await writeFile(file, ROBOTS);
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '') ?? [404, 'text/plain', 'not found'];
    res.writeHead(route[0], { 'content-type': route[1] }).end(route[2]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('gleaner robots check --json', () => {
  it('prints one object per URL in argument order, then the applying group', async () => {
    const { code, out } = await run(['check', '--file', file, '--agent', 'Gleaner', '--json', 'https://h/drafts/x', '/private/y', 'https://h/drafts/public/z']);
    expect(code).toBe(0);
    expect(jsonLines(out)).toEqual([
      { url: 'https://h/drafts/x', allowed: false, rule: { type: 'disallow', pattern: '/drafts/', line: 5 } },
      { url: '/private/y', allowed: true, rule: null },
      { url: 'https://h/drafts/public/z', allowed: true, rule: { type: 'allow', pattern: '/drafts/public/', line: 6 } },
      { group: ['Gleaner'], crawlDelay: 2, host: 'www.example.org', sitemaps: ['https://www.example.org/sitemap.xml'] },
    ]);
  });
  it('--mode draft reads the 1996 draft: no line of the Gleaner record matches /private/y, so * decides', async () => {
    const { out } = await run(['check', '--file', file, '--agent', 'Gleaner', '--mode', 'draft', '--json', '/private/y']);
    expect(jsonLines(out)[0]).toEqual({ url: '/private/y', allowed: false, rule: { type: 'disallow', pattern: '/private/', line: 2 } });
  });
  it('another robot gets the * group', async () => {
    const { out } = await run(['check', '--file', file, '--agent', 'Otherbot', '--json', '/private/y']);
    expect(jsonLines(out)).toEqual([
      { url: '/private/y', allowed: false, rule: { type: 'disallow', pattern: '/private/', line: 2 } },
      { group: ['*'], crawlDelay: null, host: 'www.example.org', sitemaps: ['https://www.example.org/sitemap.xml'] },
    ]);
  });
});

describe('gleaner robots check: URLs as the crawler requests them', () => {
  it('a URL typed with raw characters is percent-encoded before matching (RFC 9309 2.2.2)', async () => {
    const unicode = join(dir, 'unicode.txt');
    await writeFile(unicode, 'User-agent: *\nDisallow: /%CF%80\nDisallow: /✼*t$\n');
    const { out } = await run(['check', '--file', unicode, '--agent', 'Gleaner', '--json', 'http://h/π/index.html', '/✼test', '/✼tests']);
    expect(jsonLines(out).slice(0, 3).map((l) => l.allowed)).toEqual([false, false, true]);
  });
});

describe('gleaner robots check --url (a local server)', () => {
  it('fetches the site\'s /robots.txt and answers with its rules', async () => {
    routes.set('/robots.txt', [200, 'text/plain', ROBOTS]);
    const { out } = await run(['check', '--url', `${base}/some/page`, '--agent', 'Gleaner', '--json', `${base}/drafts/a`, `${base}/robots.txt`]);
    const lines = jsonLines(out);
    expect(lines[0]).toEqual({ url: `${base}/drafts/a`, allowed: false, rule: { type: 'disallow', pattern: '/drafts/', line: 5 } });
    expect(lines[1]).toEqual({ url: `${base}/robots.txt`, allowed: true, rule: null });
    expect(lines[2]).toMatchObject({ group: ['Gleaner'], crawlDelay: 2 });
  });
  it('applies the fetch policy: a 503 disallows everything', async () => {
    routes.set('/robots.txt', [503, 'text/plain', 'busy']);
    const { out } = await run(['check', '--url', `${base}/robots.txt`, '--agent', 'Gleaner', '/anything']);
    expect(out).toMatch(/HTTP 503/);
    expect(out).toMatch(/disallowed\s+\/anything/);
  });
  it('in text mode explains each verdict', async () => {
    routes.set('/robots.txt', [200, 'text/plain', ROBOTS]);
    const { out } = await run(['check', '--url', base, '--agent', 'Gleaner', '/drafts/a']);
    expect(out).toContain('Disallow: /drafts/ (line 5)');
  });
});

describe('gleaner robots lint', () => {
  it('a clean file: statistics and exit 0', async () => {
    const { code, out } = await run(['lint', file]);
    expect(code).toBe(0);
    expect(out).toContain('2 groups, 3 rules');
  });
  // robots.txt is the site's text: a line holding "\x1b[2J" cleared the terminal that printed the report.
  it('control characters of the file are shown as escapes, in lint and in check', async () => {
    const hostile = join(dir, 'hostile.txt');
    await writeFile(hostile, 'User-agent: *\nDisallow: /a\x1b[2J\nCrawl-delay: 5\x1b]0;title\x07\nSitemap: http://x/\x1b[2J\n');
    const lint = await run(['lint', hostile]);
    const check = await run(['check', '--file', hostile, '--agent', 'Gleaner', 'http://x/a']);
    for (const out of [lint.out, check.out]) {
      expect(out).not.toMatch(/[\x1b\x07]/);
      expect(out).toContain('\\x1b');
    }
  });
  it('--json prints the report; errors make the exit code 1', async () => {
    const bad = join(dir, 'bad.txt');
    await writeFile(bad, 'Disallow: /x\nUser-agent: *\nDisallow: a b\n');
    const { code, out } = await run(['lint', bad, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { errors: number; findings: { code: string; line: number }[] };
    expect(report.findings.map((f) => `${f.line} ${f.code}`)).toEqual(['1 rule-outside-group', '3 several-paths', '3 path-start']);
    expect(report.errors).toBe(3);
  });
  it('a URL serving HTML as robots.txt is an error', async () => {
    routes.set('/robots.txt', [200, 'text/html', '<!doctype html><html><body>Welcome</body></html>']);
    const { code, out } = await run(['lint', base]);
    expect(code).toBe(1);
    expect(out).toMatch(/error \[html\]/);
  });
});

describe('usage errors are one-line BAD_ARGUMENT errors', () => {
  for (const [argv, words] of [
    [['check', '--agent', 'Gleaner', '/x'], /exactly one of --file/],
    [['check', '--file', 'f', '--url', 'http://h', '--agent', 'G', '/x'], /exactly one of --file/],
    [['check', '--file', 'f', '/x'], /--agent/],
    [['check', '--file', 'f', '--agent', 'G', '--mode', 'google', '/x'], /rfc9309 or draft/],
    [['lint'], /one PATH or URL/],
    [['frobnicate'], /unknown subcommand/],
    // Said as --synonyms and --config say it, not as Node's "ENOENT: no such file or directory, open '...'".
    [['lint', '/no/such/robots.txt'], /^robots: \/no\/such\/robots\.txt: cannot read it: no such file$/],
    [['check', '--file', '/no/such/robots.txt', '--agent', 'G', '/x'], /^robots: \/no\/such\/robots\.txt: cannot read it: no such file$/],
    [['lint', '/'], /^robots: \/: cannot read it: a directory, not a file$/],
  ] as const) {
    it(`robots ${argv.join(' ')}`, async () => {
      const e = await run([...argv]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GleanerError);
      expect((e as GleanerError).code).toBe('BAD_ARGUMENT');
      expect((e as GleanerError).message).toMatch(words);
    });
  }
});
