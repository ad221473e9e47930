// The crawl-side steps of `gleaner trace URL` (shared/trace.ts): the URL made canonical, robots.txt
// asked, the politeness wait, the fetch hop by hop (conditional when the store has the page), the
// charset decision and what extraction kept. The crawler's own functions do each step, live, once:
// one robots.txt request and one request per hop, as a crawl would make them.

import { userAgentHeader } from '../shared/agent.js';
import { silentLogger } from '../shared/log.js';
import { robotsFromUrl, whyUnreachable } from '../shared/robots/index.js';
import type { PageRecord } from '../shared/store/index.js';
import { more, robotsTraceStep, wholeSiteRobotsStep, type TraceStep } from '../shared/trace.js';
import { canonicalizeUrl } from '../shared/url.js';
import { analyzeBody } from './analyze.js';
import { decodeBody } from './charset.js';
import { createHttpClient, fetchOnce, headerValue, PAGE_TYPES, type FetchOutcome } from './fetch.js';
import type { CrawlOptions } from './options.js';
import { bodyInput } from './page.js';
import { analyzeDocument, isDocument } from './document-analysis.js';
import { effectiveDelayMs } from './politeness.js';
import { CrawlCookies } from './cookies.js';
import { pageRequestHeaders } from './request.js';
import { crawlRobotsOptions } from './robots-options.js';

export interface FetchTrace {
  steps: TraceStep[];
  /** The canonical URL, the key the store and the index know the page by. */
  url: string;
}

const SHOWN_HEADERS = ['content-type', 'content-length', 'content-language', 'etag', 'last-modified', 'location', 'x-robots-tag', 'retry-after'];

