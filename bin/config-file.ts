// The config file: the flags of `gleaner crawl` and `gleaner serve` written down, with the same names
// (camelCase: `--max-pages` is "maxPages") and the same units (`delay` in seconds, durations as `6h`),
// plus what only a file can say well: several sites, each with its own seeds, delay, scope, robots
// override and extraction rules. Values come out in the form the flags have (strings, booleans, lists),
// so one parser checks a value whether it came from the command line or from the file, and a command
// knows where each value came from (`gleaner crawl --config FILE --check` prints it).
// gleaner.config.example.json is the documented example; a test reads it through this file.

import { readFileSync } from 'node:fs';
import { httpOriginOf } from '../crawler/index.js';
import { editDistance } from '../shared/analysis/index.js';
import { GleanerError } from '../shared/errors.js';

/** A flag as node:util parseArgs declares it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
}

/** Flag values keyed by flag name (`max-pages`), as parseArgs returns them. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** One site of the file's `crawl.sites`, keyed by its origin. */
export interface SiteConfig {
  /** Where the site's crawl starts; none: its settings apply when links lead to it. */
  seeds: string[];
  /** Seconds between two requests to this site (a larger robots.txt Crawl-delay still wins), as --delay. */
  delay?: string;
  scope?: string;
  include?: string[];
  exclude?: string[];
  /** inherit, always or never, as --site ORIGIN=MODE. */
  robots?: string;
  contentSelector?: string;
  dropSelectors?: string[];
}

export interface ConfigFile {
  path: string;
  /** `crawl` section, flag-shaped (without seeds and sites). */
  crawl: FlagValues;
  /** `crawl` keys that no flag sets, under their option names (crawler/options.ts: `maxRetries`, `backoffMs`). */
  crawlOptions: Record<string, unknown>;
  seeds: string[];
  sites: Record<string, SiteConfig>;
  /** `serve` section, flag-shaped. */
  serve: FlagValues;
}

/** Keys old config files had (CrawlOptions names, units in the name) and the key that says it now. */
const RENAMED: Readonly<Record<string, string>> = {
  dataDir: 'data',
  delayMs: 'delay (seconds)',
  maxCrawlDelayMs: 'maxCrawlDelay (seconds)',
  requestTimeoutMs: 'requestTimeout (seconds)',
  robotsBackoffMs: 'robotsBackoff (seconds)',
  minBytesPerSecond: 'minRate',
  minRateWindowMs: 'minRateWindow (seconds)',
  agent: 'userAgent',
  robotsMode: 'mode',
  respectRobots: 'ignoreRobots',
  useSitemaps: 'noSitemaps',
  useRobotsHost: 'useRobotsHost',
  cycleRepeatsCut: 'cycleRepeats',
  allowOrigins: 'allowOrigin',
};

const SITE_KEYS = ['seeds', 'delay', 'scope', 'include', 'exclude', 'robots', 'contentSelector', 'dropSelectors'] as const;

/** `max-pages` -> `maxPages`. */
export function configKey(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Reads and checks a config file; every problem is one BAD_ARGUMENT line naming the file and the key. */
/** What the reading command accepts: its flags, and (for crawl) the options no flag sets, with their
 * defaults for the type check. A section whose flags are not given belongs to the other command: kept
 * unread here, checked when that command reads the file. */
export interface ConfigShape {
  crawlFlags?: Readonly<Record<string, FlagSpec>>;
  crawlOptions?: Readonly<Record<string, unknown>>;
  serveFlags?: Readonly<Record<string, FlagSpec>>;
}

export function readConfigFile(path: string, shape: ConfigShape): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new GleanerError('BAD_ARGUMENT', `config ${path}: cannot read it: ${why}`);
  }
  let parsed: unknown;
  try {
    // A byte order mark (Notepad saves one) is no part of the JSON; npm reads such files too.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new GleanerError('BAD_ARGUMENT', `config ${path}: not JSON: ${(e as Error).message}`);
  }
  return parseConfig(parsed, path, shape);
}

/** The checking half of readConfigFile, pure. */
export function parseConfig(parsed: unknown, path: string, shape: ConfigShape): ConfigFile {
  const at = `config ${path}`;
  const top = object(parsed, at, 'the file');
  const result: ConfigFile = { path, crawl: {}, crawlOptions: {}, seeds: [], sites: {}, serve: {} };
  for (const [key, value] of Object.entries(top)) {
    if (key === '$comment') continue;
    if (key === 'data') {
      result.crawl.data = str(value, at, 'data');
      result.serve.data = result.crawl.data;
    } else if (key === 'crawl') {
      const section = object(value, at, 'crawl');
      if (shape.crawlFlags === undefined) continue;
      const crawlOptions = shape.crawlOptions ?? {};
      const { seeds, sites, ...rest } = section;
      if (seeds !== undefined) result.seeds = strings(seeds, at, 'crawl.seeds');
      if (sites !== undefined) result.sites = parseSites(sites, at);
      // No prototype: a "__proto__" key in the file is then a key like any other (and refused as unknown).
      const flagged = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(rest)) {
        // Own keys only: "constructor" or "__proto__" in a file are unknown keys, not the prototype's.
        if (!Object.hasOwn(crawlOptions, k)) {
          flagged[k] = v;
          continue;
        }
        const want = Array.isArray(crawlOptions[k]) ? 'list' : typeof crawlOptions[k];
        const got = Array.isArray(v) ? 'list' : typeof v;
        if (want !== got) throw new GleanerError('BAD_ARGUMENT', `${at}: "crawl.${k}" must be a ${want}`);
        // Every list option is a list of strings (stripParams).
        if (Array.isArray(v)) result.crawlOptions[k] = strings(v, at, `crawl.${k}`);
        else result.crawlOptions[k] = v;
      }
      Object.assign(result.crawl, flagValues(flagged, shape.crawlFlags, at, 'crawl', ['config', 'site', 'check'], Object.keys(crawlOptions)));
    } else if (key === 'serve') {
      const section = object(value, at, 'serve');
      if (shape.serveFlags !== undefined) Object.assign(result.serve, flagValues(section, shape.serveFlags, at, 'serve', ['config']));
    } else {
      throw new GleanerError('BAD_ARGUMENT', `${at}: unknown key "${key}" at the top (data, crawl, serve; crawl options go under "crawl")`);
    }
  }
  return result;
}

