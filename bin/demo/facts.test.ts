// Checks DEMO_FACTS against the site files themselves, without a crawler: if a page is edited so that a
// fact stops holding, this fails with the fact's name instead of the end-to-end test failing obscurely.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { DEMO_FACTS as F } from './facts.js';
import { demoSiteDir } from './server.js';

const ORIGIN = 'http://demo.test';
const root = demoSiteDir();

interface Link {
  from: string;
  href: string;
  /** Path and query of the resolved target, fragment dropped; undefined for mailto:, javascript: ... */
  target: string | undefined;
  kind: 'a' | 'area' | 'refresh';
  rel: string[];
}

interface Page {
  /** URL path: `/news/` for news/index.html. */
  path: string;
  raw: string;
  $: cheerio.CheerioAPI;
  /** Title, description and body text, lower case: the words a search could find. */
  words: string;
  links: Link[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function urlPathOf(file: string): string {
  const path = '/' + relative(root, file).split(sep).join('/');
  return path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
}

function resolve(href: string, base: string): string | undefined {
  const url = new URL(href, base);
  if (url.origin !== ORIGIN) return undefined;
  return url.pathname + url.search;
}

function loadPage(file: string): Page {
  const path = urlPathOf(file);
  const raw = readFileSync(file, 'utf8');
  const $ = cheerio.load(raw);
  const pageUrl = ORIGIN + path;
  const baseHref = $('base[href]').attr('href');
  const base = baseHref === undefined ? pageUrl : new URL(baseHref, pageUrl).href;
  const links: Link[] = [];
  $('a[href], area[href]').each((_i, el) => {
    const href = $(el).attr('href')!;
    const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ from: path, href, target: resolve(href, base), kind: el.tagName === 'area' ? 'area' : 'a', rel });
  });
  $('meta[http-equiv="refresh"]').each((_i, el) => {
    const href = /url=(.*)$/i.exec($(el).attr('content') ?? '')?.[1]?.trim();
    if (href !== undefined) links.push({ from: path, href, target: resolve(href, base), kind: 'refresh', rel: [] });
  });
  const words = [$('title').text(), $('meta[name="description"]').attr('content') ?? '', $('body').text()].join(' ').toLowerCase();
  return { path, raw, $, words, links };
}

const pages = listFiles(root)
  .filter((f) => f.endsWith('.html'))
  .map(loadPage);
const byPath = new Map(pages.map((p) => [p.path, p]));
const allLinks = pages.flatMap((p) => p.links);
const isPublic = (path: string) => !path.startsWith(F.disallowedPrefix) || path === F.allowedException.path;
const page = (path: string): Page => {
  const p = byPath.get(path);
  if (!p) throw new Error(`no page at ${path}`);
  return p;
};
const pagesWith = (word: string) => pages.filter((p) => p.words.includes(word)).map((p) => p.path);
const linksTo = (path: string) => allLinks.filter((l) => l.target === path);
/** Distinct pages linking to `path`, self-links excluded, as the indexer counts them. */
const inboundPages = (path: string) => new Set(linksTo(path).filter((l) => l.from !== path).map((l) => l.from));
const count = (text: string, word: string) => text.split(word).length - 1;

describe('the demo site', () => {
  it('has 30+ pages, each with a language, a title, a description, one h1 and prose', () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
    for (const p of pages) {
      expect(p.$('html').attr('lang'), p.path).toMatch(/^(en|es|zh|ru)(-|$)/);
      expect(p.$('title').text().trim(), p.path).not.toBe('');
      expect(p.$('meta[name="description"]').attr('content')?.trim(), p.path).toBeTruthy();
      expect(p.$('main h1').length, p.path).toBe(1);
      // Enough prose for ranking to weigh: 80 words, or 200 characters of Chinese (written without spaces).
      const text = p.$('main').text();
      const enough = p.$('html').attr('lang')?.startsWith('zh') ? text.replace(/\s/g, '').length >= 200 : text.split(/\s+/).filter(Boolean).length >= 80;
      expect(enough, p.path).toBe(true);
    }
  });

  it('has at least 3 pages in each of Spanish, Chinese and Russian', () => {
    for (const lang of ['es', 'zh', 'ru']) {
      const inLang = pages.filter((p) => p.$('html').attr('lang')?.split('-')[0] === lang);
      expect(inLang.length, lang).toBeGreaterThanOrEqual(3);
    }
  });

  it('links only to files that exist, except the deliberately broken links', () => {
    const broken = new Set<string>();
    for (const l of allLinks) {
      if (l.target === undefined) continue;
      const path = new URL(l.target, ORIGIN).pathname;
      if (!byPath.has(path)) broken.add(path);
    }
    expect([...broken].sort()).toEqual([...F.deliberateBrokenLinks].sort());
  });

  it('has mailto: and javascript: links that are not site URLs', () => {
    const schemes = allLinks.filter((l) => l.target === undefined).map((l) => l.href.split(':')[0]);
    expect(schemes).toContain('mailto');
    expect(schemes).toContain('javascript');
  });

  it('has a #fragment link', () => {
    expect(allLinks.some((l) => l.href.includes('#') && l.target !== undefined && byPath.has(l.target))).toBe(true);
  });
});