export async function traceFetch(input: string, options: CrawlOptions, previous: PageRecord | undefined): Promise<FetchTrace> {
  const url = canonicalizeUrl(input, undefined, { stripParams: options.stripParams }) ?? input;
  const steps: TraceStep[] = [
    {
      title: 'The URL',
      decidedBy: ['shared/url.ts'],
      verdict: url === input ? 'already canonical' : `made canonical: ${url}`,
      facts: [
        ['as given', input],
        ['canonical', url],
      ],
      note: 'One spelling per page: scheme and host lower-cased, default port, dot segments and the fragment removed, session and tracking parameters stripped. The store, the frontier and the index all key the page by it.',
    },
  ];
  const client = createHttpClient({ ...options, hostConnections: 1 });
  // As a crawl keeps them (cookies.ts): a cookie check redirecting to itself leads to the page.
  const cookies = options.cookies ? new CrawlCookies() : undefined;
  const ua = userAgentHeader(options.agent);
  try {
    let current = url;
    const hops: [string, string][] = [];
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      const origin = new URL(current).origin;
      const { robots, result, decision } = await robotsFromUrl(`${origin}/robots.txt`, crawlRobotsOptions(options, origin, { userAgentHeader: ua, log: silentLogger }));
      const body = result.kind === 'response' ? new TextDecoder().decode(result.body) : '';
      const unreachable = result.kind === 'network-error' ? whyUnreachable(result).reason : undefined;
      const fetched = `${origin}/robots.txt: ${result.kind === 'response' ? `HTTP ${result.status}, ${result.body.byteLength} bytes` : (unreachable ?? result.kind)}; ${decision.why}`;
      // A robots.txt that could not be read decides for the whole site (a 5xx disallows all, a 404 allows all).
      const allowed = robots.check(current).allowed;
      const decided = decision.access === 'rules' ? robotsTraceStep(body, current, options.agent, options.robotsMode, fetched) : wholeSiteRobotsStep(fetched, allowed, decision.why, unreachable);
      steps.push(hop === 0 ? decided : { ...decided, title: `robots.txt of the redirect target ${origin}` });
      if (!allowed) return { steps, url };
      if (hop === 0) {
        const { delayMs, capped } = effectiveDelayMs(options.siteDelayMs[origin] ?? options.delayMs, robots.crawlDelaySeconds, options.maxCrawlDelayMs);
        steps.push({
          title: 'Politeness',
          decidedBy: ['crawler/politeness.ts', 'crawler/scheduler.ts'],
          verdict: `a crawl waits ${delayMs / 1000} s between two requests to ${origin}`,
          facts: [
            ['--delay', `${(options.siteDelayMs[origin] ?? options.delayMs) / 1000} s`],
            ['Crawl-delay', robots.crawlDelaySeconds === null ? '(none)' : `${robots.crawlDelaySeconds} s${capped ? ` (capped at ${options.maxCrawlDelayMs / 1000} s)` : ''}`],
            ['requests at once to the host', String(options.hostConnections)],
          ],
          note: 'The wait counts from the end of one response to the start of the next request, robots.txt included; the larger of --delay and Crawl-delay wins. This trace asks once and does not wait.',
        });
      }
      // Asked whole, so the steps after it can show what extraction does; what a recrawl would send instead is said.
      const identity = { userAgent: ua, ...(options.from === undefined ? {} : { from: options.from }) };
      const headers = pageRequestHeaders(identity, { referrer: undefined }, undefined, cookies?.header(current));
      if (hop === 0 && previous !== undefined) {
        const recrawl = pageRequestHeaders(identity, { referrer: undefined }, previous);
        const conditional = ['if-none-match', 'if-modified-since'].filter((h) => recrawl[h] !== undefined).map((h) => `${h}: ${recrawl[h]}`);
        if (conditional.length > 0) hops.push(['a recrawl would send', `${conditional.join(', ')} (the stored validators); an unchanged page answers 304 and keeps its stored copy`]);
      }
      const outcome = await fetchOnce(client, { url: current, headers, maxBodyBytes: options.maxBodyBytes, wantedTypes: PAGE_TYPES, limits: options });
      if (outcome.kind !== 'network-error') cookies?.remember(current, outcome.headers['set-cookie']);
      hops.push([`GET ${current}${headers.cookie === undefined ? '' : ' (with the cookies set so far)'}`, describeOutcome(outcome)]);
      if (outcome.kind === 'redirect') {
        // As a crawl follows it (page.ts): an http(s) URL on a host that can be asked, or no further.
        const next = canonicalizeUrl(outcome.location, current, { stripParams: options.stripParams });
        if (next === undefined) {
          steps.push({ title: 'Fetch', decidedBy: ['crawler/page.ts', 'shared/url.ts'], verdict: `a redirect to an unusable location, not followed: ${outcome.location}`, facts: hops });
          return { steps, url };
        }
        current = next;
        continue;
      }
      steps.push({
        title: 'Fetch',
        decidedBy: ['crawler/fetch.ts', 'crawler/request.ts', 'shared/http/http-body.ts'],
        verdict: outcome.kind === 'body' ? `HTTP ${outcome.status}, ${outcome.body.byteLength} bytes${outcome.truncated ? ' (cut at the body cap)' : ''}` : outcome.kind === 'network-error' ? `failed: ${outcome.error}` : `HTTP ${'status' in outcome ? outcome.status : ''} (${outcome.kind})`,
        facts: hops,
        note: 'Each redirect is a hop of its own: its target is checked against scope and robots.txt before it is asked. The body is read up to the body cap, decompressed, and abandoned if it arrives slower than --min-rate.',
      });
      if (outcome.kind === 'body') steps.push(...(await bodySteps(outcome, current, options)));
      return { steps, url };
    }
    steps.push({ title: 'Fetch', decidedBy: ['crawler/page.ts'], verdict: `given up after ${options.maxRedirects} redirects`, facts: hops });
    return { steps, url };
  } finally {
    await client.close();
  }
}

