import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crawl } from '../crawler/index.js';
import { openStore } from '../shared/store/index.js';
import { servePages, type PageRequest } from '../test/support/page-site.js';
import { tempDirs } from '../test/support/temp-dirs.js';
import { crawlOptionsFromArgs, formatCheck } from './commands/crawl.js';
import { serveValues } from './commands/serve.js';

const EXAMPLE = join(import.meta.dirname, '..', 'gleaner.config.example.json');
const dirs = tempDirs('gleaner-config-');
afterAll(() => dirs.removeAll());

describe('the config file', () => {
  it('gleaner.config.example.json is valid for crawl and serve, and says what the README says it does', () => {
    const { options, sources } = crawlOptionsFromArgs(['--config', EXAMPLE]);
    expect(options).toMatchObject({ dataDir: 'data', delayMs: 1000, maxPages: 20000, maxBodyBytes: 10485760, documentTimeoutMs: 30000, exclude: ['glob:*?print=*'] });
    expect(options.seeds).toEqual(['http://intranet.example/', 'http://wiki.intranet.example/wiki/Main_Page', 'http://docs.intranet.example/']);
    expect(options.siteDelayMs).toEqual({ 'http://wiki.intranet.example': 2000, 'http://docs.intranet.example': 200 });
    expect(options.siteScopes['http://wiki.intranet.example']).toEqual({ scope: 'host', include: ['glob:http://wiki.intranet.example/wiki/*'], exclude: ['glob:*action=edit*'] });
    expect(options.sites).toEqual({ 'http://docs.intranet.example': 'never', 'http://legacy.intranet.example': 'inherit' });
    expect(options.extractRules['http://wiki.intranet.example']).toEqual({ contentSelector: '#content', dropSelectors: ['.navbox', '#footer'] });
    expect(sources).toMatchObject({ delay: 'config', mode: 'default', seeds: 'config', maxBodyBytes: 'config', maxRetries: 'default' });
    expect(serveValues({ config: EXAMPLE })).toMatchObject({ data: 'data', port: '3000', 'allow-origin': ['https://www.intranet.example'], 'recrawl-every': '6h', 'recrawl-delay': '1' });
    expect(serveValues({ config: EXAMPLE, port: '8080' }).port).toBe('8080');
  });

  it('--check prints every option with its value in the flag\'s units and where it came from', () => {
    const text = formatCheck(crawlOptionsFromArgs(['--config', EXAMPLE, '--check', '--delay', '3', 'http://x.example/']));
    const row = (name: string) => text.split('\n').find((l) => l.trimStart().startsWith(`${name} `))?.trim().split(/\s{2,}/);
    expect(row('--delay')).toEqual(['--delay', '3 s', 'flag']);
    expect(row('--max-pages')).toEqual(['--max-pages', '20000', `config ${EXAMPLE}`]);
    expect(row('--mode')).toEqual(['--mode', 'rfc9309', 'default']);
    expect(row('seeds')).toEqual(['seeds', 'http://x.example/', 'flag']);
    expect(row('maxBodyBytes')).toEqual(['maxBodyBytes', '10485760', `config ${EXAMPLE}`]);
    expect(text).toMatch(/http:\/\/wiki\.intranet\.example {2}.*delay 2 s; scope host include glob:http:\/\/wiki\.intranet\.example\/wiki\/\* exclude glob:\*action=edit\*; rules: content #content; drop \.navbox, #footer/);
  });

  it('--check reads a config without seeds and says a crawl needs one; a crawl without one is refused', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'config.json');
    await writeFile(file, JSON.stringify({ crawl: { delay: 2, sites: { 'http://wiki.intranet.example': { delay: 0.5 } } } }));
    const text = formatCheck(crawlOptionsFromArgs(['--config', file, '--check']));
    expect(text).toMatch(/^ {2}seeds +\(none: a crawl needs one, as URL\.\.\. or "seeds" in the config\) +default$/m);
    expect(text).toMatch(/^ {2}--delay +2 s +config /m);
    expect(() => crawlOptionsFromArgs(['--config', file])).toThrow(/^crawl: give at least one seed URL/);
  });

  it('a crawl applies each site\'s own delay and scope', async () => {
    const links = '<a href="/1">1</a> <a href="/2">2</a> <a href="/3">3</a> <a href="/skip">skip</a>';
    // Distinct text per site and page: a page whose text another has is a duplicate and its links are not followed.
    const pages = (site: string) => new Map(['/', '/1', '/2', '/3', '/skip'].map((p) => [p, `<title>${site} page ${p}</title><p>${site} ${p} ${links}</p>`]));
    const slowLog: PageRequest[] = [];
    const fastLog: PageRequest[] = [];
    const slow = await servePages(pages('slow'), slowLog);
    const fast = await servePages(pages('fast'), fastLog);
    try {
      const dir = await dirs.make();
      const file = join(dir, 'config.json');
      const origin = (u: string) => new URL(u).origin;
      await writeFile(file, JSON.stringify({ crawl: { delay: 0, sites: { [origin(slow.url)]: { seeds: [slow.url], delay: 0.3, exclude: ['glob:*/skip'] }, [origin(fast.url)]: { seeds: [fast.url] } } } }));
      const { options } = crawlOptionsFromArgs(['--config', file, '--data', join(dir, 'data'), '--no-sitemaps', '--parse-threads', '0']);
      await crawl(options);
      const paths = (log: PageRequest[]) => log.map((r) => r.path).filter((p) => p !== '/robots.txt').sort();
      expect(paths(slowLog)).toEqual(['/', '/1', '/2', '/3']);
      expect(paths(fastLog)).toEqual(['/', '/1', '/2', '/3', '/skip']);
      const gaps = (log: PageRequest[]) => log.slice(1).map((r, i) => r.monotonicMs - log[i]!.monotonicMs);
      // The slow site waits its 0.3 s after every response (robots.txt included); the other site, none.
      for (const gap of gaps(slowLog)) expect(gap).toBeGreaterThanOrEqual(298);
      expect(Math.min(...gaps(fastLog))).toBeLessThan(298);
      const store = await openStore(join(dir, 'data'), { mustExist: true });
      expect(await store.getPage(`${origin(slow.url)}/skip`)).toBeUndefined();
      expect((await store.getPage(`${origin(fast.url)}/skip`))?.state).toBe('ok');
      await store.close();
    } finally {
      await slow.close();
      await fast.close();
    }
  });
});

describe('numbers and files as people write them', () => {
  it('a config saved with a byte order mark (as Notepad saves it) is read', async () => {
    const path = join(await dirs.make(), 'bom.json');
    await writeFile(path, '\uFEFF{"crawl":{"delay":2}}');
    expect(crawlOptionsFromArgs(['--config', path, 'http://x.example/']).options.delayMs).toBe(2000);
  });
  it('a number flag is decimal: 0x10 and 0b11 are refused, not read as 16 and 3', () => {
    expect(crawlOptionsFromArgs(['--delay', '1e-1', 'http://x.example/']).options.delayMs).toBe(100);
    expect(crawlOptionsFromArgs(['--delay', '.5', 'http://x.example/']).options.delayMs).toBe(500);
    for (const raw of ['0x10', '0b11', '0o7', '', '1_000']) {
      expect(() => crawlOptionsFromArgs(['--delay', raw, 'http://x.example/']), raw).toThrow(`--delay must be a number from 0 to 3600, not "${raw}"`);
    }
    expect(() => crawlOptionsFromArgs(['--max-pages', '0x10', 'http://x.example/'])).toThrow(/--max-pages must be a whole number/);
  });
});
