import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_OPTIONS, DEFAULT_TRAP_OPTIONS } from '../../crawler/index.js';
import { GleanerError } from '../../shared/errors.js';
import { crawlOptionsFromArgs } from './crawl.js';

const parse = (...argv: string[]) => crawlOptionsFromArgs(argv).options;
const fails = (argv: string[]): string => {
  try {
    crawlOptionsFromArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(GleanerError);
    expect((e as GleanerError).code).toBe('BAD_ARGUMENT');
    return (e as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};

describe('gleaner crawl flags', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gleaner-flags-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('defaults come from crawler/options.ts', () => {
    const o = parse('http://intranet.example/');
    expect(o.delayMs).toBe(DEFAULT_CRAWL_OPTIONS.delayMs);
    expect(o.agent).toBe('Gleaner');
    expect(o.dataDir).toBe('data');
    expect(o.respectRobots).toBe(true);
  });

  it('--delay takes decimal seconds; 0 is allowed for servers you run', () => {
    expect(parse('http://a/', '--delay', '0.25').delayMs).toBe(250);
    expect(parse('http://a/', '--delay', '0').delayMs).toBe(0);
  });

  it('maps every flag onto its option', () => {
    const o = parse('http://a/', 'http://b/', '--data', 'd', '--max-pages', '10', '--max-depth', '3', '--user-agent', 'My_Bot', '--from', 'me@example.org', '--mode', 'draft', '--scope', 'domain', '--include', 'x', '--exclude', 'y', '--exclude', 'z', '--concurrency', '2', '--no-sitemaps', '--use-robots-host', '--recrawl', '--site', 'http://b=never', '--log-level', 'debug');
    expect(o).toMatchObject({ seeds: ['http://a/', 'http://b/'], dataDir: 'd', maxPages: 10, maxDepth: 3, agent: 'My_Bot', from: 'me@example.org', robotsMode: 'draft', scope: 'domain', include: ['x'], exclude: ['y', 'z'], concurrency: 2, useSitemaps: false, useRobotsHost: true, recrawl: true, sites: { 'http://b': 'never' }, logLevel: 'debug' });
  });

  it('maps every trap limit flag onto its option (issue 12: none was settable before but --max-depth)', () => {
    const o = parse('http://a/', '--max-url-length', '2048', '--max-pages-per-host', '500', '--max-segment-repeats', '3', '--cycle-repeats', '4', '--max-shape-chain', '80', '--max-repeats-per-shape', '0', '--max-urls-per-shape', '0', '--years-back', '10', '--years-ahead', '5');
    expect(o).toMatchObject({ maxUrlLength: 2048, maxPagesPerHost: 500, maxSegmentRepeats: 3, cycleRepeatsCut: 4, maxShapeChain: 80, maxRepeatsPerShape: 0, maxUrlsPerShape: 0, yearsBack: 10, yearsAhead: 5 });
  });

  it('trap limits default to DEFAULT_TRAP_OPTIONS, and a config file sets them under their flags\' names', async () => {
    expect(parse('http://a/')).toMatchObject(DEFAULT_TRAP_OPTIONS);
    const file = join(dir, 'traps.json');
    const limits = { maxUrlLength: 300, maxPagesPerHost: 7, maxSegmentRepeats: 4, cycleRepeatsCut: 3, maxShapeChain: 9, maxRepeatsPerShape: 2, maxUrlsPerShape: 11, yearsBack: 1, yearsAhead: 1 };
    const { cycleRepeatsCut, ...sameNames } = limits;
    await writeFile(file, JSON.stringify({ crawl: { ...sameNames, cycleRepeats: cycleRepeatsCut } }));
    expect(parse('--config', file, 'http://a/')).toMatchObject(limits);
    expect(parse('--config', file, 'http://a/', '--max-shape-chain', '12').maxShapeChain).toBe(12);
  });

  it.each([
    [['http://a/', '--max-shape-chain=-1'], /--max-shape-chain must be a whole number of 0 or more/],
    [['http://a/', '--cycle-repeats', '1'], /--cycle-repeats must be a whole number (of|from) 2/],
    [['http://a/', '--years-ahead', 'two'], /--years-ahead must be a whole number/],
    [[], /seed URL/],
    [['ftp://a/'], /not an http/],
    [['not a url'], /not an http/],
    [['http://a/', '--delay', 'soon'], /--delay must be a number/],
    [['http://a/', '--delay=-1'], /--delay must be a number/],
    [['http://a/', '--max-pages', '2.5'], /whole number/],
    [['http://a/', '--user-agent', 'Bot/1.0'], /RFC 9309/],
    [['http://a/', '--mode', 'google'], /rfc9309 or draft/],
    [['http://a/', '--from', 'the crawler team'], /^crawl: --from must be an email address such as crawler-admin@example.org, not "the crawler team"$/],
    [['http://a/', '--from', 'ops@example.org\r\nX-Extra: 1'], /--from must be an email address/],
    [['http://a/', '--scope', 'world'], /host, domain or any/],
    [['http://a/', '--site', 'nowhere'], /ORIGIN=inherit\|always\|never/],
    [['http://a/', '--bogus'], /Unknown option/],
  ])('refuses %j with one clear line', (argv, message) => {
    const m = fails(argv);
    expect(m).toMatch(message);
    expect(m).not.toContain('\n');
  });

  it('a config file supplies options; flags win over it', async () => {
    const file = join(dir, 'crawl.json');
    await writeFile(file, JSON.stringify({ crawl: { seeds: ['http://intranet.example/'], delay: 2.5, sites: { 'http://wiki.example': 'never' }, maxPages: 50 } }));
    const o = parse('--config', file, '--max-pages', '7');
    expect(o.seeds).toEqual(['http://intranet.example/']);
    expect(o.delayMs).toBe(2500);
    expect(o.maxPages).toBe(7);
    expect(o.sites).toEqual({ 'http://wiki.example': 'never' });
  });

  it('--robots-retries and --robots-backoff (seconds) set the robots.txt retry schedule, as the config keys do', async () => {
    expect(parse('http://a/').robotsRetries).toBe(DEFAULT_CRAWL_OPTIONS.robotsRetries);
    expect(parse('http://a/').robotsBackoffMs).toBe(DEFAULT_CRAWL_OPTIONS.robotsBackoffMs);
    const o = parse('http://a/', '--robots-retries', '0', '--robots-backoff', '0.5');
    expect(o.robotsRetries).toBe(0);
    expect(o.robotsBackoffMs).toBe(500);
    const file = join(dir, 'robots.json');
    await writeFile(file, JSON.stringify({ crawl: { robotsRetries: 5, robotsBackoff: 1.5 } }));
    expect(parse('http://a/', '--config', file)).toMatchObject({ robotsRetries: 5, robotsBackoffMs: 1500 });
    expect(fails(['http://a/', '--robots-retries', '-1'])).toMatch(/robots-retries/);
  });

  it('request deadline and minimum rate: seconds on the command line, defaults from crawler/options.ts', () => {
    expect(parse('http://a/')).toMatchObject({
      requestTimeoutMs: DEFAULT_CRAWL_OPTIONS.requestTimeoutMs,
      minBytesPerSecond: DEFAULT_CRAWL_OPTIONS.minBytesPerSecond,
      minRateWindowMs: DEFAULT_CRAWL_OPTIONS.minRateWindowMs,
    });
    expect(parse('http://a/', '--request-timeout', '2.5', '--min-rate', '0', '--min-rate-window', '3')).toMatchObject({ requestTimeoutMs: 2500, minBytesPerSecond: 0, minRateWindowMs: 3000 });
    expect(fails(['http://a/', '--request-timeout', '0'])).toMatch(/--request-timeout must be a number/);
    expect(fails(['http://a/', '--min-rate', '1.5'])).toMatch(/--min-rate must be a whole number/);
  });

  it('a config file sets options that have no flag', async () => {
    const file = join(dir, 'no-flag.json');
    await writeFile(file, JSON.stringify({ crawl: { maxRetries: 0, backoffMs: 100, requestTimeout: 5 } }));
    expect(parse('http://a/', '--config', file)).toMatchObject({ maxRetries: 0, backoffMs: 100, requestTimeoutMs: 5000 });
  });

  it('a config file with an unknown key, a wrong type or bad JSON is refused', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ crawl: { delayMs: 1000 } }));
    expect(fails(['--config', bad])).toMatch(/unknown key "crawl.delayMs" \(the key is now "delay", seconds, as the flag\)/);
    await writeFile(bad, JSON.stringify({ crawl: { maxPage: 3 } }));
    expect(fails(['--config', bad])).toMatch(/unknown key "crawl.maxPage"; did you mean "maxPages"\?/);
    await writeFile(bad, JSON.stringify({ delay: 1 }));
    expect(fails(['--config', bad])).toMatch(/unknown key "delay" at the top/);
    await writeFile(bad, JSON.stringify({ crawl: { delay: 'soon' } }));
    expect(fails(['http://a/', '--config', bad])).toMatch(/"crawl.delay" in .*bad.json must be a number/);
    await writeFile(bad, JSON.stringify({ crawl: { maxRetries: '1' } }));
    expect(fails(['--config', bad])).toMatch(/"crawl.maxRetries" must be a number/);
    await writeFile(bad, JSON.stringify({ crawl: { sites: { 'http://a/docs/': { delay: 1 } } } }));
    expect(fails(['--config', bad])).toMatch(/the key must be an http\(s\) origin/);
    await writeFile(bad, JSON.stringify({ crawl: { sites: { 'http://a': { dealy: 1 } } } }));
    expect(fails(['--config', bad])).toMatch(/unknown key "crawl.sites\["http:\/\/a"\].dealy"; did you mean "delay"\?/);
    // Keys an object has from its prototype are no options; a list option holds strings.
    await writeFile(bad, '{"crawl": {"__proto__": {"delay": 5}}}');
    expect(fails(['--config', bad])).toMatch(/unknown key "crawl.__proto__"/);
    await writeFile(bad, JSON.stringify({ crawl: { constructor: 1 } }));
    expect(fails(['--config', bad])).toMatch(/unknown key "crawl.constructor"/);
    await writeFile(bad, JSON.stringify({ crawl: { stripParams: ['utm_source', 1] } }));
    expect(fails(['--config', bad])).toMatch(/"crawl.stripParams" must be a list of strings/);
    await writeFile(bad, '{nope');
    expect(fails(['--config', bad])).toMatch(/not JSON/);
    expect(fails(['--config', join(dir, 'missing.json')])).toMatch(/no such file/);
  });
});