function flagValues(section: Record<string, unknown>, flags: Readonly<Record<string, FlagSpec>>, at: string, name: string, excluded: readonly string[], alsoKnown: readonly string[] = []): FlagValues {
  const byKey = new Map<string, [string, FlagSpec]>();
  for (const [flag, spec] of Object.entries(flags)) if (!excluded.includes(flag)) byKey.set(configKey(flag), [flag, spec]);
  const out: FlagValues = {};
  for (const [key, value] of Object.entries(section)) {
    if (key === '$comment') continue;
    const known = byKey.get(key);
    if (known === undefined) throw new GleanerError('BAD_ARGUMENT', `${at}: unknown key "${name}.${key}"${suggestion(key, [...byKey.keys(), ...alsoKnown])}`);
    const [flag, spec] = known;
    const where = `${name}.${key}`;
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean') throw new GleanerError('BAD_ARGUMENT', `${at}: "${where}" must be true or false`);
      out[flag] = value;
    } else if (spec.multiple === true) {
      out[flag] = typeof value === 'string' ? [value] : strings(value, at, where);
    } else {
      if (typeof value !== 'string' && typeof value !== 'number') throw new GleanerError('BAD_ARGUMENT', `${at}: "${where}" must be a number or a string`);
      out[flag] = String(value);
    }
  }
  return out;
}

function parseSites(value: unknown, at: string): Record<string, SiteConfig> {
  const sites: Record<string, SiteConfig> = {};
  for (const [key, entry] of Object.entries(object(value, at, 'crawl.sites'))) {
    const where = `crawl.sites["${key}"]`;
    let origin: string | undefined;
    try {
      const u = new URL(key);
      origin = (u.protocol === 'http:' || u.protocol === 'https:') && u.pathname === '/' && u.search === '' ? u.origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin === undefined) throw new GleanerError('BAD_ARGUMENT', `${at}: ${where}: the key must be an http(s) origin such as http://intranet.example (no path)`);
    // A bare string is the robots override alone, as `--site ORIGIN=MODE` gives it.
    const fields = typeof entry === 'string' ? { robots: entry } : object(entry, at, where);
    const site: SiteConfig = { seeds: [] };
    for (const [k, v] of Object.entries(fields)) {
      const w = `${where}.${k}`;
      switch (k as (typeof SITE_KEYS)[number] | '$comment') {
        case '$comment':
          break;
        case 'seeds':
          site.seeds = strings(v, at, w);
          for (const s of site.seeds) if (httpOriginOf(s) !== origin) throw new GleanerError('BAD_ARGUMENT', `${at}: ${w}: "${s}" is not on ${origin}`);
          break;
        case 'delay':
          if (typeof v !== 'number' && typeof v !== 'string') throw new GleanerError('BAD_ARGUMENT', `${at}: "${w}" must be a number of seconds`);
          site.delay = String(v);
          break;
        case 'scope':
        case 'robots':
        case 'contentSelector':
          site[k as 'scope' | 'robots' | 'contentSelector'] = str(v, at, w);
          break;
        case 'include':
        case 'exclude':
        case 'dropSelectors':
          site[k as 'include' | 'exclude' | 'dropSelectors'] = strings(v, at, w);
          break;
        default:
          throw new GleanerError('BAD_ARGUMENT', `${at}: unknown key "${w}"${suggestion(k, SITE_KEYS)} (a site takes ${SITE_KEYS.join(', ')})`);
      }
    }
    sites[origin] = site;
  }
  return sites;
}

function object(value: unknown, at: string, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GleanerError('BAD_ARGUMENT', `${at}: ${where} must be a JSON object`);
  return value as Record<string, unknown>;
}

function str(value: unknown, at: string, where: string): string {
  if (typeof value !== 'string') throw new GleanerError('BAD_ARGUMENT', `${at}: "${where}" must be a string`);
  return value;
}

function strings(value: unknown, at: string, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new GleanerError('BAD_ARGUMENT', `${at}: "${where}" must be a list of strings`);
  return value;
}

/** `; did you mean "delay" (seconds)?` for a key that was renamed or is one typo away from a known one. */
function suggestion(key: string, known: readonly string[]): string {
  const renamed = Object.hasOwn(RENAMED, key) ? RENAMED[key] : undefined;
  if (renamed !== undefined) return ` (the key is now "${renamed.replace(/ \(.*/, '')}"${renamed.includes('(') ? `, ${renamed.replace(/^[^(]*\(|\)$/g, '')}` : ''}, as the flag)`;
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const dist = editDistance(key.toLowerCase(), k.toLowerCase(), bestDistance);
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best === undefined ? '' : `; did you mean "${best}"?`;
}
