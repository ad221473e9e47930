// Sitemaps (sitemaps.org protocol): what URLs and nested sitemaps a sitemap file lists. Parsing is pure;
// `gunzipIfNeeded` is the one helper that touches zlib. Fetching is sitemaps-fetch.ts's job.
//
// Decisions:
// - A body whose first non-blank character is `<` is XML, read with htmlparser2 in xmlMode (streaming, no
//   DOM): `<loc>` inside `<url>` is a page, inside `<sitemap>` a nested sitemap. Element names are matched
//   without their namespace prefix and case-insensitively, since real sitemaps vary. RSS 2.0 (`item/link`)
//   and Atom (`entry/link[href]`) feeds, which the major engines accept as sitemaps, give pages too.
// - Otherwise the body is a plain-text sitemap: one URL per line.
// - Only absolute http(s) URLs are kept (anything else in a sitemap is an error of the site);
//   canonicalization and the same-origin/scope checks are the caller's. At most maxUrls of each kind are
//   returned (the protocol's own limit is 50,000 per file).
// - Gzip is recognised by its magic bytes, not by the `.gz` name or the Content-Type (servers disagree
//   about both), and inflated to at most maxBytes (the protocol's 50 MB) so a small bomb cannot fill memory.
//   What lies past maxBytes is not read, as a plain sitemap past the body cap is not: the URLs before it
//   are kept (a 57 MB sitemap of a million URLs lost all of them when passing the cap was an error).
// - Nested sitemaps are read maxNesting levels below the ones robots.txt lists, and at most
//   maxFilesPerHost per host: a generated index whose children name new children (or each other) would
//   otherwise keep a host's queue busy with sitemaps, pages never asked (seen on a hostile server: 5,760
//   sitemap files in 10 minutes of a crawl told to stop at 300 pages).

import { Parser } from 'htmlparser2';
import { createGunzip } from 'node:zlib';
import type { FrontierEntry } from '../shared/store/index.js';
import { originOf } from '../shared/url.js';

/** Defaults: DEFAULT_SITEMAP_OPTIONS below. */
export interface SitemapOptions {
  /** URLs (and, separately, nested sitemaps) kept per file. */
  maxUrls: number;
  /** Largest inflated size of a gzipped sitemap. */
  maxBytes: number;
  /** Levels of nested sitemaps read below those robots.txt lists (or /sitemap.xml): 1 is the protocol's
   * index and its sitemaps; deeper ones are dropped with a log line. */
  maxNesting: number;
  /** Sitemap files one host's crawl (one run) reads at most, robots.txt's own included. */
  maxFilesPerHost: number;
}

export const DEFAULT_SITEMAP_OPTIONS: SitemapOptions = {
  // The sitemaps.org protocol's own limits per file.
  maxUrls: 50_000,
  maxBytes: 50 * 1024 * 1024,
  // The protocol forbids an index listing indexes; one more level forgives sites that do it anyway.
  maxNesting: 2,
  // 1,000 files of 50,000 URLs each is 50 million pages, far past any crawl one machine makes.
  maxFilesPerHost: 1_000,
};


export interface SitemapEntries {
  urls: string[];
  sitemaps: string[];
}

function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

