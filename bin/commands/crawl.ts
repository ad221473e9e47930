// `gleaner crawl URL... [options]`: flags become CrawlOptions (flag > default, defaults in
// crawler/options.ts), the crawl runs with a progress line, and a summary closes it.

import { join } from 'node:path';
import {
  crawl,
  DEFAULT_CRAWL_OPTIONS,
  describeWait,
  jsonLinesLogger,
  parseSitesConfig,
  prepareCrawl,
  teeLogger,
  type CrawlOptions,
  type CrawlProgress,
  type CrawlSummary,
  type Logger,
  type LogLevel,
  type RobotsRespect,
  type Scope,
} from '../../crawler/index.js';
import { checkDataDir } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { isPostgresUrl } from '../../shared/store/index.js';
import { canonicalizeUrl, uncrawlableReason } from '../../shared/url.js';
import { integerFlag, numberFlag, parseCommandArgs, shownFlag, type Command } from '../command.js';
import { configKey, readConfigFile, type ConfigFile } from '../config-file.js';
import { openLogFile } from '../log-file.js';
import { progressLine } from '../progress.js';
import { doneOfKnown, givenUpLines, hostLines, longCrawlNote, terminalWarnings } from '../progress-format.js';

const d = DEFAULT_CRAWL_OPTIONS;
const HELP = `Usage: gleaner crawl URL... [options]

Crawls from the seed URLs, breadth-first, into the LevelDB store in the data dir. A crawl that was
stopped (Ctrl-C, a crash, kill -9) resumes where it stopped when run again with the same --data.

Options (flag > --config file > default):
  --config FILE         a config file (gleaner.config.example.json shows one): its "crawl" keys are
                        these flags' names in camelCase with the same units ("delay": 2,
                        "maxPages": 500), plus "seeds" and "sites" (per-site seeds, delay, scope,
                        include, exclude, robots, contentSelector, dropSelectors); flags win
  --check               check the options (with --config) and print each with where it came from
                        (flag, config file or default); sends no request, writes nothing
  --data DIR            data dir (default: data)
  --store URL           store the pages in PostgreSQL (postgres://USER@HOST/DB), shared by crawls
                        on several machines, instead of the data dir (which keeps the log and status)
  --frontier URL        share the crawl's queue and politeness through Redis (redis://HOST:PORT/DB):
                        any number of such crawls, on any machines, cooperate on one crawl and hold
                        each site's delay together; needs --store (README: When one machine is not enough)
  --max-pages N         stop when the store holds N pages, all runs together; exact (default: ${d.maxPages})
  --max-depth N         link hops from a seed (default: ${d.maxDepth})
  --delay SECONDS       pause between two requests to one host, decimals allowed; a larger robots.txt
                        Crawl-delay wins (default: ${d.delayMs / 1000}; 0 only for servers you run)
  --max-crawl-delay S   cap on a robots.txt Crawl-delay, with a warning (default: ${d.maxCrawlDelayMs / 1000})
  --user-agent TOKEN    product token for robots.txt and the User-Agent header (default: ${d.agent})
  --from EMAIL          contact address sent in the From header
  --mode MODE           robots.txt semantics: rfc9309 or draft (the 1996 draft) (default: ${d.robotsMode})
  --ignore-robots       do not obey robots.txt anywhere (makes Gleaner a bad robot)
  --site ORIGIN=MODE    per-site robots.txt override: inherit, always or never (repeatable)
  --robots-retries N    tries after a robots.txt fetch fails (5xx, no answer) before its host is given up
                        (whole site disallowed); the other hosts go on meanwhile; a host that takes no
                        connection (refused, DNS failure) is given up at once (default: ${d.robotsRetries})
  --robots-backoff S    seconds before asking a failed robots.txt again, doubling each time, at most
                        maxBackoffMs (default: ${d.robotsBackoffMs / 1000})
  --scope SCOPE         host, domain or any (default: ${d.scope})
  --include PATTERN     only URLs matching one of these: a regular expression (/docs/ is
                        the path, slashes and all), /re/flags (/private/i), or glob:GLOB
                        over the whole URL (repeatable)
  --exclude PATTERN     never URLs matching one of these (repeatable)
  --concurrency N       pages under way at once across hosts: fetched, parsed or stored (default: ${d.concurrency})
  --host-connections N  requests under way at once to one host (default: ${d.hostConnections}; more only for
                        servers you run, like --delay 0)
  --parse-threads N     worker threads that parse pages, 0 for none (default: cores - 1, ${d.parseThreads} here)
  --request-timeout S   deadline of every request, headers and body, in seconds; past it the request
                        is retried like a network error (default: ${d.requestTimeoutMs / 1000})
  --min-rate BYTES      abandon a body slower than this many bytes/s over --min-rate-window,
                        0 never (default: ${d.minBytesPerSecond})
  --min-rate-window S   seconds the rate is averaged over, counted from the headers (default: ${d.minRateWindowMs / 1000})
  --no-sitemaps         do not read sitemaps named in robots.txt or /sitemap.xml
  --no-cookies          do not keep the cookies servers set (kept for the run by default and sent
                        back, as browsers, wget and Scrapy do; some servers show pages only then)
  --use-robots-host     fetch from the host a robots.txt Host line names, as Geoportal does
  --recrawl             fetch every stored page again, with conditional GET (a page an older Gleaner
                        read: whole, to read it again); stored pages it fetches again do not count
                        against --max-pages a second time
  --keep-raw            keep each response's status, headers and body (gzip) beside its page, for
                        \`gleaner export --format warc\` (off by default: the Rust docs crawl ran
                        about 10% slower with it)
Trap limits (crawler/traps.ts; each cut is logged and counted by rule in the summary):
  --max-url-length N    longer URLs are cut (default: ${d.maxUrlLength})
  --max-pages-per-host N  URLs queued or stored per host (default: ${d.maxPagesPerHost})
  --max-segment-repeats N  times one path segment may occur (default: ${d.maxSegmentRepeats})
  --cycle-repeats N     a block of 2-3 path segments repeated N times in a row is a loop (default: ${d.cycleRepeatsCut})
  --max-shape-chain N   same-shape hops in a row (next-day, next-page links) before the chain is cut,
                        0 for no limit (default: ${d.maxShapeChain})
  --max-repeats-per-shape N  duplicate pages of one URL shape before the shape is cut, 0 for no limit
                        (default: ${d.maxRepeatsPerShape})
  --max-urls-per-shape N  URLs of one shape, a last resort, 0 for no limit (default: ${d.maxUrlsPerShape})
  --years-back N        dates further back are calendar pages (default: ${d.yearsBack})
  --years-ahead N       dates further ahead are calendar pages (default: ${d.yearsAhead})
  --log FILE            JSON-lines log (default: DATA/crawl.log.jsonl)
  --log-level LEVEL     debug, info, warn or error (default: ${d.logLevel})
  -h, --help            this help
Environment: HTTP_PROXY, HTTPS_PROXY and NO_PROXY name a proxy, as for wget and curl (loopback is
  always asked directly)
`;

