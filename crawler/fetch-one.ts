// One page fetched the way the crawler fetches it, for `gleaner extract`: robots.txt asked first (and
// obeyed as the crawl options say), the crawler's User-Agent, From and deadlines, redirects followed by
// hand with robots asked again for each hop, then analysed as the parse worker would, with the site's
// extraction rules when given. The outcome is a value.

import { userAgentHeader } from '../shared/agent.js';
import { robotsFromUrl, whyUnreachable } from '../shared/robots/index.js';
import { silentLogger } from '../shared/log.js';
import { canonicalizeUrl } from '../shared/url.js';
import { analyzeBody, type BodyAnalysis } from './analyze.js';
import { decodeBody } from './charset.js';
import { analyzeDocument, isDocument } from './document-analysis.js';
import { createHttpClient, fetchOnce, PAGE_TYPES } from './fetch.js';
import type { CrawlOptions } from './options.js';
import { bodyInput } from './page.js';
import { CrawlCookies } from './cookies.js';
import { pageRequestHeaders } from './request.js';
import { blockingRule, crawlRobotsOptions } from './robots-options.js';
import { extractWithRules, type ExtractRules } from './site-rules.js';

export type FetchOneResult =
  | { kind: 'page'; url: string; status: number; contentType: string; analysis: BodyAnalysis; contentMatches: number | undefined; dropped: number; rulesSkipped?: string }
  | { kind: 'blocked'; url: string; why: string }
  | { kind: 'failed'; url: string; why: string }
  /** Fetched, but a document (PDF, Word) that could not be read: a crawl stores it as an error page. */
  | { kind: 'unreadable'; url: string; why: string };

export async function fetchOnePage(url: string, options: CrawlOptions, rules: ExtractRules | undefined): Promise<FetchOneResult> {
  const client = createHttpClient({ ...options, hostConnections: 1 });
  const ua = userAgentHeader(options.agent);
  // As a crawl keeps them (cookies.ts): a cookie check redirecting to itself leads to the page.
  const cookies = options.cookies ? new CrawlCookies() : undefined;
  try {
    let current = url;
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      const origin = new URL(current).origin;
      const { robots, result } = await robotsFromUrl(`${origin}/robots.txt`, crawlRobotsOptions(options, origin, { userAgentHeader: ua, log: silentLogger }));
      // A host that cannot be reached disallows all (RFC 9309), but the user is told it cannot be
      // reached, as the crawl's summary tells it, not that robots.txt forbids the page.
      if (result.kind === 'network-error') return { kind: 'failed', url: current, why: `${origin} cannot be reached: ${whyUnreachable(result).reason}` };
      const u = new URL(current);
      const verdict = robots.check(u.pathname + u.search);
      if (!verdict.allowed) return { kind: 'blocked', url: current, why: `robots.txt disallows it (${blockingRule(verdict)})` };
      const outcome = await fetchOnce(client, {
        url: current,
        headers: pageRequestHeaders({ userAgent: ua, ...(options.from === undefined ? {} : { from: options.from }) }, { referrer: undefined }, undefined, cookies?.header(current)),
        maxBodyBytes: options.maxBodyBytes,
        wantedTypes: PAGE_TYPES,
        limits: options,
      });
      if (outcome.kind !== 'network-error') cookies?.remember(current, outcome.headers['set-cookie']);
      if (outcome.kind === 'redirect') {
        // As a crawl follows it (page.ts): an http(s) URL on a host that can be asked, or no further.
        const next = canonicalizeUrl(outcome.location, current, { stripParams: options.stripParams });
        if (next === undefined) return { kind: 'failed', url: current, why: `HTTP ${outcome.status}: a redirect to an unusable location: ${outcome.location}` };
        current = next;
        continue;
      }
      if (outcome.kind === 'network-error') return { kind: 'failed', url: current, why: outcome.error };
      if (outcome.kind === 'unwanted-type') return { kind: 'failed', url: current, why: `${outcome.contentType} is not a type Gleaner indexes` };
      if (outcome.kind !== 'body') return { kind: 'failed', url: current, why: `HTTP ${outcome.status}` };
      const input = bodyInput(outcome, current, options);
      if (isDocument(input)) {
        // A PDF or Word document, read as the crawl reads it (a process of its own, a deadline and a memory budget);
        // site rules are for HTML and do not apply.
        try {
          const analysis = await analyzeDocument(input, outcome.truncated, options);
          return { kind: 'page', url: current, status: outcome.status, contentType: outcome.contentType, analysis, contentMatches: undefined, dropped: 0 };
        } catch (e) {
          return { kind: 'unreadable', url: current, why: (e as Error).message };
        }
      }
      // Exactly what the parse worker computes for this page.
      const analysis = analyzeBody(rules === undefined ? input : { ...input, rules });
      let contentMatches: number | undefined;
      let dropped = 0;
      let rulesSkipped: string | undefined;
      if (rules !== undefined && outcome.contentType !== 'text/plain') {
        // Once more for the counts a crawl has no use for (one page: the cost does not matter).
        const ruled = extractWithRules(decodeBody(outcome.body, input.contentTypeHeader).text, current, rules, { agent: options.agent, stripParams: options.stripParams });
        contentMatches = ruled.contentMatches;
        dropped = ruled.dropped;
        rulesSkipped = ruled.skipped;
      }
      return { kind: 'page', url: current, status: outcome.status, contentType: outcome.contentType, analysis, contentMatches, dropped, ...(rulesSkipped === undefined ? {} : { rulesSkipped }) };
    }
    return { kind: 'failed', url: current, why: `more than ${options.maxRedirects} redirects` };
  } finally {
    await client.close();
  }
}
