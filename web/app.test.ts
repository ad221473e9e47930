// Every route of the gateway through createApp, on a random loopback port, over a real index: pages
// written to a real LevelDB store, indexed by the real indexer, searched by the real engine.

import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchEngine, type SearchEngine, type GleanerSearchEngine } from './search/index.js';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { GUIDE_COUNT, HOSTILE_URL, HOSTILE_WORD, HUB_URL, gatewayPages } from '../test/support/web-corpus.js';
import { createApp, type AppDeps } from './app.js';
import { WEB_DEFAULTS } from './defaults.js';
import { listen, type RunningServer } from './server.js';
import { indexStats } from './stats.js';
import { GleanerError } from '../shared/errors.js';

let fixture: FixtureDir;
let engine: GleanerSearchEngine;
let server: RunningServer;
let base: string;

const CRAWL = {
  startedAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:05:00.000Z',
  seeds: ['http://intranet.test/'],
  pagesByState: { ok: 31, gone: 2 },
  pagesByStatus: { '200': 31, '404': 2 },
  hosts: 2,
  requests: 40,
  bytes: 123_456,
  errors: 1,
  blockedByRule: { 'http://intranet.test line 2: Disallow: /internal/': 7 },
  trapsCut: { 'calendar pattern': 3 },
  duplicates: 4,
  outOfScope: 5,
};

async function start(deps: AppDeps): Promise<RunningServer> {
  return listen(createApp(deps), '127.0.0.1', 0);
}

beforeAll(async () => {
  fixture = await buildFixtureIndex(gatewayPages(), CRAWL);
  engine = await openSearchEngine(fixture.dataDir);
  server = await start({ engine, stats: indexStats(engine) });
  base = server.url.replace(/\/$/, '');
});

afterAll(async () => {
  await server.close();
  engine.close();
  await fixture.cleanup();
});

const get = (path: string, init?: RequestInit) => fetch(base + path, { redirect: 'manual', ...init });
const html = async (path: string) => {
  const res = await get(path);
  return { res, body: await res.text() };
};
const api = async (path: string) => {
  const res = await get(path);
  return { res, json: (await res.json()) as Record<string, unknown> };
};
/** Text of every match of a pattern's first group. */
const all = (body: string, re: RegExp) => [...body.matchAll(re)].map((m) => m[1]!);

/** Everything the server sends back for raw bytes written to a fresh connection, until it closes. */
const rawExchange = (s: RunningServer, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1', () => socket.write(bytes));
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
/** The first HTTP/1.1 answer in `raw` (its body by Content-Length), and what follows it. */
function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: string; rest: string } {
  const headEnd = raw.indexOf('\r\n\r\n');
  expect(headEnd, raw.slice(0, 200)).toBeGreaterThan(0);
  const [statusLine, ...lines] = raw.slice(0, headEnd).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? raw.length - headEnd - 4);
  const bodyStart = headEnd + 4;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]), headers, body: Buffer.from(raw.slice(bodyStart, bodyStart + length), 'latin1').toString('utf8'), rest: raw.slice(bodyStart + length) };
}