/** The page URLs and nested sitemap URLs a sitemap (XML urlset, sitemapindex, feed or plain text) lists. */
export function parseSitemap(body: string, options: Partial<SitemapOptions> = {}): SitemapEntries {
  const { maxUrls } = { ...DEFAULT_SITEMAP_OPTIONS, ...options };
  const urls: string[] = [];
  const sitemaps: string[] = [];
  const add = (list: string[], raw: string): void => {
    const url = raw.trim();
    if (list.length < maxUrls && isHttpUrl(url)) list.push(url);
  };

  const text = body.replace(/^\ufeff/, '');
  if (!text.trimStart().startsWith('<')) {
    // Line by line without splitting (49 MB of newlines split into 49 million strings: 1 GB, 7 s), and
    // no further once as many lines as a sitemap may list were not URLs: this is no sitemap.
    const line = /[^\s][^\r\n]*/g;
    let rejected = 0;
    for (let m = line.exec(text); m !== null && urls.length < maxUrls && rejected < maxUrls; m = line.exec(text)) {
      const before = urls.length;
      add(urls, m[0]);
      if (urls.length === before) rejected++;
    }
    return { urls, sitemaps };
  }

  // The element whose text we are collecting (loc, or an RSS link) and which list it goes to.
  const stack: string[] = [];
  let buf: string[] | undefined;
  let target: string[] | undefined;
  const parser = new Parser(
    {
      onopentag(rawName, attribs) {
        const name = localName(rawName);
        const parent = stack[stack.length - 1];
        stack.push(name);
        if (stack.length > MAX_XML_DEPTH) {
          // A sitemap nests 3 levels, a feed a few more; htmlparser2's tag stack costs quadratic time
          // in depth (a 49 MB gzip-inflated nest held the main thread, and Ctrl-C, for 13 minutes).
          // What was read so far is kept.
          parser.pause();
          return;
        }
        if (name === 'loc' && (parent === 'url' || parent === 'sitemap')) {
          buf = [];
          target = parent === 'url' ? urls : sitemaps;
        } else if (name === 'link' && parent === 'item') {
          buf = [];
          target = urls;
        } else if (name === 'link' && parent === 'entry' && attribs.href !== undefined) {
          const rel = attribs.rel ?? 'alternate';
          if (rel === 'alternate') add(urls, attribs.href);
        }
      },
      ontext(data) {
        buf?.push(data);
      },
      onclosetag() {
        stack.pop();
        if (buf !== undefined && target !== undefined) {
          add(target, buf.join(''));
          buf = undefined;
          target = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return { urls, sitemaps };
}

/** Elements deeper than this end a sitemap's reading. */
const MAX_XML_DEPTH = 64;

/** Whether the bytes start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Inflates gzip data (recognised by its magic bytes); other bytes come back unchanged. Inflates at most
 * maxBytes and reads no further; gzip that breaks off or goes corrupt gives what it inflated before (a
 * download cut short reads as far as it goes). Rejects only when nothing at all inflates. */
export function gunzipIfNeeded(bytes: Uint8Array, options: Partial<Pick<SitemapOptions, 'maxBytes'>> = {}): Promise<Uint8Array> {
  if (!isGzip(bytes)) return Promise.resolve(bytes);
  const maxBytes = options.maxBytes ?? DEFAULT_SITEMAP_OPTIONS.maxBytes;
  return new Promise((resolve, reject) => {
    const inflate = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      const out = Buffer.concat(chunks, Math.min(size, maxBytes));
      resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
    };
    inflate.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) finish();
    });
    inflate.on('end', finish);
    inflate.on('error', (e) => {
      if (size > 0) finish();
      else if (!settled) {
        settled = true;
        reject(e);
      }
    });
    inflate.end(bytes);
  });
}

/** A URL in the crawl's canonical form, or undefined when it is no http(s) URL. */
type Canonicalize = (url: string) => string | undefined;

/**
 * The sitemap files to queue for `origin` once its robots.txt is read: those robots.txt lists and
 * /sitemap.xml, canonical, and only of this origin (a sitemap speaks for its own site only).
 */
export function originSitemaps(origin: string, listed: readonly string[], canonicalize: Canonicalize): FrontierEntry[] {
  const entries: FrontierEntry[] = [];
  for (const url of new Set([...listed, `${origin}/sitemap.xml`])) {
    const canonical = canonicalize(url);
    if (canonical && originOf(canonical) === origin) entries.push({ url: canonical, depth: 0, via: 'sitemap', sitemap: true });
  }
  return entries;
}

/** Where a sitemap that answered with a redirect is asked next: the target as a sitemap at the same
 * depth, canonical, when it is on the same host name (the scheme and port may change, as http to https
 * does); undefined otherwise. */
export function sitemapMovedTo(movedTo: string | undefined, from: Pick<FrontierEntry, 'url' | 'depth'>, canonicalize: Canonicalize): FrontierEntry | undefined {
  if (movedTo === undefined) return undefined;
  const c = canonicalize(movedTo);
  if (c === undefined || c === from.url || new URL(c).hostname !== new URL(from.url).hostname) return undefined;
  return { url: c, depth: from.depth, via: 'sitemap', sitemap: true };
}

/**
 * What one read sitemap file (`from`, of `origin`) leads to: its nested sitemaps of the same origin, one
 * level deeper (a sitemap's depth counts nesting; none past `maxNesting`, at most `sitemapsLeft`), and its
 * page URLs at depth 1 with the sitemap as referrer, all canonical. Scope and traps are the caller's;
 * `dropped` counts the nested sitemaps the limits left unread.
 */
export function sitemapFollowUps(
  found: Pick<SitemapEntries, 'urls' | 'sitemaps'>,
  from: Pick<FrontierEntry, 'url' | 'depth'>,
  origin: string,
  canonicalize: Canonicalize,
  limits: { maxNesting: number; sitemapsLeft: number } = { maxNesting: DEFAULT_SITEMAP_OPTIONS.maxNesting, sitemapsLeft: Infinity },
): { sitemaps: FrontierEntry[]; pages: FrontierEntry[]; dropped: number } {
  const sitemaps: FrontierEntry[] = [];
  let dropped = 0;
  const room = from.depth < limits.maxNesting ? Math.max(0, limits.sitemapsLeft) : 0;
  for (const url of found.sitemaps) {
    const c = canonicalize(url);
    if (!c || originOf(c) !== origin) continue;
    if (sitemaps.length < room) sitemaps.push({ url: c, depth: from.depth + 1, via: 'sitemap', sitemap: true });
    else dropped++;
  }
  const pages: FrontierEntry[] = [];
  for (const url of found.urls) {
    const c = canonicalize(url);
    if (c) pages.push({ url: c, depth: 1, via: 'sitemap', referrer: from.url });
  }
  return { sitemaps, pages, dropped };
}