const FLAGS = {
  config: { type: 'string' },
  check: { type: 'boolean' },
  data: { type: 'string' },
  store: { type: 'string' },
  frontier: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  delay: { type: 'string' },
  'max-crawl-delay': { type: 'string' },
  'user-agent': { type: 'string' },
  from: { type: 'string' },
  mode: { type: 'string' },
  'ignore-robots': { type: 'boolean' },
  site: { type: 'string', multiple: true },
  'robots-retries': { type: 'string' },
  'robots-backoff': { type: 'string' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  'host-connections': { type: 'string' },
  'parse-threads': { type: 'string' },
  'request-timeout': { type: 'string' },
  'min-rate': { type: 'string' },
  'min-rate-window': { type: 'string' },
  'no-sitemaps': { type: 'boolean' },
  'no-cookies': { type: 'boolean' },
  'use-robots-host': { type: 'boolean' },
  recrawl: { type: 'boolean' },
  'keep-raw': { type: 'boolean' },
  'max-url-length': { type: 'string' },
  'max-pages-per-host': { type: 'string' },
  'max-segment-repeats': { type: 'string' },
  'cycle-repeats': { type: 'string' },
  'max-shape-chain': { type: 'string' },
  'max-repeats-per-shape': { type: 'string' },
  'max-urls-per-shape': { type: 'string' },
  'years-back': { type: 'string' },
  'years-ahead': { type: 'string' },
  log: { type: 'string' },
  'log-level': { type: 'string' },
} as const;

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** 128 + the signal's number, as shells report a process killed by it. */
const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
/** RFC 9309 2.2.1: a product token is letters, underscores and hyphens. */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

/** CrawlOptions that no flag sets: a config file may set them under these names (crawler/options.ts, units in the names). */
const CONFIG_ONLY: Readonly<Record<string, unknown>> = (() => {
  const { maxRetries, backoffMs, maxBackoffMs, maxConnectFailures, maxHostFailures, maxBodyBytes, maxRedirects, connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs, stripParams, robotsMaxCacheSeconds, statusIntervalMs, documentTimeoutMs, documentMemoryMb, pdfMaxPages, leaseMarginMs, leaseBatchUrls, stopDeadlineMs, frontierTimeoutMs } = d;
  return { maxRetries, backoffMs, maxBackoffMs, maxConnectFailures, maxHostFailures, maxBodyBytes, maxRedirects, connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs, stripParams, robotsMaxCacheSeconds, statusIntervalMs, documentTimeoutMs, documentMemoryMb, pdfMaxPages, leaseMarginMs, leaseBatchUrls, stopDeadlineMs, frontierTimeoutMs };
})();

/** Where an effective value came from, for --check. */
export type OptionSource = 'flag' | 'config' | 'default';

export interface CrawlArgs {
  options: CrawlOptions;
  logFile: string;
  help: boolean;
  /** --check: print the options and stop. */
  check: boolean;
  /** Per flag name (and `seeds`, `sites`, config-only option names): where its value came from. */
  sources: Record<string, OptionSource>;
  config?: ConfigFile;
}

export function crawlOptionsFromArgs(argv: string[]): CrawlArgs {
  const name = 'crawl';
  const { values: flags, positionals, help } = parseCommandArgs(name, argv, FLAGS);
  if (help) return { options: { ...d, dataDir: flags.data ?? 'data', seeds: [] }, logFile: '', help, check: false, sources: {} };
  const config = flags.config === undefined ? undefined : readConfigFile(flags.config, { crawlFlags: FLAGS, crawlOptions: CONFIG_ONLY });
  // Precedence: flag > config file > default (crawler/options.ts). Config values arrive flag-shaped
  // (bin/config-file.ts), so one parser below checks both; an error names the config key when it came from there.
  const v: typeof flags = { ...(config?.crawl as Partial<typeof flags> | undefined), ...flags };
  const sources: Record<string, OptionSource> = {};
  for (const flag of Object.keys(FLAGS)) sources[flag] = flags[flag as keyof typeof flags] !== undefined ? 'flag' : config?.crawl[flag] !== undefined ? 'config' : 'default';
  for (const key of Object.keys(CONFIG_ONLY)) sources[key] = config?.crawlOptions[key] !== undefined ? 'config' : 'default';
  const f = (flag: string) => (sources[flag] === 'config' ? `"crawl.${configKey(flag)}" in ${config!.path}` : flag);
  const base: CrawlOptions = { ...d, dataDir: 'data', seeds: [], ...(config?.crawlOptions as Partial<CrawlOptions> | undefined) };
  const dataDir = v.data ?? base.dataDir;
  const siteSeeds = Object.values(config?.sites ?? {}).flatMap((s) => s.seeds);
  sources.seeds = positionals.length > 0 ? 'flag' : config !== undefined && config.seeds.length + siteSeeds.length > 0 ? 'config' : 'default';
  if (positionals.length === 0) positionals.push(...(config?.seeds ?? []), ...siteSeeds);
  // --check reads a config file whose seeds may be meant to come from the command line: it says so instead.
  if (positionals.length === 0 && flags.check !== true) throw new GleanerError('BAD_ARGUMENT', 'crawl: give at least one seed URL, e.g. gleaner crawl http://intranet.example/');
  const agent = v['user-agent'] ?? base.agent;
  if (!PRODUCT_TOKEN.test(agent)) throw new GleanerError('BAD_ARGUMENT', `crawl: ${shownFlag(f('user-agent'))} must be letters, "_" and "-" only (RFC 9309), not "${agent}"`);
  const from = v.from ?? base.from;
  // A mailbox (RFC 9110 10.1.2): one @, no spaces or control characters. Anything else is sent with every
  // request, and one with a line break in it failed them all ("invalid from header").
  if (from !== undefined && !/^[^\s\p{Cc}@<>]+@[^\s\p{Cc}@<>]+$/u.test(from)) throw new GleanerError('BAD_ARGUMENT', `crawl: ${shownFlag(f('from'))} must be an email address such as crawler-admin@example.org, not ${JSON.stringify(from)}`);
  const mode = v.mode ?? base.robotsMode;
  if (mode !== 'rfc9309' && mode !== 'draft') throw new GleanerError('BAD_ARGUMENT', `crawl: ${shownFlag(f('mode'))} must be rfc9309 or draft, not "${mode}"`);
  const scope = checkScope(v.scope ?? base.scope, f('scope'));
  const logLevel = (v['log-level'] ?? base.logLevel) as LogLevel;
  if (!LEVELS.includes(logLevel)) throw new GleanerError('BAD_ARGUMENT', `crawl: ${shownFlag(f('log-level'))} must be one of ${LEVELS.join(', ')}`);
  const perSite = sitesFromConfig(config);
  const sites: Record<string, RobotsRespect> = { ...perSite.sites };
  sources.sites = Object.keys(sites).length > 0 ? 'config' : 'default';
  for (const s of v.site ?? []) {
    const m = /^(.+)=(inherit|always|never)$/.exec(s);
    let origin: string | undefined;
    try {
      origin = m ? new URL(m[1]!).origin : undefined;
    } catch {
      origin = undefined;
    }
    if (!m || !origin || origin === 'null') throw new GleanerError('BAD_ARGUMENT', `crawl: --site takes ORIGIN=inherit|always|never, e.g. http://intranet.example=never, not "${s}"`);
    sites[origin] = m[2] as RobotsRespect;
    sources.sites = 'flag';
  }
  for (const seed of positionals) {
    if (canonicalizeUrl(seed) === undefined) throw new GleanerError('BAD_ARGUMENT', `crawl: ${uncrawlableReason(seed)}: "${seed}"`);
  }
  const options: CrawlOptions = {
    ...base, // config keys no flag sets (maxRetries, backoffMs...) are kept, not reset to the defaults
    dataDir,
    ...(storeUrl(v.store) ?? base.store ? { store: storeUrl(v.store) ?? base.store } : {}),
    ...((v.frontier ?? base.frontier) !== undefined ? { frontier: v.frontier ?? base.frontier } : {}),
    seeds: positionals,
    extractRules: perSite.extractRules,
    siteDelayMs: perSite.siteDelayMs,
    siteScopes: perSite.siteScopes,
    maxPages: integerFlag(name, f('max-pages'), v['max-pages'], base.maxPages, 1),
    maxDepth: integerFlag(name, f('max-depth'), v['max-depth'], base.maxDepth, 0, 1000),
    delayMs: Math.round(numberFlag(name, f('delay'), v.delay, base.delayMs / 1000, 0, 3600) * 1000),
    maxCrawlDelayMs: Math.round(numberFlag(name, f('max-crawl-delay'), v['max-crawl-delay'], base.maxCrawlDelayMs / 1000, 0, 86400) * 1000),
    agent,
    from,
    robotsMode: mode,
    respectRobots: v['ignore-robots'] ? false : base.respectRobots,
    sites,
    robotsRetries: integerFlag(name, f('robots-retries'), v['robots-retries'], base.robotsRetries, 0, 100),
    robotsBackoffMs: Math.round(numberFlag(name, f('robots-backoff'), v['robots-backoff'], base.robotsBackoffMs / 1000, 0, 86400) * 1000),
    scope,
    include: v.include ?? base.include,
    exclude: v.exclude ?? base.exclude,
    concurrency: integerFlag(name, f('concurrency'), v.concurrency, base.concurrency, 1, 256),
    hostConnections: integerFlag(name, f('host-connections'), v['host-connections'], base.hostConnections, 1, 64),
    parseThreads: integerFlag(name, f('parse-threads'), v['parse-threads'], base.parseThreads, 0, 64),
    requestTimeoutMs: Math.round(numberFlag(name, f('request-timeout'), v['request-timeout'], base.requestTimeoutMs / 1000, 0.1, 86400) * 1000),
    minBytesPerSecond: integerFlag(name, f('min-rate'), v['min-rate'], base.minBytesPerSecond, 0),
    minRateWindowMs: Math.round(numberFlag(name, f('min-rate-window'), v['min-rate-window'], base.minRateWindowMs / 1000, 0.1, 86400) * 1000),
    useSitemaps: v['no-sitemaps'] ? false : base.useSitemaps,
    cookies: v['no-cookies'] ? false : base.cookies,
    useRobotsHost: v['use-robots-host'] ?? base.useRobotsHost,
    recrawl: v.recrawl ?? base.recrawl,
    keepRaw: v['keep-raw'] ?? base.keepRaw,
    maxUrlLength: integerFlag(name, f('max-url-length'), v['max-url-length'], base.maxUrlLength, 16),
    maxPagesPerHost: integerFlag(name, f('max-pages-per-host'), v['max-pages-per-host'], base.maxPagesPerHost, 1),
    maxSegmentRepeats: integerFlag(name, f('max-segment-repeats'), v['max-segment-repeats'], base.maxSegmentRepeats, 1),
    cycleRepeatsCut: integerFlag(name, f('cycle-repeats'), v['cycle-repeats'], base.cycleRepeatsCut, 2),
    maxShapeChain: integerFlag(name, f('max-shape-chain'), v['max-shape-chain'], base.maxShapeChain, 0),
    maxRepeatsPerShape: integerFlag(name, f('max-repeats-per-shape'), v['max-repeats-per-shape'], base.maxRepeatsPerShape, 0),
    maxUrlsPerShape: integerFlag(name, f('max-urls-per-shape'), v['max-urls-per-shape'], base.maxUrlsPerShape, 0),
    yearsBack: integerFlag(name, f('years-back'), v['years-back'], base.yearsBack, 0, 10_000),
    yearsAhead: integerFlag(name, f('years-ahead'), v['years-ahead'], base.yearsAhead, 0, 10_000),
    logLevel,
  };
  return { options, logFile: v.log ?? join(dataDir, 'crawl.log.jsonl'), help, check: flags.check === true, sources, ...(config ? { config } : {}) };
}

function checkScope(value: string, label: string): Scope {
  if (!['host', 'domain', 'any'].includes(value)) throw new GleanerError('BAD_ARGUMENT', `crawl: ${label} must be host, domain or any, not "${value}"`);
  return value as Scope;
}

/** The config file's per-site settings as crawl options. */
function sitesFromConfig(config: ConfigFile | undefined): Pick<CrawlOptions, 'sites' | 'extractRules' | 'siteDelayMs' | 'siteScopes'> {
  const out: Pick<CrawlOptions, 'sites' | 'extractRules' | 'siteDelayMs' | 'siteScopes'> = { sites: {}, extractRules: {}, siteDelayMs: {}, siteScopes: {} };
  if (config === undefined) return out;
  const at = `crawl: config ${config.path}`;
  const rules: Record<string, unknown> = {};
  for (const [origin, site] of Object.entries(config.sites)) {
    const label = (key: string) => `"crawl.sites[${origin}].${key}" in ${config.path}`;
    const { robots, contentSelector, dropSelectors } = site;
    rules[origin] = { robots, contentSelector, dropSelectors };
    if (site.delay !== undefined) out.siteDelayMs[origin] = Math.round(numberFlag('crawl', label('delay'), site.delay, 0, 0, 3600) * 1000);
    if (site.scope !== undefined || site.include !== undefined || site.exclude !== undefined) {
      out.siteScopes[origin] = { scope: site.scope === undefined ? 'host' : checkScope(site.scope, label('scope')), include: site.include ?? [], exclude: site.exclude ?? [] };
    }
  }
  // Robots overrides and extraction rules are checked where they are defined (crawler/site-rules.ts).
  const { sites, extractRules } = parseSitesConfig(JSON.parse(JSON.stringify(rules)), at);
  return { ...out, sites, extractRules };
}

/** What --check prints: every flag's effective value in the flag's units, and where it came from. */
export function formatCheck(args: CrawlArgs): string {
  const o = args.options;
  const seconds = (ms: number) => `${ms / 1000} s`;
  const list = (xs: readonly string[]) => (xs.length === 0 ? '(none)' : xs.join(', '));
  const shown: Record<string, string> = {
    data: o.dataDir,
    store: o.store ?? '(the data dir)',
    frontier: o.frontier ?? '(the data dir)',
    'max-pages': String(o.maxPages),
    'max-depth': String(o.maxDepth),
    delay: seconds(o.delayMs),
    'max-crawl-delay': seconds(o.maxCrawlDelayMs),
    'user-agent': o.agent,
    from: o.from ?? '(none)',
    mode: o.robotsMode,
    'ignore-robots': String(!o.respectRobots),
    'robots-retries': String(o.robotsRetries),
    'robots-backoff': seconds(o.robotsBackoffMs),
    scope: o.scope,
    include: list(o.include),
    exclude: list(o.exclude),
    concurrency: String(o.concurrency),
    'host-connections': String(o.hostConnections),
    'parse-threads': String(o.parseThreads),
    'request-timeout': seconds(o.requestTimeoutMs),
    'min-rate': `${o.minBytesPerSecond} bytes/s`,
    'min-rate-window': seconds(o.minRateWindowMs),
    'no-sitemaps': String(!o.useSitemaps),
    'no-cookies': String(!o.cookies),
    'use-robots-host': String(o.useRobotsHost),
    recrawl: String(o.recrawl),
    'keep-raw': String(o.keepRaw),
    'max-url-length': String(o.maxUrlLength),
    'max-pages-per-host': String(o.maxPagesPerHost),
    'max-segment-repeats': String(o.maxSegmentRepeats),
    'cycle-repeats': String(o.cycleRepeatsCut),
    'max-shape-chain': String(o.maxShapeChain),
    'max-repeats-per-shape': String(o.maxRepeatsPerShape),
    'max-urls-per-shape': String(o.maxUrlsPerShape),
    'years-back': String(o.yearsBack),
    'years-ahead': String(o.yearsAhead),
    log: args.logFile,
    'log-level': o.logLevel,
  };
  const from = (key: string) => (args.sources[key] === 'config' ? `config ${args.config?.path ?? ''}` : (args.sources[key] ?? 'default'));
  const row = (name: string, value: string, source: string) => `  ${name.padEnd(24)} ${value.padEnd(30)} ${source}`;
  const lines = [`crawl: the options are valid${args.config ? ` (config ${args.config.path})` : ''}; nothing was fetched`, row('option', 'value', 'from'), row('seeds', o.seeds.length === 0 ? '(none: a crawl needs one, as URL... or "seeds" in the config)' : list(o.seeds), from('seeds'))];
  for (const [flag, value] of Object.entries(shown)) lines.push(row(`--${flag}`, value, from(flag)));
  for (const [key, value] of Object.entries(CONFIG_ONLY)) {
    const actual = (o as unknown as Record<string, unknown>)[key];
    lines.push(row(key, Array.isArray(actual) ? list(actual as string[]) : String(actual ?? value), from(key)));
  }
  const origins = new Set([...Object.keys(o.sites), ...Object.keys(o.extractRules), ...Object.keys(o.siteDelayMs), ...Object.keys(o.siteScopes)]);
  if (origins.size > 0) lines.push('sites:');
  for (const origin of [...origins].sort()) {
    const parts: string[] = [];
    const seeds = o.seeds.filter((s) => s.startsWith(`${origin}/`));
    if (seeds.length > 0) parts.push(`seeds ${list(seeds)}`);
    if (o.siteDelayMs[origin] !== undefined) parts.push(`delay ${seconds(o.siteDelayMs[origin])}`);
    const sc = o.siteScopes[origin];
    if (sc !== undefined) parts.push(`scope ${sc.scope}${sc.include.length > 0 ? ` include ${list(sc.include)}` : ''}${sc.exclude.length > 0 ? ` exclude ${list(sc.exclude)}` : ''}`);
    if (o.sites[origin] !== undefined) parts.push(`robots ${o.sites[origin]}`);
    const r = o.extractRules[origin];
    if (r !== undefined) parts.push(`rules: ${r.contentSelector !== undefined ? `content ${r.contentSelector}` : 'whole page'}${r.dropSelectors.length > 0 ? `; drop ${r.dropSelectors.join(', ')}` : ''}`);
    lines.push(`  ${origin}  ${parts.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

export function formatProgress(p: CrawlProgress, now: number = Date.now()): string {
  // The robots note comes before the counters: a terminal cuts the line at its width.
  return `crawl: ${doneOfKnown({ ...p, pages: p.done })} (${p.pagesThisRun} this run, ${p.pagesPerSecond.toFixed(1)}/s)${robotsHostsNote(p, now)} | queued ${p.queued} | in flight ${p.inFlight} | hosts ${p.hosts} | errors ${p.errors} | blocked ${p.blocked}`;
}

/** Which host waits for its robots.txt and why (the first; a count of the others), and which were given up. */
function robotsHostsNote(p: CrawlProgress, now: number): string {
  const [first, ...more] = p.robotsWaiting;
  const waiting = first ? ` | waiting: ${describeWait(first, now)}${more.length > 0 ? ` (+${more.length} more)` : ''}` : '';
  const shown = p.hostsGivenUp.slice(0, 3).map((h) => `${h.origin} (${h.reason})`);
  if (p.hostsGivenUp.length > shown.length) shown.push(`+${p.hostsGivenUp.length - shown.length} more`);
  return waiting + (shown.length > 0 ? ` | given up ${p.hostsGivenUp.length}: ${shown.join(', ')}` : '');
}

const STATUS_NAMES: Record<string, string> = { '0': 'no response', '304': '304 not modified' };
const byState = (m: Record<string, number | undefined>) => Object.entries(m).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
const byStatus = (m: Record<string, number>) => Object.entries(m).map(([k, n]) => `${STATUS_NAMES[k] ?? k} ${n}`).join(', ') || 'none';

export function formatSummary(s: CrawlSummary, logFile?: string): string {
  const st = s.stats;
  const run = s.thisRun;
  const total = Object.values(st.pagesByState).reduce((a, b) => a + b, 0);
  const blocked = Object.values(st.blockedByRule).reduce((a, b) => a + b, 0);
  const traps = Object.entries(st.trapsCut).map(([k, n]) => `${k} ${n}${st.trapExamples?.[k] ? ` (e.g. ${st.trapExamples[k]})` : ''}`).join('; ') || 'none';
  const why = { done: 'nothing left to crawl', 'max-pages': 'reached --max-pages', aborted: 'stopped; run again to resume', unreachable: 'no seed host could be reached' }[s.stoppedBecause];
  const kept = run.kept > 0 ? ` (${run.kept} kept as they were: their server failed for now)` : '';
  // A first run is the whole crawl: its counts once, not twice over.
  const runs =
    run.pages === total && run.requests === st.requests
      ? [`  this run:     ${run.pages} pages stored${kept}, ${run.requests} requests (the whole crawl so far)`]
      : [
          `  this run:     ${run.pages} pages stored${kept}, ${run.requests} requests; by state: ${byState(run.pagesByState)}; by status: ${byStatus(run.pagesByStatus)}`,
          `  whole crawl:  ${total} pages stored, ${st.requests} requests (every run so far)`,
        ];
  return [
    `crawled ${s.pagesThisRun} pages in ${s.seconds.toFixed(1)} s (${why})`,
    ...runs,
    `  pages by state:   ${byState(st.pagesByState)}`,
    `  pages by status:  ${byStatus(st.pagesByStatus)}`,
    `  blocked by robots.txt: ${blocked}; duplicates: ${st.duplicates}; out of scope: ${st.outOfScope}`,
    `  cut as traps: ${traps}`,
    ...hostLines(st),
    ...givenUpLines(s.hostsGivenUp, logFile),
  ].join('\n');
}

/** A logger for the terminal: warnings and errors as short lines (clearing the progress line on a
 * terminal), at most a few of each kind (progress-format.ts terminalWarnings); the log has them all. */
function terminalLogger(logFile: string): Logger {
  const clear = process.stderr.isTTY ? '\r\x1b[K' : '';
  const shown = terminalWarnings(logFile);
  return (level, msg, fields) => {
    if (level !== 'warn' && level !== 'error') return;
    const where = fields && typeof fields.origin === 'string' ? ` (${fields.origin})` : fields && typeof fields.url === 'string' ? ` (${fields.url})` : '';
    for (const line of shown(`${level}: ${msg}${where}`)) process.stderr.write(`${clear}${line}\n`);
  };
}

export const crawlCommand: Command = {
  name: 'crawl',
  summary: 'crawl sites from seed URLs into the store, politely',
  help: HELP,
  async run(argv) {
    const args = crawlOptionsFromArgs(argv);
    const { options, logFile, help } = args;
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    // Everything that can be refused is refused before the data dir or the log is created.
    prepareCrawl(options);
    if (args.check) {
      process.stdout.write(formatCheck(args));
      return 0;
    }
    const madeDir = checkDataDir(options.dataDir, { create: true, write: true });
    const controller = new AbortController();
    let logFailure: GleanerError | undefined;
    const file = openLogFile(logFile, (e) => {
      logFailure = e;
      controller.abort();
    }, madeDir);
    const log = teeLogger(jsonLinesLogger((line) => file.write(line), options.logLevel), terminalLogger(logFile));
    if (!options.respectRobots || Object.values(options.sites).includes('never')) {
      process.stderr.write('warning: robots.txt will be ignored for some or all sites; Gleaner is then a bad robot. Site owners may block it.\n');
    }
    const progress = progressLine();
    // The first SIGINT/SIGTERM aborts the requests under way (they stay queued for the next run), the
    // store is closed and the summary printed; a second one exits at once.
    let stoppedBy: StopSignal | undefined;
    const stop = (signal: NodeJS.Signals) => {
      if (controller.signal.aborted) return;
      stoppedBy = signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
      progress.done();
      process.stderr.write('stopping: abandoning the requests under way, they stay queued (Ctrl-C again to force)...\n');
      controller.abort();
      for (const s of STOP_SIGNALS) process.once(s, () => process.exit(SIGNAL_EXIT[s]));
      // Bounded: a store or frontier server that hangs (a shared Redis or PostgreSQL) cannot hold the stop.
      setTimeout(() => {
        progress.done();
        process.stderr.write(`stopping took longer than ${String(options.stopDeadlineMs / 1000)} s (a store or frontier server not answering?); exiting: what is stored is kept, and leases held come back at their deadlines\n`);
        process.exit(SIGNAL_EXIT[stoppedBy ?? 'SIGINT']);
      }, options.stopDeadlineMs).unref();
    };
    for (const s of STOP_SIGNALS) process.once(s, stop);
    let stored = 0;
    let noted = false;
    const onProgress = (p: CrawlProgress) => {
      stored = p.pages;
      // Said once, on its own line (also when stderr is not a terminal): the crawl will take long.
      const note = noted ? undefined : longCrawlNote(p);
      if (note !== undefined) {
        noted = true;
        progress.done();
        process.stderr.write(note + '\n');
      }
      progress.update(formatProgress(p));
    };
    try {
      const summary = await crawl(options, { log, onProgress, signal: controller.signal });
      progress.done();
      if (logFailure) throw new GleanerError('DATA_DIR', `crawl stopped: ${logFailure.message}; the ${stored} pages stored so far are kept (make room, then run again to resume)`);
      process.stdout.write(formatSummary(summary, logFile) + '\n');
      process.stdout.write(`log: ${logFile}\n`);
      if (summary.stoppedBecause === 'unreachable') {
        // Not "blocked by robots.txt": nothing could be asked. cli.ts turns this into one line and exit 69.
        const hosts = summary.hostsGivenUp.map((h) => `${h.origin} (robots.txt ${h.reason})`).join(', ');
        throw new GleanerError('UNREACHABLE', `crawl: no seed host could be reached, nothing was crawled: ${hosts}`);
      }
      if (stoppedBy !== undefined) return SIGNAL_EXIT[stoppedBy];
      return summary.stoppedBecause === 'aborted' ? 130 : 0;
    } finally {
      progress.done();
      for (const s of STOP_SIGNALS) process.removeListener(s, stop);
      await file.close();
    }
  },
};

/** --store's value, checked: a postgres:// URL (a data dir is given with --data). */
function storeUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isPostgresUrl(value)) throw new GleanerError('BAD_ARGUMENT', `crawl: --store takes a postgres:// URL (got ${JSON.stringify(value)}); a data dir is given with --data`);
  return value;
}