describe('DEMO_FACTS', () => {
  const robots = readFileSync(join(root, 'robots.txt'), 'utf8');
  /** The `*` group's lines (up to the next User-agent line). */
  const starGroup = robots.split(/^User-agent:\s*\*\s*$/m)[1]!.split(/^User-agent:/m)[0]!;

  it('disallowedPrefix: robots.txt disallows it for every agent, and public pages link into it', () => {
    expect(starGroup).toMatch(new RegExp(`^Disallow: ${F.disallowedPrefix}$`, 'm'));
    for (const path of F.disallowedLinkedPaths) {
      expect(path.startsWith(F.disallowedPrefix)).toBe(true);
      expect(page(path).path).toBe(path);
      expect([...inboundPages(path)].filter(isPublic).length, path).toBeGreaterThan(0);
    }
  });

  it('disallowedWord: only on disallowed pages', () => {
    const found = pagesWith(F.disallowedWord);
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) expect(isPublic(path), path).toBe(false);
  });

  it('allowedException: allowed by robots.txt, linked from a public page, its word on no other page', () => {
    expect(F.allowedException.path.startsWith(F.disallowedPrefix)).toBe(true);
    expect(starGroup).toMatch(new RegExp(`^Allow: ${F.allowedException.path.replace(/\./g, '\\.')}$`, 'm'));
    expect([...inboundPages(F.allowedException.path)].filter(isPublic).length).toBeGreaterThan(0);
    expect(pagesWith(F.allowedException.word)).toEqual([F.allowedException.path]);
  });

  it('wildcardBlockedUrls: each matches a wildcard rule of the * group and is linked from a public page', () => {
    const patterns = [...starGroup.matchAll(/^Disallow: (\S*\*\S*)$/gm)].map((m) => m[1]!);
    expect(patterns.length).toBeGreaterThanOrEqual(1);
    // RFC 9309 section 2.2.3: `*` matches any characters, a final `$` anchors the end.
    const toRegExp = (p: string) =>
      new RegExp('^' + p.replace(/\$$/, '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + (p.endsWith('$') ? '$' : ''));
    for (const url of F.wildcardBlockedUrls) {
      expect(patterns.some((p) => toRegExp(p).test(url)), url).toBe(true);
      expect(allLinks.some((l) => l.target === url && isPublic(l.from)), url).toBe(true);
    }
  });

  it('crawlDelayAgent: its group has the Crawl-delay; the * group has none', () => {
    const { agent, delaySeconds } = F.crawlDelayAgent;
    expect(robots).toMatch(new RegExp(`^User-agent: ${agent}\\s*\\nCrawl-delay: ${delaySeconds}$`, 'm'));
    expect(starGroup).not.toMatch(/Crawl-delay/i);
    expect(agent.toLowerCase()).not.toContain('gleaner');
  });

  it('robots.txt names the sitemap with the origin placeholder the server fills in', () => {
    expect(robots).toMatch(/^Sitemap: \{\{origin\}\}\/sitemap\.xml$/m);
  });

  it('noindexPath: carries META robots noindex, is linked, and alone has noindexWord', () => {
    const p = page(F.noindexPath);
    expect(p.$('meta[name="robots"]').attr('content')).toContain('noindex');
    expect(pages.filter((q) => q.$('meta[name="robots"]').attr('content')?.includes('noindex')).map((q) => q.path)).toEqual([F.noindexPath]);
    expect(inboundPages(F.noindexPath).size).toBeGreaterThan(0);
    expect(pagesWith(F.noindexWord)).toEqual([F.noindexPath]);
  });

  it('duplicatePaths: byte-identical and both linked from public pages', () => {
    const [a, b] = F.duplicatePaths;
    expect(page(a).raw).toBe(page(b).raw);
    for (const path of F.duplicatePaths) expect([...inboundPages(path)].filter(isPublic).length, path).toBeGreaterThan(0);
  });

  it('mostLinkedPath has more inbound links than lessLinkedPath', () => {
    const most = [...inboundPages(F.mostLinkedPath)].filter(isPublic).length;
    const less = [...inboundPages(F.lessLinkedPath)].filter(isPublic).length;
    expect(less).toBeGreaterThanOrEqual(1);
    expect(most).toBeGreaterThan(less * 10);
  });

  it('sharedTerm: on those two pages only, as often on each, in neither title, the less linked page shorter', () => {
    expect(pagesWith(F.sharedTerm).sort()).toEqual([F.mostLinkedPath, F.lessLinkedPath].sort());
    const most = page(F.mostLinkedPath);
    const less = page(F.lessLinkedPath);
    expect(count(most.words, F.sharedTerm)).toBe(count(less.words, F.sharedTerm));
    expect(count(most.words, F.sharedTerm)).toBeGreaterThanOrEqual(2);
    for (const p of [most, less]) expect(p.$('title').text().toLowerCase()).not.toContain(F.sharedTerm);
    const wordCount = (p: Page) => p.$('main').text().split(/\s+/).filter(Boolean).length;
    expect(wordCount(less)).toBeLessThanOrEqual(wordCount(most));
  });

  it('nofollowOnly: every link to it is rel=nofollow, and only it has its word', () => {
    const links = linksTo(F.nofollowOnly.path);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.rel, l.from).toContain('nofollow');
    expect(pagesWith(F.nofollowOnly.word)).toEqual([F.nofollowOnly.path]);
  });

  it('areaOnlyPath: reached only through image-map area links', () => {
    const links = linksTo(F.areaOnlyPath);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.kind, l.from).toBe('area');
  });

  it('baseHrefPage: its relative links resolve against <base href>, and would break without it', () => {
    const p = page(F.baseHrefPage);
    expect(p.$('base[href]').length).toBe(1);
    const relativeLinks = p.$('main a[href]').toArray().map((el) => p.$(el).attr('href')!).filter((h) => !h.startsWith('/'));
    expect(relativeLinks.length).toBeGreaterThan(0);
    for (const href of relativeLinks) {
      const ignoringBase = new URL(href, ORIGIN + p.path).pathname;
      expect(byPath.has(ignoringBase), `${href} resolved against the page, not the base`).toBe(false);
    }
    const links = linksTo(F.baseHrefOnlyPath);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.from).toBe(F.baseHrefPage);
  });

  it('refreshStub: a meta refresh to its target, and linked', () => {
    const refresh = page(F.refreshStub.path).links.filter((l) => l.kind === 'refresh');
    expect(refresh.map((l) => l.target)).toEqual([F.refreshStub.target]);
    expect(inboundPages(F.refreshStub.path).size).toBeGreaterThan(0);
  });

  it('trackingLink: linked from a public page, and the bare page exists', () => {
    expect(allLinks.some((l) => l.href === F.trackingLink.href && isPublic(l.from))).toBe(true);
    expect(new URL(F.trackingLink.href, ORIGIN).searchParams.has('utm_source')).toBe(true);
    expect(byPath.has(F.trackingLink.canonicalPath)).toBe(true);
  });

  it('deliberateBrokenLinks: each is linked from a public page', () => {
    for (const path of F.deliberateBrokenLinks) expect(allLinks.some((l) => l.target === path && isPublic(l.from)), path).toBe(true);
  });

  describe.each(Object.entries(F.languageQueries))('languageQueries.%s', (lang, q) => {
    it('its page is public, in that language, and alone has the query stem', () => {
      const p = page(q.path);
      expect(isPublic(q.path)).toBe(true);
      expect(p.$('html').attr('lang')?.split('-')[0]).toBe(lang);
      expect(q.query.startsWith(q.stem)).toBe(true);
      expect(p.words).toContain(q.query);
      expect(pagesWith(q.stem)).toEqual([q.path]);
      expect(inboundPages(q.path).size).toBeGreaterThan(0);
    });
  });
});
