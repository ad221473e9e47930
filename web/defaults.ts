// Every tunable of the web gateway, with its default, in one place. The serve command and tests
// override through `createApp(deps)` / `parseQuery(input, limits)`; nothing else hard-codes these.

import type { PromotedRules, SynonymRules } from './query/types.js';

export interface QueryLimits {
  /** Longer input is cut (at a code point boundary) and the page says so. */
  maxQueryChars: number;
  /** Words, phrases and operators beyond this many are ignored, with a notice. */
  maxQueryAtoms: number;
}

export interface WebOptions extends QueryLimits {
  /** Results per page when `size` is not given. */
  pageSize: number;
  /** The largest `size` the API accepts; larger values are clamped. */
  maxPageSize: number;
  /** Pages beyond this are refused: nobody reads page 500, and deep offsets cost the engine. */
  maxPage: number;
  /** Completions returned by /api/suggest. */
  suggestLimit: number;
  /** Pages (titles, section headings) returned by /api/suggest beside the completions. */
  suggestPagesLimit: number;
  /** The longest prefix /api/suggest looks up. */
  maxSuggestChars: number;
  /** robots.txt bodies pasted into /robots are cut here (Google reads 500 KiB, RFC 9309 asks >= 500 KiB). */
  maxRobotsBytes: number;
  /** URLs checked at once on /robots. */
  maxRobotsUrls: number;
  /** Most matcher steps one /robots check may take (an upper bound: rules x URL characters + URLs x
   * pattern characters). The check runs on the main thread, so past this it is refused with a 413
   * rather than stall every other request: 8,000 wildcard rules against 50 URLs of 4,000 characters had
   * blocked the server for 25 s. 100 million is under a second here, and holds a 500 KiB file (RFC 9309's
   * minimum, ~12,000 rules) against 50 URLs of 100 characters. */
  maxRobotsMatchSteps: number;
  /** Timeout for fetching a robots.txt named on /robots. */
  robotsFetchTimeoutMs: number;
  /** Largest url-encoded form body accepted (the /robots form). Browsers percent-encode a pasted file's
   * `/`, `:` and line ends, a third more bytes in a typical robots.txt and up to three times in the worst
   * case: 600 KiB had refused a 500 KiB file. */
  maxFormBytes: number;
  /** Form bytes held in memory at once by all requests together (web/body-budget.ts); a form past it is a
   * 503 with Retry-After. Forty full forms. */
  maxFormBytesInFlight: number;
  /** Whether /robots may fetch a robots.txt from a URL the visitor names. The server then makes requests
   * on a visitor's behalf (to hosts it can reach, intranet included): `gleaner serve` turns this off when
   * it listens beyond loopback, unless told otherwise. */
  robotsFetch: boolean;
  /** Search results kept in memory per query and page (0 turns the cache off). */
  searchCacheEntries: number;
  /** Memory the kept search results may hold, in MiB as estimated (web/approx-bytes.ts); the least
   * recently used go first. Answers differ in size a thousandfold: 2,000 of 50 explained hits each had
   * grown a server to 825 MB, so the entry count alone bounds nothing. */
  searchCacheMiB: number;
  /** A query's answer is kept from its second asking, when the first was among the last this many
   * queries asked and not kept (their keys are remembered, not their answers); 0 keeps every answer
   * from its first asking. Most queries of a search log are asked once: keeping their answers cost a
   * stream of distinct queries about a tenth of its requests a second (web/lru.ts). */
  searchCacheAdmitRepeatsAmong: number;
  /** Origins (`https://www.example.org`) whose pages may use /api/* and load /embed.js: the embedded
   * search box. Empty (the default): every response stays same-origin only, as without the widget. */
  allowOrigins: readonly string[];
  /** The site's synonyms (web/query/synonyms.ts, `serve --synonyms FILE`), added to queries as OR
   * alternatives; none by default. */
  synonyms?: SynonymRules;
  /** Pages the site promotes for queries (web/query/promoted.ts, `serve --promoted FILE`), shown above
   * page 1's results as recommended; none by default. */
  promoted?: PromotedRules;
}

export const WEB_DEFAULTS: Readonly<WebOptions> = Object.freeze({
  maxQueryChars: 512,
  maxQueryAtoms: 32,
  pageSize: 10,
  maxPageSize: 50,
  maxPage: 100,
  suggestLimit: 8,
  suggestPagesLimit: 5,
  maxSuggestChars: 64,
  maxRobotsBytes: 512 * 1024,
  maxRobotsUrls: 50,
  maxRobotsMatchSteps: 100_000_000,
  robotsFetchTimeoutMs: 10_000,
  maxFormBytes: 3 * 512 * 1024 + 64 * 1024,
  maxFormBytesInFlight: 64 * 1024 * 1024,
  searchCacheEntries: 2000,
  searchCacheMiB: 64,
  searchCacheAdmitRepeatsAmong: 8192,
  robotsFetch: true,
  allowOrigins: [],
});

/** How long a client may take and how much it may ask at once, for a server that faces browsers and
 * scripts: slow, idle or non-reading clients do not hold sockets or memory. */
export interface ConnectionLimits {
  /** The whole request, body included. Default 30 s. */
  requestTimeoutMs: number;
  /** The request line and headers. Default 10 s. */
  headersTimeoutMs: number;
  /** An idle connection between requests. Default 5 s. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above. Node's default of 30 s let them fire at ~21 s and ~51 s
   * instead of 10 s and 30 s; checking every second costs a walk over the open connections. Default 1 s. */
  connectionsCheckingIntervalMs: number;
  /** A connection on which nothing can be read or written for this long is closed: nginx's
   * `send_timeout`. A client that never reads its answers had held its socket, and the answers, for good.
   * Default 60 s. */
  sendTimeoutMs: number;
  /** Requests one connection may have unanswered at once; one more and the connection is dropped.
   * Browsers never pipeline; Node parses every request already received and keeps every answer until
   * the client reads it: 100 connections each sending 64 KB of requests and reading nothing had grown
   * a server from 86 MB to 1.2 GB. Default 16. */
  maxPipelinedRequests: number;
}

export const CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckingIntervalMs: 1_000,
  sendTimeoutMs: 60_000,
  maxPipelinedRequests: 16,
});
