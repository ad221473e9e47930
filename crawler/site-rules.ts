// Per-site extraction rules (issue 14 item 9): a CSS selector naming a site's main content and selectors
// whose elements are dropped, set in the crawl config file as `crawl.sites[origin].contentSelector` and
// `sites[origin].dropSelectors`. Only pages of an origin with rules are parsed with cheerio (a DOM); every
// other page keeps extract.ts's streaming pass and its speed.
//
// Decisions:
// - Title, description, language, canonical, robots and links come from the whole page, as without
//   rules: links feed the crawl frontier, and a rule meant for the indexed text must not stop discovery.
// - Text and headings come from the elements the content selector matches (all of them, in document
//   order), after the dropped elements are removed; they are read by the same extractHtml, so word
//   boundaries and skipped elements agree with the streaming path.
// - A content selector that matches nothing on a page falls back to the whole body (after drops): a
//   page of another shape (an index, an error page) is then still indexed, and `gleaner extract` says so.

import { load } from 'cheerio';
import { GleanerError } from '../shared/errors.js';
import type { RobotsRespect } from '../shared/robots/index.js';
import { extractHtml, type ExtractOptions, type Extracted } from './extract.js';

/** Per-site robots override (CrawlOptions.sites), the robots library's own: re-exported here because a
 * `sites` entry in the config file carries it. */
export type { RobotsRespect };

export interface ExtractRules {
  /** CSS selector of the main content; absent: the whole body. */
  contentSelector?: string;
  /** CSS selectors of elements removed before the text is read (menus, ads, cookie banners). */
  dropSelectors: string[];
}

const RESPECTS: readonly string[] = ['inherit', 'always', 'never'];

/** Throws a one-line BAD_ARGUMENT when `selector` is not a CSS selector cheerio can match. */
export function checkSelector(selector: string, where: string): void {
  if (selector.trim() === '') throw new GleanerError('BAD_ARGUMENT', `${where}: the selector is empty`);
  try {
    load('')(selector);
  } catch (e) {
    throw new GleanerError('BAD_ARGUMENT', `${where}: "${selector}" is not a valid CSS selector (${(e as Error).message})`);
  }
}

/** The origin a `sites` key or a page URL names; undefined for what is not an http(s) URL. */
export function httpOriginOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits a config file's `sites` object into the robots overrides (CrawlOptions.sites) and the extraction
 * rules (CrawlOptions.extractRules), checking every value. `where` starts each error message.
 */
export function parseSitesConfig(value: unknown, where: string): { sites: Record<string, RobotsRespect>; extractRules: Record<string, ExtractRules> } {
  const sites: Record<string, RobotsRespect> = {};
  const extractRules: Record<string, ExtractRules> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GleanerError('BAD_ARGUMENT', `${where}: "sites" must be an object`);
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const at = `${where}: sites["${key}"]`;
    const origin = httpOriginOf(key);
    if (origin === undefined) throw new GleanerError('BAD_ARGUMENT', `${at}: the key must be an http(s) origin, e.g. http://intranet.example`);
    if (typeof entry === 'string') {
      if (!RESPECTS.includes(entry)) throw new GleanerError('BAD_ARGUMENT', `${at} must be inherit, always or never, not "${entry}"`);
      sites[origin] = entry as RobotsRespect;
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new GleanerError('BAD_ARGUMENT', `${at} must be inherit|always|never or an object`);
    const { robots, contentSelector, dropSelectors, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw new GleanerError('BAD_ARGUMENT', `${at}: unknown key "${unknown}" (robots, contentSelector, dropSelectors)`);
    if (robots !== undefined) {
      if (typeof robots !== 'string' || !RESPECTS.includes(robots)) throw new GleanerError('BAD_ARGUMENT', `${at}.robots must be inherit, always or never`);
      sites[origin] = robots as RobotsRespect;
    }
    if (contentSelector !== undefined && typeof contentSelector !== 'string') throw new GleanerError('BAD_ARGUMENT', `${at}.contentSelector must be a string`);
    if (dropSelectors !== undefined && (!Array.isArray(dropSelectors) || !dropSelectors.every((s) => typeof s === 'string'))) {
      throw new GleanerError('BAD_ARGUMENT', `${at}.dropSelectors must be an array of strings`);
    }
    if (contentSelector !== undefined) checkSelector(contentSelector, `${at}.contentSelector`);
    const drops: string[] = dropSelectors ?? [];
    drops.forEach((s, i) => checkSelector(s, `${at}.dropSelectors[${i}]`));
    if (contentSelector !== undefined || drops.length > 0) {
      extractRules[origin] = contentSelector === undefined ? { dropSelectors: drops } : { contentSelector, dropSelectors: drops };
    }
  }
  return { sites, extractRules };
}

/** The rules of the page's origin, undefined when its site has none (the streaming path). */
export function rulesFor(url: string, rules: Readonly<Record<string, ExtractRules>>): ExtractRules | undefined {
  const origin = httpOriginOf(url);
  return origin === undefined ? undefined : rules[origin];
}

export interface RuledExtraction {
  extracted: Extracted;
  /** Elements the content selector matched; undefined without a content selector. 0 means the whole body was used. */
  contentMatches: number | undefined;
  /** Elements the drop selectors removed. */
  dropped: number;
  /** Why the rules were not applied (the whole page's text is used), when they could not be. */
  skipped?: string;
}

/** extractHtml with a site's rules applied to the text and headings (see the decisions above). */
export function extractWithRules(html: string, pageUrl: string, rules: ExtractRules, options: Partial<ExtractOptions> = {}): RuledExtraction {
  const whole = extractHtml(html, pageUrl, options);
  try {
    return applyRules(html, pageUrl, rules, whole, options);
  } catch (e) {
    // cheerio's parser and serializer recurse once per level: 3,000 nested elements overflow the stack
    // (15 KB of <div>). The streaming extractor reads such a page whole; its text is used, unruled.
    if (!(e instanceof RangeError)) throw e;
    return { extracted: whole, contentMatches: undefined, dropped: 0, skipped: `the page nests its elements too deeply for the rules (${e.message}): its whole text is used` };
  }
}

function applyRules(html: string, pageUrl: string, rules: ExtractRules, whole: Extracted, options: Partial<ExtractOptions>): RuledExtraction {
  const $ = load(html);
  let dropped = 0;
  for (const selector of rules.dropSelectors) {
    const found = $(selector);
    dropped += found.length;
    found.remove();
  }
  const matched = rules.contentSelector === undefined ? undefined : $(rules.contentSelector);
  const content = matched !== undefined && matched.length > 0 ? matched : $('body');
  // Each match is its own block, so words of two matches never run together.
  const fragment = content.toArray().map((el) => `<div>${$.html(el)}</div>`).join('');
  const part = extractHtml(`<html><body>${fragment}</body></html>`, pageUrl, options);
  return { extracted: { ...whole, text: part.text, headings: part.headings }, contentMatches: matched?.length, dropped };
}

/** The body input with its site's rules attached, unchanged for a site without rules. */
export function withSiteRules<T extends { url: string; rules?: ExtractRules }>(input: T, rules: Readonly<Record<string, ExtractRules>>): T {
  const found = rulesFor(input.url, rules);
  return found === undefined ? input : { ...input, rules: found };
}
