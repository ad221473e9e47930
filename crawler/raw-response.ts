// What the crawler keeps of a response for export when asked to (CrawlOptions.keepRaw;
// shared/store/raw-response.ts): status, headers and the body, gzip-compressed (level 1) on libuv's
// thread pool, off the crawl loop's thread. A 304 keeps the response stored before; a failed request
// has none. Started before the body goes to a parse worker, which takes the bytes over
// (crawler/analyze-pool.ts): so the compressor reads a copy.

import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { RawResponse } from '../shared/store/index.js';
import type { FetchOutcome } from './fetch.js';

const gzipAsync = promisify(gzip);
const EMPTY = new Uint8Array(0);

export async function rawResponse(outcome: FetchOutcome): Promise<RawResponse | undefined> {
  if (outcome.kind === 'network-error' || outcome.kind === 'not-modified') return undefined;
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(outcome.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  const body = outcome.kind === 'body' && outcome.body.byteLength > 0 ? new Uint8Array(await gzipAsync(new Uint8Array(outcome.body), { level: 1 })) : EMPTY;
  return { status: outcome.status, headers, bodyGzip: body };
}