describe('security headers and markup on every page', () => {
  for (const path of ['/', '/search?q=crawler', '/about', '/stats', '/robots', '/no-such-page']) {
    it(`${path}: CSP without inline code, nosniff, no-referrer, and no inline script`, async () => {
      const { res, body } = await html(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-powered-by')).toBeNull();
      // Every script element loads a file; none carries code, and no element has an event handler.
      expect(all(body, /<script([^>]*)>/g).every((attrs) => /\ssrc="\/static\//.test(attrs))).toBe(true);
      expect(body).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
      expect(body).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
      expect(body).not.toMatch(/\sstyle="/);
    });
  }
});

describe('GET /', () => {
  it('shows a labelled search form and the index size', async () => {
    const { res, body } = await html('/');
    expect(res.status).toBe(200);
    expect(body).toMatch(/<form class="search" role="search" action="\/search" method="get">/);
    expect(body).toMatch(/<label for="q"[^>]*>Search<\/label>/);
    expect(body).toContain(`Searching ${engine.summary().documents} pages`);
  });
});

describe('GET /search', () => {
  it('lists ten results with title links, URLs and highlighted snippets, in the API\'s order', async () => {
    const { res, body } = await html('/search?q=crawler');
    const { json } = await api('/api/search?q=crawler');
    expect(res.status).toBe(200);
    const total = json.total as number;
    expect(total).toBeGreaterThan(20);
    expect(body).toContain(`${total} results, page 1 of ${Math.ceil(total / 10)}`);
    const hrefs = all(body, /<h2 class="title"[^>]*><a href="([^"]+)"/g);
    expect(hrefs).toHaveLength(10);
    const apiUrls = (json.results as { url: string }[]).map((r) => r.url.replace(/&/g, '&amp;'));
    expect(hrefs).toEqual(apiUrls);
    const marks = all(body, /<mark>([^<]*)<\/mark>/g);
    expect(marks.length).toBeGreaterThanOrEqual(10);
    expect(marks.every((m) => /^crawl/i.test(m))).toBe(true);
    expect(body).toMatch(/<cite class="url"[^>]*>http:\/\/[^<]+<\/cite>/);
  });

  it('keeps a query\'s bidirectional controls out of the title and isolates the query where the page repeats it', async () => {
    // U+202E (right-to-left override) would show the rest of the tab's title reversed.
    const { body } = await html(`/search?q=${encodeURIComponent('\u202ecrawler  robots')}`);
    const title = /<title>([^<]*)<\/title>/.exec(body)?.[1];
    expect(title).toBe('crawler  robots · Gleaner');
    expect(body).toMatch(/Showing results for <strong class="q"><bdi>[^<]*crawler robots<\/bdi><\/strong>/);
    const none = await html(`/search?q=${encodeURIComponent('zzqxv \u202eabc')}`);
    expect(none.body).toMatch(/No pages match <bdi class="q">/);
  });

  it('paginates: Next leads to page 2, the last page has the rest and no Next', async () => {
    const first = await html('/search?q=crawler');
    expect(first.body).toMatch(/<a rel="next" href="\/search\?q=crawler&amp;page=2">Next<\/a>/);
    expect(first.body).toMatch(/<a aria-current="page" href="\/search\?q=crawler" aria-label="Page 1">1<\/a>/);
    const { json } = await api('/api/search?q=crawler');
    const total = json.total as number;
    const lastPage = Math.ceil(total / 10);
    const last = await html(`/search?q=crawler&page=${lastPage}`);
    expect(all(last.body, /<li class="result"/g)).toHaveLength(total - (lastPage - 1) * 10);
    expect(last.body).not.toContain('rel="next"');
    // Every page link is named as a page, the current one too (a screen reader said only "1, current page").
    const numbered = [...last.body.matchAll(/<a ((?:aria-current="page" )?href="\/search\?q=crawler(?:&amp;page=\d+)?"[^>]*)>(\d+)<\/a>/g)];
    expect(numbered.length).toBeGreaterThan(1);
    for (const [, attrs, n] of numbered) expect(attrs).toContain(`aria-label="Page ${n}"`);
    // Its title says which page it is: two pages of one query were two tabs of one name.
    expect(/<title>([^<]*)<\/title>/.exec(last.body)?.[1]).toBe(`crawler, page ${lastPage} · Gleaner`);
    expect(/<title>([^<]*)<\/title>/.exec(first.body)?.[1]).toBe('crawler · Gleaner');
    expect(last.body).toContain(`rel="prev" href="/search?q=crawler&amp;page=${lastPage - 1}"`);
    expect(last.body).toContain(`<ol class="results" start="${(lastPage - 1) * 10 + 1}">`);
    const pageUrls = new Set([...all(first.body, /<h2 class="title"[^>]*><a href="([^"]+)"/g)]);
    for (const url of all(last.body, /<h2 class="title"[^>]*><a href="([^"]+)"/g)) expect(pageUrls.has(url)).toBe(false);
  });

  it('shows "why this result" per hit: text score by word and field, links, and the formula that ranks', async () => {
    const { body } = await html('/search?q=handbook');
    const first = body.slice(body.indexOf('<li class="result"'), body.indexOf('</details>'));
    expect(first).toMatch(/<details class="why">\s*<summary>Why this result<\/summary>/);
    expect(first).toContain('Text relevance (BM25F)');
    expect(first).toMatch(/Inbound links<\/dt><dd>\d+ linking pages?</);
    // The demo store has block boundaries: links from page content and from the site template apart.
    expect(first).toMatch(/From page content<\/dt><dd>\d+ linking pages?; \d+ from site navigation</);
    expect(first).toMatch(/Link boost<\/dt><dd>[\d.]+ = 1 \+ 0\.02 × ln\(1 \+ \d+\) \+ 0\.02 × ln\(1 \+ \d+\)</);
    // The handbook's text opens with the word (web/search/lead.ts): a third factor, and the line that says why.
    expect(first).toMatch(/Words in its opening<\/dt><dd>× 1\.1: 1 of the query's 1 word stands in the first words of its text/);
    expect(first).toMatch(/Final score<\/dt><dd>[\d.]+ = [\d.]+ × [\d.]+ × 1\.1</);
    // Nothing shown that the score does not use.
    expect(first).not.toContain('PageRank');
    expect(first).not.toMatch(/host/i);
    expect(first).toMatch(/<tr><td>handbook<\/td><td>(title|body|headings|url|anchor)<\/td>/);
  });

  it('the most-linked page shows its inbound links', async () => {
    const { json } = await api('/api/search?q=handbook&explain=1');
    const hub = (json.results as { url: string; explain: { inboundLinks: number } }[]).find((r) => r.url === HUB_URL);
    expect(hub?.explain.inboundLinks).toBe(GUIDE_COUNT + 1);
  });

  it('escapes a hostile page: payloads appear as text, never as markup', async () => {
    const { body } = await html(`/search?q=${HOSTILE_WORD}`);
    expect(body).toContain('&lt;script&gt;window.__xss');
    expect(body).toContain('&lt;img src=x onerror=');
    expect(body).not.toContain('<script>window');
    expect(body).not.toMatch(/<img/i);
    expect(body).toContain(`<mark>${HOSTILE_WORD}</mark>`);
    expect(body).toContain(`href="${HOSTILE_URL.replace(/&/g, '&amp;')}"`);
  });

  it('says what it understood and what it ignored', async () => {
    const { body } = await html('/search?q=' + encodeURIComponent('OR crawler - OR'));
    expect(body).toMatch(/Showing results for <strong class="q"><bdi>crawler<\/bdi><\/strong>/);
    expect(body).toContain('<li>&#34;OR&#34; at the start</li>');
    expect(body).toContain('<li>a &#34;-&#34; with no word after it</li>');
  });

  it('reads control characters in a query as spaces, never echoing them into the page', async () => {
    const { res, body } = await html('/search?q=' + encodeURIComponent('crawler\u0000handbook\u001b[2J'));
    expect(res.status).toBe(200);
    expect(body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    expect(body).toContain('value="crawler handbook [2J"');
  });

  it('the trace page\'s command quotes the URL for the shell: a crawled URL\'s $(...) or ; is never code', async () => {
    const url = 'http://intranet.test/x;id?a=$(touch%20/tmp/p)&b=`id`';
    const { body } = await html(`/trace?url=${encodeURIComponent(url)}&q=${encodeURIComponent("it's")}`);
    const run = /<dd>(gleaner trace [^<]*)/.exec(body.replace(/&#39;/g, "'").replace(/&amp;/g, '&'))?.[1];
    expect(run).toBe(`gleaner trace '${url}' --query 'it'\\''s'`);
  });

  it('cuts very long input and says so', async () => {
    const { res, body } = await html('/search?q=' + 'crawler%20'.repeat(200));
    expect(res.status).toBe(200);
    expect(body).toContain(`input cut at ${WEB_DEFAULTS.maxQueryChars} characters`);
  });

  it('echoes only the part of a long query the parser read: in the box, the paging and the trace links', async () => {
    // The parser reads the first maxQueryChars; the tail after them must not be copied into the page.
    const head = 'crawler' + ' '.repeat(WEB_DEFAULTS.maxQueryChars);
    const { res, body } = await html('/search?q=' + encodeURIComponent(head + 'tail'.repeat(3000)));
    expect(res.status).toBe(200);
    expect(body).toMatch(/<a rel="next" href="\/search\?q=crawler/);
    expect(body).toContain('/trace?url=');
    expect(body).not.toContain('tailtail');
    // Each echo is at most the capped text (as an href, 3 characters each): the page stays small.
    expect(body.length).toBeLessThan(80_000);
    const api = (await (await get('/api/search?q=' + encodeURIComponent(head + 'tail'.repeat(3000)))).json()) as { query: string };
    expect(api.query).toBe(Array.from(head).slice(0, WEB_DEFAULTS.maxQueryChars).join(''));
  });

  it('a typo that matches nothing: the correction is searched at once, with a link to the query as typed', async () => {
    const { body } = await html('/search?q=handbok');
    expect(body).toMatch(
      /Showing results for <a href="\/search\?q=handbook"><strong class="q"><bdi>handbook<\/bdi><\/strong><\/a>; search instead for <a class="literal" href="\/search\?q=handbok&amp;literal=1"><bdi>handbok<\/bdi><\/a>/,
    );
    expect(body).toContain('href="http://intranet.test/handbook"');
    expect(body).not.toContain('Did you mean');
  });

  it('literal=1 searches the query as typed and offers the correction as "did you mean"', async () => {
    const { body } = await html('/search?q=handbok&literal=1');
    expect(body).toMatch(/Did you mean <a href="\/search\?q=handbook"><bdi>handbook<\/bdi><\/a>\?/);
    expect(body).toContain('No pages match');
    expect(body).not.toContain('search instead for');
  });

  it('few every-word matches: partial matches follow, each saying which words it lacks', async () => {
    const { body } = await html('/search?q=' + encodeURIComponent('robots canteen'));
    expect(body).toContain('Few pages have every word of the query');
    const urls = all(body, /<cite class="url" lang="en">([^<]*)<\/cite>/g);
    expect(urls[0]).toBe('http://intranet.test/handbook');
    const missing = all(body, /<p class="missing">Missing: ([^\n]*)<\/p>/g);
    expect(missing).toContain('<s><bdi>canteen</bdi></s>');
    expect(urls).toContain('http://intranet.test/robots-explained');
  });

  it('NOT is listed as ignored', async () => {
    const { body } = await html('/search?q=' + encodeURIComponent('crawler NOT robots'));
    expect(body).toContain('<li>&#34;NOT&#34; (to leave out pages with a word, write -word)</li>');
  });

  it('lang: says how many pages it leaves out for want of a known language', async () => {
    const { body } = await html('/search?q=' + encodeURIComponent('biblioteca lang:es'));
    expect(body).toContain('1 page of the index has no known language (none declared, and the text too short or mixed to tell); lang: leaves it out.');
    expect(body).toContain('href="http://intranet.test/es/biblioteca"');
    expect((await html('/search?q=biblioteca')).body).not.toContain('no known language');
  });

  it('site:host:port keeps the port in what it understood', async () => {
    const { body } = await html('/search?q=' + encodeURIComponent('crawler site:http://intranet.test:8080/guide/'));
    expect(body).toMatch(/Showing results for <strong class="q"><bdi>crawler site:intranet.test:8080<\/bdi><\/strong>/);
    expect(body).toContain('No pages match');
  });

  it('a query without results gets a helpful page with loosened queries', async () => {
    const { res, body } = await html('/search?q=' + encodeURIComponent('"crawler zebra" site:docs.test'));
    expect(res.status).toBe(200);
    expect(body).toContain('No pages match');
    expect(body).toContain('without the site: and lang: filters');
    expect(body).toContain('href="/search?q=%22crawler%20zebra%22"');
    expect(body).toContain('Check the spelling');
  });

  it('never shows a noindex page', async () => {
    const { body } = await html('/search?q=zanzibarsecret');
    expect(body).toContain('0 results');
    expect(body).not.toContain('/secret"');
  });

  it('finds pages in Spanish, Chinese and Russian', async () => {
    for (const [q, url] of [['biblioteca', '/es/biblioteca'], ['图书馆', '/zh/library'], ['библиотека', '/ru/library']] as const) {
      const { body } = await html('/search?q=' + encodeURIComponent(q));
      expect(body).toContain(`href="http://intranet.test${url}"`);
    }
  });

  it('a query with only exclusions asks for a word instead of searching', async () => {
    const { body } = await html('/search?q=-crawler');
    expect(body).toContain('Nothing to search for');
  });

  it('an empty query goes back to the form; bad page numbers are 400, pages past the end 404', async () => {
    const empty = await get('/search?q=%20');
    expect(empty.status).toBe(303);
    expect(empty.headers.get('location')).toBe('/');
    for (const page of ['0', 'abc', '-1', '1e3', String(WEB_DEFAULTS.maxPage + 1)]) {
      const { res, body } = await html(`/search?q=crawler&page=${page}`);
      expect(res.status).toBe(400);
      expect(body).toContain('page must be a whole number');
    }
    const past = await html('/search?q=crawler&page=50');
    expect(past.res.status).toBe(404);
    expect(past.body).toMatch(/this search has \d+ pages of results, not 50/);
  });

  it('a repeated q parameter uses the first', async () => {
    const { body } = await html('/search?q=biblioteca&q=crawler');
    expect(body).toContain('value="biblioteca"');
  });
});

describe('GET /api/search', () => {
  it('answers the documented shape, results in rank order with absolute URLs', async () => {
    const { res, json } = await api('/api/search?q=crawler&page=2&size=5&explain=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json).toMatchObject({ query: 'crawler', understood: 'crawler', page: 2 });
    const results = json.results as { url: string; title: string; snippet: string; score: number; explain: { score: number; textScore: number } }[];
    expect(results).toHaveLength(5);
    for (const r of results) {
      expect(new URL(r.url).protocol).toBe('http:');
      expect(typeof r.title).toBe('string');
      expect(typeof r.snippet).toBe('string');
      expect(r.explain.score).toBe(r.score);
    }
    for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
    const page1 = await api('/api/search?q=crawler&size=5');
    const lastOfPage1 = (page1.json.results as { score: number }[])[4]!.score;
    expect(results[0]!.score).toBeLessThanOrEqual(lastOfPage1);
  });

  it('explains each result only when asked (explain=1): explanations are most of an answer', async () => {
    const plain = (await api('/api/search?q=crawler')).json.results as { url: string; explain?: unknown }[];
    const explained = (await api('/api/search?q=crawler&explain=1')).json.results as { url: string; explain?: { score: number } }[];
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.map((r) => r.url)).toEqual(explained.map((r) => r.url));
    for (const r of plain) expect(r).not.toHaveProperty('explain');
    for (const r of explained) expect(typeof r.explain?.score).toBe('number');
  });

  it('gives its figures to six significant digits, the score the same in the hit and its explanation', async () => {
    const { json } = await api('/api/search?q=crawler&explain=1');
    const results = json.results as { score: number; explain: { score: number; textScore: number; terms: { contribution: number }[] } }[];
    expect(results.length).toBeGreaterThan(0);
    const digits = (x: number) => x.toExponential().split('e')[0]!.replace(/[-.]/g, '').length;
    for (const r of results) {
      expect(r.explain.score).toBe(r.score);
      for (const x of [r.score, r.explain.textScore, ...r.explain.terms.map((t) => t.contribution)]) expect(digits(x)).toBeLessThanOrEqual(6);
    }
  });

  it('reports understood and ignored parts, and did-you-mean when searched literally', async () => {
    const { json } = await api('/api/search?literal=1&q=' + encodeURIComponent('handbok OR'));
    expect(json.understood).toBe('handbok');
    expect(json.ignored).toEqual(['"OR" at the end']);
    expect(json.didYouMean).toBe('handbook');
    expect(json.total).toBe(0);
  });

  it('a typo that matches nothing is corrected at once: correctedFrom says what was typed', async () => {
    const { json } = await api('/api/search?q=' + encodeURIComponent('handbok NOT'));
    expect(json).toMatchObject({ understood: 'handbook', correctedFrom: 'handbok NOT', ignored: ['"NOT" (to leave out pages with a word, write -word)'] });
    expect(json.didYouMean).toBeUndefined();
    expect((json.results as { url: string }[])[0]!.url).toBe('http://intranet.test/handbook');
  });

  it('as you type (complete=1), a last word that starts a word is searched completed: completedFrom says what was typed', async () => {
    const typed = await api('/api/search?complete=1&q=' + encodeURIComponent('northwind hand'));
    expect(typed.json).toMatchObject({ understood: 'northwind handbook', completedFrom: 'northwind hand' });
    expect((typed.json.results as { url: string }[])[0]!.url).toBe('http://intranet.test/handbook');
    // Sent whole, or with the word finished by a space, the words are searched as typed.
    for (const q of ['/api/search?q=northwind%20hand', '/api/search?complete=1&q=northwind%20hand%20']) {
      const { json } = await api(q);
      expect(json.completedFrom).toBeUndefined();
      expect(json.understood).toBe('northwind hand');
    }
    // A query with every-word matches as typed is not completed.
    expect((await api('/api/search?complete=1&q=handbook')).json.completedFrom).toBeUndefined();
  });

  it('partial matches carry the words they lack, after every full match', async () => {
    const { json } = await api('/api/search?q=' + encodeURIComponent('robots canteen'));
    const results = json.results as { url: string; missing?: string[] }[];
    expect(json.total).toBe(1);
    expect(results[0]).not.toHaveProperty('missing');
    expect(results.length).toBeGreaterThan(1);
    for (const r of results.slice(1)) expect(r.missing!.length).toBe(1);
    expect(results.find((r) => r.url === 'http://intranet.test/robots-explained')?.missing).toEqual(['canteen']);
  });

  it('errors are JSON with a message and a proper status', async () => {
    const cases: [string, number, RegExp][] = [
      ['/api/search', 400, /q is required/],
      ['/api/search?q=crawler&size=1000', 400, /size must be a whole number from 1 to 50/],
      ['/api/search?q=crawler&page=x', 400, /page must be/],
      ['/api/search?q=crawler&page=99', 404, /this search has \d+ pages? of results/],
      ['/api/nothing-here', 404, /no page at \/api\/nothing-here/],
    ];
    for (const [path, status, message] of cases) {
      const { res, json } = await api(path);
      expect(res.status).toBe(status);
      const error = json.error as { status: number; message: string };
      expect(error.status).toBe(status);
      expect(error.message).toMatch(message);
    }
  });
});

describe('the page typeahead is loaded by the pages with the search box', () => {
  it('starts loading on /, /search and /embed.js, not on the JSON API, and /api/suggest then offers pages', async () => {
    // An engine of its own, so the shared one's typeahead (loaded by other tests) does not answer.
    const own = await openSearchEngine(fixture.dataDir);
    const asked: string[] = [];
    const watched = new Proxy(own, {
      get(target, key, receiver) {
        if (key === 'pagesReady') {
          return () => {
            asked.push('pagesReady');
            return target.pagesReady();
          };
        }
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const app = await start({ engine: watched, stats: indexStats(own) });
    try {
      const at = app.url.replace(/\/$/, '');
      expect((await fetch(`${at}/api/search?q=crawler`)).status).toBe(200);
      expect(asked).toEqual([]);
      expect((await fetch(`${at}/`)).status).toBe(200);
      expect(asked).toEqual(['pagesReady']);
      expect((await fetch(`${at}/search?q=crawler`)).status).toBe(200);
      expect(asked).toHaveLength(2);
      expect((await fetch(`${at}/embed.js`)).status).toBe(200);
      expect(asked).toHaveLength(3);
      // Once loaded, the box offers pages.
      await own.pagesReady();
      const json = (await (await fetch(`${at}/api/suggest?q=${encodeURIComponent('northwind hand')}`)).json()) as { pages: unknown };
      expect(json.pages).toEqual([{ title: 'Northwind handbook', url: 'http://intranet.test/handbook' }]);
    } finally {
      await app.close();
      own.close();
    }
  });
});

describe('GET /api/suggest', () => {
  it('completes the last word from the index vocabulary, keeping the words before it', async () => {
    const { json } = await api('/api/suggest?q=cra');
    const suggestions = json.suggestions as string[];
    expect(suggestions).toContain('crawler');
    expect(suggestions.every((s) => s.startsWith('cra'))).toBe(true);
    const two = await api('/api/suggest?q=' + encodeURIComponent('robots hand'));
    expect(two.json.suggestions).toContain('robots handbook');
  });

  it('offers the pages whose title matches what is typed, the last word as a prefix', async () => {
    const { json } = await api('/api/suggest?q=' + encodeURIComponent('northwind hand'));
    expect(json.pages).toEqual([{ title: 'Northwind handbook', url: 'http://intranet.test/handbook' }]);
    expect((await api('/api/suggest?q=crawler%20api%20ref')).json.pages).toEqual([{ title: 'Crawler API reference', url: 'http://docs.test/crawler-api' }]);
    expect((await api('/api/suggest?q=')).json.pages).toEqual([]);
  });

  it('gives nothing for an empty or finished word, and OpenSearch format on request', async () => {
    expect((await api('/api/suggest?q=')).json.suggestions).toEqual([]);
    expect((await api('/api/suggest?q=crawler%20')).json.suggestions).toEqual([]);
    const res = await get('/api/suggest?q=hand&format=opensearch');
    expect(res.headers.get('content-type')).toMatch(/^application\/x-suggestions\+json/);
    const [query, list] = (await res.json()) as [string, string[]];
    expect(query).toBe('hand');
    expect(list).toContain('handbook');
  });
});

describe('GET /stats, /about, /opensearch.xml, /healthz', () => {
  it('/stats shows index figures, crawl counters and the most-linked pages', async () => {
    const { res, body } = await html('/stats');
    expect(res.status).toBe(200);
    expect(body).toContain(`<dt>Pages searchable</dt><dd>${engine.summary().documents}</dd>`);
    expect(body).toContain('http://intranet.test line 2: Disallow: /internal/');
    expect(body).toContain('calendar pattern');
    expect(body).toMatch(/<td>404<\/td><td class="num">2<\/td>/);
    expect(body).toContain('Northwind handbook');
    expect(body).toMatch(/<td>noindex<\/td><td class="num">1<\/td>/);
    const { json } = await api('/api/stats');
    expect((json.index as { documents: number }).documents).toBe(engine.summary().documents);
  });

  it('/about names the stages as the code does', async () => {
    const { body } = await html('/about');
    for (const stage of ['crawler/', 'shared/store/', 'indexer/', 'web/query/', 'web/search/', 'shared/robots/']) expect(body).toContain(stage);
    for (const fn of ['crawl()', 'buildIndex()', 'parseQuery()', 'openSearchEngine()', 'createApp()']) expect(body).toContain(`<code>${fn}</code>`);
  });

  it('/about shows the formula that ranks, with the weights in use, and nothing that does not rank', async () => {
    const { body } = await html('/about');
    // The boost an index with template links ranks with (linkBoost, "why this result"): a page's inbound links
    // counted apart by where the linking page has them, not ln(1 + every linking page).
    expect(body).toContain('score = text score × (1 + 0.02 × ln(1 + pages linking from their text) + 0.02 × ln(1 + pages linking from their template))');
    expect(body).toMatch(/title 3, headings 1\.5, body 1, url 1, anchor 1\.5/);
    expect(body).not.toContain('PageRank');
  });

  it('/opensearch.xml describes search and suggestions at this server', async () => {
    const res = await get('/opensearch.xml');
    expect(res.headers.get('content-type')).toMatch(/^application\/opensearchdescription\+xml/);
    const body = await res.text();
    expect(body).toContain(`template="${base}/search?q={searchTerms}"`);
    expect(body).toContain(`template="${base}/api/suggest?format=opensearch&amp;q={searchTerms}"`);
  });

  it('/opensearch.xml never echoes a forged Host header', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(base + '/opensearch.xml', { headers: { host: 'evil"><x>' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(body).not.toContain('evil');
  });

  it('/robots.txt keeps other crawlers out of result pages, which also say noindex', async () => {
    const res = await get('/robots.txt');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^User-agent: \*\nDisallow: \/search\nDisallow: \/api\/\n/);
    expect((await html('/search?q=crawler')).body).toContain('<meta name="robots" content="noindex">');
    expect((await html('/')).body).not.toContain('<meta name="robots"');
  });

  it('/healthz reports ok with the document count', async () => {
    const { res, json } = await api('/healthz');
    expect(res.status).toBe(200);
    expect(json).toEqual({ status: 'ok', documents: engine.summary().documents, builtAt: engine.summary().builtAt });
  });

  it('/favicon.ico, which clients ask without reading the page, leads to the icon', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/static/favicon.svg');
    const icon = await get('/static/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('static files are served with their types', async () => {
    const css = await get('/static/style.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const js = await get('/static/suggest.js');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('errors', () => {
  it("an error after a file's headers were set is answered with the error's own type, uncached", async () => {
    // A range past the end: the static and /embed.js handlers set the file's headers, then fail with 416.
    for (const path of ['/static/style.css', '/embed.js']) {
      const res = await get(path, { headers: { Range: 'bytes=999999999-' } });
      expect(res.status, path).toBe(416);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-range'), path).toMatch(/^bytes \*\/\d+$/);
      for (const name of ['cache-control', 'etag', 'last-modified']) expect(res.headers.get(name), `${path} ${name}`).toBeNull();
      expect(await res.text()).toContain('<!doctype html>');
    }
  });

  it('an unknown page is a 404 page', async () => {
    const { res, body } = await html('/no/such/page');
    expect(res.status).toBe(404);
    expect(body).toContain('there is no page at /no/such/page');
  });

  it('a method an address does not answer is a 405 naming those it does (RFC 9110 15.5.6), JSON under /api', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['/', '/api/search?q=x', '/healthz']) {
        const res = await get(path, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        if (path !== '/') expect(((await res.json()) as { error: { status: number } }).error.status).toBe(405);
      }
      if (method !== 'POST') expect((await get('/robots', { method })).headers.get('allow')).toBe('GET, HEAD, POST');
    }
    // An address nothing answers stays a 404, whatever the method.
    expect((await get('/no/such/page', { method: 'POST' })).status).toBe(404);
    // A static file answers GET and HEAD; one that does not exist, or lies outside the folder, is a 404.
    const file = await get('/static/style.css', { method: 'DELETE' });
    expect([file.status, file.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    for (const path of ['/static/nothing.css', '/static/..%2Fviews%2Fsearch.ejs', '/static/%E0%A4%A']) expect((await get(path, { method: 'POST' })).status, path).toBe(404);
  });

  it('paths are case-sensitive: /API/search is no address, so nothing escapes the /api/ rules (CORS, JSON errors, robots.txt)', async () => {
    for (const path of ['/API/search?q=crawler', '/Search?q=crawler', '/HEALTHZ']) expect((await get(path)).status, path).toBe(404);
    expect((await get('/api/search?q=crawler')).status).toBe(200);
  });

  it('a request with two Host headers is a 400 (RFC 9112 3.2)', async () => {
    const answer = parseRaw(await rawExchange(server, 'GET /api/search?q=crawler HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nConnection: close\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('more than one Host header');
    const one = parseRaw(await rawExchange(server, 'GET /api/search?q=crawler HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n'));
    expect(one.status).toBe(200);
  });

  it('an HTTP/1.1 request without Host is a 400 (RFC 9112 3.2) with the headers of every answer; HTTP/1.0 needs none', async () => {
    for (const path of ['/search?q=crawler', '/api/search?q=crawler']) {
      const answer = parseRaw(await rawExchange(server, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`));
      expect(answer.status, path).toBe(400);
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect(answer.body, path).toContain('no Host header');
    }
    expect(parseRaw(await rawExchange(server, 'GET /api/search?q=crawler HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('an Expect the server does not meet is a 417 (RFC 9110 10.1.1) with the headers of every answer', async () => {
    for (const path of ['/robots', '/api/search?q=crawler']) {
      const answer = parseRaw(await rawExchange(server, `POST ${path} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 5\r\n\r\n`));
      expect(answer.status, path).toBe(417);
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect(answer.headers['content-type'], path).toBe(path.startsWith('/api/') ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
      expect(answer.body, path).toContain('Expect');
    }
  });

  it('an engine failure is a 500 without the stack or the message, which go to the log', async () => {
    const logged: string[] = [];
    const failing: SearchEngine = {
      search: () => {
        throw new Error('secret internal detail');
      },
      suggest: () => [],
      summary: () => engine.summary(),
    };
    const s = await start({ engine: failing, log: (m) => logged.push(m) });
    try {
      for (const path of ['/search?q=crawler', '/api/search?q=crawler']) {
        const res = await fetch(s.url.replace(/\/$/, '') + path);
        const body = await res.text();
        expect(res.status).toBe(500);
        expect(body).not.toContain('secret internal detail');
        expect(body).not.toMatch(/at .*\.ts:\d+/);
        expect(body).toContain('something went wrong on our side');
      }
      expect(logged.join('\n')).toContain('secret internal detail');
    } finally {
      await s.close();
    }
  });
  it('an address too long for the server to read is a 431 that says so, not a blank page', async () => {
    const s = await start({ engine });
    try {
      const answer = await rawExchange(s, `GET /search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(answer).toMatch(/\r\n\r\n431: the address or its headers are too long: shorten the search\n$/);
    } finally {
      await s.close();
    }
  });

  it('answers written to the socket carry the security headers; for /api/ they are JSON', async () => {
    const s = await start({ engine });
    try {
      const page = parseRaw(await rawExchange(s, 'GET /search?q=a HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      expect(page.status).toBe(400);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-type']).toBe('text/plain; charset=utf-8');
      const api = parseRaw(await rawExchange(s, 'GET /api/search?q=a HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      expect(api.status).toBe(400);
      expect(api.headers['x-content-type-options']).toBe('nosniff');
      expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(api.body)).toEqual({ error: { status: 400, message: 'the request could not be understood' } });
    } finally {
      await s.close();
    }
  });

  it('a bad request pipelined after a good one: the good one is answered in full first', async () => {
    const s = await start({ engine });
    try {
      const answer = await rawExchange(s, 'GET /search?q=crawler HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n');
      const first = parseRaw(answer);
      expect(first.status).toBe(200);
      expect(first.body).toContain('</html>');
      expect(Buffer.byteLength(first.body)).toBe(Number(first.headers['content-length']));
      expect(parseRaw(first.rest).status).toBe(400);
    } finally {
      await s.close();
    }
  });

  it('a client too slow to send its headers or its body gets a 408 that says so', async () => {
    // Short limits, checked often, so the test waits briefly; it asserts the answer, never the time.
    const s = await listen(createApp({ engine }), '127.0.0.1', 0, { headersTimeoutMs: 200, requestTimeoutMs: 400, connectionsCheckingIntervalMs: 50 });
    try {
      for (const partial of ['GET /search?q=a HTTP/1.1\r\nHost: x\r\n', 'POST /robots HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nrobots=']) {
        const answer = parseRaw(await rawExchange(s, partial));
        expect(answer.status).toBe(408);
        expect(answer.body).toBe('408: the request took too long to arrive: send it again\n');
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
      }
    } finally {
      await s.close();
    }
  });

  it('CONNECT is a 405 naming the methods allowed, not a closed connection', async () => {
    const s = await start({ engine });
    try {
      const answer = parseRaw(await rawExchange(s, 'CONNECT example.com:80 HTTP/1.1\r\nHost: example.com:80\r\n\r\n'));
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD, POST');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.body).toContain('CONNECT');
    } finally {
      await s.close();
    }
  });

  it('a damaged index is a 503 with what to do, logged as that one line without a stack, and /healthz says degraded', async () => {
    const logged: string[] = [];
    const damaged: SearchEngine = {
      search: () => {
        throw new GleanerError('INDEX_FORMAT', 'an index file ends 329 bytes early: rebuild the index with `gleaner index --full`');
      },
      suggest: () => [],
      summary: () => engine.summary(),
    };
    const s = await start({ engine: damaged, log: (m) => logged.push(m) });
    try {
      const res = await fetch(s.url + 'api/search?q=crawler');
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('gleaner index --full');
      expect(logged).toEqual(['GET /api/search?q=crawler: an index file ends 329 bytes early: rebuild the index with `gleaner index --full`']);
      // A monitor sees what users see: /healthz is no longer ok.
      const health = await fetch(s.url + 'healthz');
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'degraded', message: expect.stringContaining('ends 329 bytes early') as unknown });
    } finally {
      await s.close();
    }
  });
});

describe('result cache', () => {
  /** The fixture engine, counting the searches it is asked. */
  const countingEngine = () => {
    const counter = { calls: 0 };
    const counting: SearchEngine = {
      search: (q, o) => {
        counter.calls++;
        return engine.search(q, o);
      },
      suggest: (p, n) => engine.suggest(p, n),
      summary: () => engine.summary(),
    };
    return { counter, counting };
  };

  it('asks the engine once for a repeated query and page, shared by the page and the API', async () => {
    const { counter, counting } = countingEngine();
    // Every answer kept from its first asking, to see which askings share one.
    const s = await start({ engine: counting, options: { searchCacheAdmitRepeatsAmong: 0 } });
    const at = s.url.replace(/\/$/, '');
    try {
      // The page's answer (explained) serves the API's, which leaves explanations out unless asked.
      await fetch(at + '/search?q=handbook');
      const first = (await (await fetch(at + '/api/search?q=handbook')).json()) as { results: { explain?: unknown }[] };
      const again = (await (await fetch(at + '/api/search?q=%20handbook%20&explain=1')).json()) as { results: { explain?: unknown }[] };
      expect(counter.calls).toBe(1);
      expect(first.results.length).toBeGreaterThan(0);
      expect(first.results.every((r) => r.explain === undefined)).toBe(true);
      expect(again.results.map(({ explain: _, ...r }) => r)).toEqual(first.results);
      expect(again.results.every((r) => r.explain !== undefined)).toBe(true);
      await fetch(at + '/search?q=handbook&page=2');
      await fetch(at + '/api/search?q=handbook&size=5');
      expect(counter.calls).toBe(3);
      // An API answer without explanations cannot serve one that asks for them, nor the page.
      await fetch(at + '/api/search?q=handbook&size=5&explain=1');
      expect(counter.calls).toBe(4);
    } finally {
      await s.close();
    }
    const off = await start({ engine: counting, options: { searchCacheEntries: 0 } });
    try {
      counter.calls = 0;
      for (let i = 0; i < 2; i++) await fetch(off.url + 'api/search?q=handbook');
      expect(counter.calls).toBe(2);
    } finally {
      await off.close();
    }
  });

  it('keeps an answer from its second asking, when the first was among the last queries not kept', async () => {
    const { counter, counting } = countingEngine();
    const s = await start({ engine: counting, options: { searchCacheAdmitRepeatsAmong: 2 } });
    try {
      // [query, the engine's searches after asking it]: a query asked once leaves nothing behind, the
      // second asking is kept, the third served; 'crawler' asked again after two other queries asked
      // once was forgotten, so its next asking counts as a first.
      const steps: [string, number][] = [['handbook', 1], ['handbook', 2], ['handbook', 2], ['crawler', 3], ['robots', 4], ['index', 5], ['crawler', 6], ['crawler', 7], ['crawler', 7]];
      for (const [q, calls] of steps) {
        await fetch(`${s.url}api/search?q=${q}`).then((r) => r.arrayBuffer());
        expect([q, counter.calls]).toEqual([q, calls]);
      }
    } finally {
      await s.close();
    }
  });

  it('is bounded by bytes, not only entries: large answers push out the least recently used', async () => {
    let calls = 0;
    // Answers of ~400 KB each (as 50 explained hits are): a 1 MiB budget keeps two of them.
    const heavy: SearchEngine = {
      search: (q, o) => {
        calls++;
        const r = engine.search(q, o);
        return { ...r, hits: r.hits.slice(0, 1).map((h) => ({ ...h, snippet: h.snippet + ' pad'.repeat(50_000) })) };
      },
      suggest: (p, n) => engine.suggest(p, n),
      summary: () => engine.summary(),
    };
    const s = await start({ engine: heavy, options: { searchCacheMiB: 1, searchCacheAdmitRepeatsAmong: 0 } });
    const ask = (q: string) => fetch(`${s.url}api/search?q=${q}&size=1`).then((r) => r.arrayBuffer());
    try {
      await ask('handbook');
      await ask('handbook');
      expect(calls).toBe(1);
      for (const q of ['crawler', 'robots', 'index', 'search']) await ask(q);
      expect(calls).toBe(5);
      // 'search' was the last answer kept, 'handbook' the first pushed out.
      await ask('search');
      expect(calls).toBe(5);
      await ask('handbook');
      expect(calls).toBe(6);
    } finally {
      await s.close();
    }
  });
});

describe('/robots', () => {
  const post = (fields: Record<string, string>, target = base) =>
    fetch(target + '/robots', { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: BadBot\nDisallow: /\n';

  it('GET shows the form with an example', async () => {
    const { res, body } = await html('/robots');
    expect(res.status).toBe(200);
    // The action lands on the verdicts after a check (the page is long on a phone).
    expect(body).toContain('<form class="robots" action="/robots#verdicts-h" method="post">');
    expect(body).toMatch(/<label for="urls">/);
  });

  it('a pasted file: each verdict with its deciding line, RFC 9309 longest match', async () => {
    const res = await post({ source: 'paste', robots: ROBOTS, urls: '/private/salaries.html\n/private/press/x.html\n/public', agent: 'Gleaner', mode: 'rfc9309' });
    const body = await res.text();
    expect(res.status).toBe(200);
    const rows = all(body, /<tr>\s*<td><code>([\s\S]*?)<\/tr>/g);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/\/private\/salaries.html[\s\S]*Disallowed[\s\S]*line 2: <code>Disallow: \/private\/<\/code>/);
    expect(rows[1]).toMatch(/Allowed[\s\S]*line 3: <code>Allow: \/private\/press\/<\/code>/);
    expect(rows[2]).toMatch(/Allowed[\s\S]*<td>none<\/td>/);
    expect(body).toContain('Linter report');
    // The form's CRLF (browsers submit textareas so) is not blamed on the file.
    const crlf = await (await post({ source: 'paste', robots: ROBOTS.replace(/\n/g, '\r\n'), urls: '/', agent: 'Gleaner' })).text();
    expect(crlf).not.toContain('dos-line-endings');
  });

  it('the 1996 draft reading: the first matching line decides', async () => {
    const res = await post({ source: 'paste', robots: ROBOTS, urls: '/private/press/x.html', agent: 'Gleaner', mode: 'draft' });
    const body = await res.text();
    expect(body).toMatch(/Disallowed[\s\S]*line 2: <code>Disallow: \/private\/<\/code>/);
  });

  it('the agent picks its group', async () => {
    const body = await (await post({ source: 'paste', robots: ROBOTS, urls: '/anything', agent: 'BadBot', mode: 'rfc9309' })).text();
    expect(body).toMatch(/Disallowed[\s\S]*line 6: <code>Disallow: \/<\/code>/);
    expect(body).toContain('<code>User-agent: BadBot</code>');
  });

  it('the linter reports mistakes with their lines; hostile file content is escaped', async () => {
    const body = await (await post({ source: 'paste', robots: 'Disalow: /x\nUser-agent: *\n<script>alert(1)</script>\n', urls: '/', agent: 'Gleaner' })).text();
    expect(body).toMatch(/<li class="finding-(error|warning)"><strong>(error|warning)<\/strong> \(line 1\)/);
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert');
  });

  it('a URL: the site\'s robots.txt is fetched and the fetch outcome applies (loopback servers)', async () => {
    const requests: string[] = [];
    const site = createServer((req, res) => {
      requests.push(`${req.url} ${req.headers['user-agent']}`);
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /admin\n');
      } else res.writeHead(404).end();
    });
    const down = createServer((_req, res) => res.writeHead(503).end());
    const listenOn = (s: Server) => new Promise<string>((resolve) => s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
    const siteUrl = await listenOn(site);
    const downUrl = await listenOn(down);
    try {
      const ok = await html(`/robots?url=${encodeURIComponent(siteUrl + '/some/page')}&urls=${encodeURIComponent('/admin/users\n/blog')}&agent=Gleaner`);
      expect(ok.res.status).toBe(200);
      expect(ok.body).toContain(`Fetched <code>${siteUrl}/robots.txt</code>: HTTP 200`);
      expect(ok.body).toMatch(/\/admin\/users[\s\S]*Disallowed[\s\S]*line 2: <code>Disallow: \/admin<\/code>/);
      expect(requests).toEqual([expect.stringMatching(/^\/robots.txt Gleaner\//)]);

      const unreachable = await (await post({ source: 'url', url: downUrl, urls: '/anything', agent: 'Gleaner' })).text();
      expect(unreachable).toMatch(/HTTP 503/);
      expect(unreachable).toMatch(/disallow all \(RFC 9309 2\.3\.1\.4\)/);
      expect(unreachable).toMatch(/\/anything[\s\S]*Disallowed/);
      // No file was read: nothing says every URL is allowed, and there is nothing to lint.
      expect(unreachable).toContain('No file was read: that outcome decides every URL of the site.');
      expect(unreachable).not.toContain('every URL is allowed');
      expect(unreachable).toContain('No file was read, so there is nothing to lint.');
      expect(ok.body).not.toContain('No file was read');
    } finally {
      site.close();
      down.close();
    }
  });

  it('a bad address is a 400 with the reason; a too-large form is refused', async () => {
    const bad = await post({ source: 'url', url: 'javascript:alert(1)', urls: '/' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('is not an http or https address');
    const small = await start({ engine, options: { maxFormBytes: 1024 } });
    try {
      const big = await post({ source: 'paste', robots: 'x'.repeat(5000), urls: '/' }, small.url.replace(/\/$/, ''));
      expect(big.status).toBe(413);
      expect(await big.text()).toContain('the request is too large');
    } finally {
      await small.close();
    }
  });

  it('forms arriving at once hold at most maxFormBytesInFlight: one past it is a 503 with Retry-After, answered at once', async () => {
    const s = await start({ engine, options: { maxFormBytes: 1024, maxFormBytesInFlight: 2048 } });
    const port = Number(new URL(s.url).port);
    const head = 'POST /robots HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1024\r\n\r\n';
    // Two forms that stop short of their last bytes fill the budget while their bodies are awaited.
    const stalled = [0, 1].map(() => connect(port, '127.0.0.1', function (this: ReturnType<typeof connect>) { this.write(head + 'robots=x'); }));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = parseRaw(await rawExchange(s, head + 'robots=' + 'x'.repeat(1017)));
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('30');
      // A stalled form that goes gives its share back.
      await new Promise<void>((resolve) => { stalled[0]!.once('close', () => resolve()); stalled[0]!.destroy(); });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const accepted = parseRaw(await rawExchange(s, head.replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n') + 'robots=' + 'x'.repeat(1017)));
      expect(accepted.status).toBe(200);
    } finally {
      for (const socket of stalled) socket.destroy();
      await s.close();
    }
  });

  it('a form announced larger than maxFormBytes is a 413 at once, before its body arrives', async () => {
    // A request timeout shorter than the test's: waiting for the body ends in a 408, not the 413.
    const s = await listen(createApp({ engine, options: { maxFormBytes: 1024 } }), '127.0.0.1', 0, { headersTimeoutMs: 500, requestTimeoutMs: 1000, connectionsCheckingIntervalMs: 50 });
    try {
      const answer = parseRaw(await rawExchange(s, 'POST /robots HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\nrobots='));
      expect(answer.status).toBe(413);
      expect(answer.body).toContain('the request is too large');
    } finally {
      await s.close();
    }
  });

  it('with robotsFetch off, the form has no URL field and a URL is refused', async () => {
    const noFetch = await start({ engine, options: { robotsFetch: false } });
    const at = noFetch.url.replace(/\/$/, '');
    try {
      const form = await (await fetch(at + '/robots')).text();
      expect(form).not.toContain('id="url"');
      const res = await fetch(at + '/robots?url=' + encodeURIComponent('http://127.0.0.1:9/') + '&urls=/');
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('does not fetch robots.txt files for visitors');
    } finally {
      await noFetch.close();
    }
  });

  it('matching work is bounded: a check past the budget is a 413 saying what to cut, a 500 KiB file still works', async () => {
    // 8,000 wildcard rules against long URLs: every rule scans every URL (rules x URL characters).
    const hostile = 'User-agent: *\n' + Array.from({ length: 8000 }, (_, i) => `Disallow: /*b${i}`).join('\n');
    const longUrls = Array.from({ length: 10 }, (_, i) => `/${'a'.repeat(4000)}${i}`).join('\n');
    const refused = await post({ source: 'paste', robots: hostile, urls: longUrls, agent: 'Gleaner' });
    expect(refused.status).toBe(413);
    const page = await refused.text();
    expect(page).toMatch(/<p class="notice" role="alert">too much to check at once: 8,000 rules against [\d,]+ characters of URLs is over the limit of [\d,]+ matching steps; check fewer or shorter URLs, or a file with fewer rules<\/p>/);
    expect(page).not.toContain('id="verdicts-h"');

    // RFC 9309 2.5: a parser must read 500 KiB; such a file against a handful of ordinary URLs is checked.
    let big = 'User-agent: *\n';
    for (let i = 0; big.length < 500 * 1024 - 100; i++) big += `Disallow: /section-${i}/some/path/page-${i}.html\n`;
    const few = Array.from({ length: 10 }, (_, i) => `/blog/2024/05/an-article-${i}?utm_source=feed&id=${i}`).join('\n');
    const ok = await post({ source: 'paste', robots: big, urls: few + '\n/section-7/some/path/page-7.html', agent: 'Gleaner' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/\/section-7\/some\/path\/page-7.html[\s\S]*Disallowed/);
  });

  it('a fetched robots.txt is held to the same matching budget', async () => {
    let file = 'User-agent: *\n';
    for (let i = 0; file.length < 500 * 1024 - 100; i++) file += `Disallow: /*x${i}\n`;
    const site = createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(file);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const urls = Array.from({ length: 4 }, (_, i) => `/${'p'.repeat(2000)}${i}`).join('\n');
      const res = await get(`/robots?url=${encodeURIComponent(siteUrl)}&urls=${encodeURIComponent(urls)}`);
      expect(res.status).toBe(413);
      expect(await res.text()).toContain('too much to check at once');
    } finally {
      site.close();
    }
  });

  it('URL lists are capped, and lines that are not URLs are reported', async () => {
    const urls = Array.from({ length: WEB_DEFAULTS.maxRobotsUrls + 5 }, (_, i) => `/p${i}`).join('\n');
    const body = await (await post({ source: 'paste', robots: ROBOTS, urls, agent: 'Gleaner' })).text();
    expect(body).toContain(`only the first ${WEB_DEFAULTS.maxRobotsUrls} of ${WEB_DEFAULTS.maxRobotsUrls + 5} URLs were checked`);
    const odd = await (await post({ source: 'paste', robots: ROBOTS, urls: 'mailto:x@y.z', agent: 'Gleaner' })).text();
    expect(odd).toContain('is not a URL or a path: skipped');
  });
});

describe('/api/stats/live and the live section of /stats', () => {
  it('404 with a reason when no crawl wrote a status; the status and a live section when one did', async () => {
    const none = await get('/api/stats/live');
    expect(none.status).toBe(404);
    const status = {
      running: true, pid: 1, updatedAt: '2030-01-01T00:00:00.000Z', pages: 7, pagesThisRun: 7, known: 20, queued: 13, inFlight: 1, pagesPerSecond: 2.5,
      errorsByReason: { ECONNRESET: 2 },
      hosts: [{ origin: 'http://intranet.test', pages: 7, errors: 2, queued: 13, inFlight: 1, delayMs: 1500, pagesPerMinute: 42, blocked: 3, cut: 0 }],
      stats: { ...CRAWL, finishedAt: undefined, errors: 2 },
    };
    const live = await start({ engine, stats: indexStats(engine), crawlStatus: () => Promise.resolve(status) });
    try {
      const res = await fetch(new URL('/api/stats/live', live.url));
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({ running: true, pages: 7, hosts: [{ origin: 'http://intranet.test', delayMs: 1500 }] });
      const page = await (await fetch(new URL('/stats', live.url))).text();
      expect(page).toMatch(/The crawl <span data-live="state">is running<\/span>/);
      expect(page).toMatch(/<td data-label="Host">http:\/\/intranet\.test<\/td><td class="num" data-label="Pages">7<\/td><td class="num" data-label="Per minute">42<\/td><td class="num" data-label="Queued">13<\/td><td class="num" data-label="Delay">1\.5 s<\/td>/);
      expect(page).toContain('<td>ECONNRESET</td>');
      expect(page).toContain('<script src="/static/live-stats.js" defer></script>');
    } finally {
      await live.close();
    }
  });

  it('a crawl of thousands of hosts: the hosts listed are said to be some, the rule table shows 50 rows and sums the rest', async () => {
    // 120 hosts whose robots.txt could not be had: a rule row each, 2 URLs each.
    const blockedByRule = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`http://h${i}.test robots.txt unreachable`, 2]));
    const host = (i: number) => ({ origin: `http://h${i}.test`, pages: 100 - i, errors: 0, queued: 0, inFlight: 0, delayMs: 1000, pagesPerMinute: 0, blocked: 2, cut: 0 });
    const status = {
      running: false, pid: 1, updatedAt: '2030-01-01T00:00:00.000Z', pages: 4950, pagesThisRun: 4950, known: 4950, queued: 0, inFlight: 0, pagesPerSecond: 9,
      errorsByReason: {},
      hosts: Array.from({ length: 100 }, (_, i) => host(i)),
      hostsTotal: 3254,
      stats: { ...CRAWL, blockedByRule },
    };
    const live = await start({ engine, stats: indexStats(engine), crawlStatus: () => Promise.resolve(status) });
    try {
      const page = await (await fetch(new URL('/stats', live.url))).text();
      expect(page).toContain('<caption data-live="hostsCaption">Per host: the 100 with the most pages, of 3,254</caption>');
      // Robots-blocked counts every rule, not the hosts listed (100 of them here, each with 2).
      expect(page).toContain('<dd data-live="blocked">240</dd>');
      const rules = page.slice(page.indexOf('URLs blocked by robots.txt, by rule'));
      const table = rules.slice(0, rules.indexOf('</table>'));
      expect(table.match(/robots\.txt unreachable<\/td>/g)).toHaveLength(50);
      expect(table).toContain('<tr><td>70 more</td><td class="num">140</td></tr>');
    } finally {
      await live.close();
    }
  });
});