function describeOutcome(outcome: FetchOutcome): string {
  if (outcome.kind === 'network-error') {
    return outcome.status === undefined ? `no answer: ${outcome.error}` : `HTTP ${outcome.status} ${outcome.contentType ?? ''}, then: ${outcome.error}`.replace(' ,', ',');
  }
  const shown = SHOWN_HEADERS.map((h) => [h, headerValue(outcome.headers, h)] as const).filter(([, v]) => v !== undefined);
  return `HTTP ${outcome.status}${shown.length > 0 ? `; ${shown.map(([h, v]) => `${h}: ${v}`).join('; ')}` : ''}`;
}

async function bodySteps(outcome: Extract<FetchOutcome, { kind: 'body' }>, url: string, options: CrawlOptions): Promise<TraceStep[]> {
  const input = bodyInput(outcome, url, { agent: options.agent, stripParams: options.stripParams });
  const steps: TraceStep[] = [];
  let analysis;
  if (isDocument(input)) {
    try {
      analysis = await analyzeDocument(input, outcome.truncated, options);
    } catch (e) {
      // As a crawl stores it: an error page saying why (fetch-one.ts, page.ts).
      steps.push({ title: 'Document', decidedBy: ['crawler/document-analysis.ts'], verdict: `unreadable: ${(e as Error).message}`, facts: [['Content-Type', input.contentTypeHeader ?? '(none)']], note: 'A crawl stores it as an error page with this reason.' });
      return steps;
    }
  } else {
    const decoded = decodeBody(outcome.body, input.contentTypeHeader);
    steps.push({
      title: 'Charset',
      decidedBy: ['crawler/charset.ts'],
      verdict: decoded.charset,
      facts: [
        ['decided by', { bom: 'a byte order mark', header: 'the Content-Type header', meta: 'a <meta charset> in the first 1024 bytes', xml: 'the XML declaration', default: 'nothing: UTF-8 is the default', detected: 'nothing named one, and the bytes are not UTF-8: detected from them' }[decoded.source]],
        ['Content-Type', input.contentTypeHeader ?? '(none)'],
      ],
      note: 'The WHATWG encoding sniffing browsers use: BOM, then the header, then a <meta> prescan.',
    });
    analysis = analyzeBody(input);
  }
  const e = analysis.extracted;
  steps.push({
    title: 'Extraction',
    decidedBy: ['crawler/extract.ts', 'crawler/robots-meta.ts', 'crawler/sections.ts', 'crawler/page-date.ts', ...(isDocument(input) ? ['crawler/document-analysis.ts', 'crawler/documents.ts'] : [])],
    verdict: analysis.robots.index ? `${e.text.length} characters of text, ${e.links.length} links` : 'noindex: stored, never indexed',
    facts: [
      ['title', e.title || '(none)'],
      ['description', e.description || '(none)'],
      ['declared date', e.date ?? '(none: no date in its metadata; the index may take its Last-Modified)'],
      ['headings', more(e.headings, (h) => h)],
      ['language', e.language || '(undeclared: detected from the text at index time)'],
      ['text', `${e.text.slice(0, 300)}${e.text.length > 300 ? '…' : ''}`],
      ['blocks', `${e.blockEnds?.length ?? 0} (the indexer compares them across the host to find its template)`],
      ['links', more(e.links, (l) => `${l.url}${l.text ? ` "${l.text}"` : ''}${l.rel.length > 0 ? ` [${l.rel.join(' ')}]` : ''}`)],
      ['META robots + X-Robots-Tag', `${analysis.robots.index ? 'index' : 'noindex'}, ${analysis.robots.follow ? 'follow' : 'nofollow'}`],
      ...(e.canonical !== undefined ? [['rel=canonical', e.canonical] as [string, string]] : []),
    ],
    note: 'Script, style and hidden text are skipped; links are resolved against the page (and its <base>) and made canonical. A nofollow page keeps its links for the record but the crawl follows none.',
  });
  return steps;
}
