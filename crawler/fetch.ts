// The crawler's HTTP edge: one GET, no automatic redirects (the crawler follows them itself so that each
// hop is checked against scope and robots), compression accepted, timeouts for connect, headers and body,
// a body size cap, and bodies of unwanted types never read. The outcome is a value, never an exception.

import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';

export interface FetchRequest {
  url: string;
  headers: Record<string, string>;
  maxBodyBytes: number;
  /** Media types whose bodies are read; others answer `unwanted-type` without reading. */
  wantedTypes: readonly string[];
}

export type FetchOutcome =
  | {
      kind: 'body';
      status: number;
      headers: Record<string, string | string[] | undefined>;
      contentType: string;
      body: Uint8Array;
      truncated: boolean;
    }
  | { kind: 'redirect'; status: number; location: string; headers: Record<string, string | string[] | undefined> }
  | { kind: 'not-modified'; status: 304; headers: Record<string, string | string[] | undefined> }
  | { kind: 'status'; status: number; headers: Record<string, string | string[] | undefined>; contentType: string }
  | { kind: 'unwanted-type'; status: number; contentType: string; headers: Record<string, string | string[] | undefined> }
  | { kind: 'network-error'; error: string };

export interface HttpClientOptions {
  /** Connections per origin: as many as the scheduler lets requests run at once to one host. */
  hostConnections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** HTML and plain text are what Gleaner indexes. */
export const PAGE_TYPES: readonly string[] = ['text/html', 'application/xhtml+xml', 'text/plain'];

/** Politeness is enforced by the scheduler, and the pool agrees with it: one connection per request it
 * lets run at once to an origin, each with one request at a time (no pipelining). */
export function createHttpClient(options: HttpClientOptions): Dispatcher {
  return new Agent({
    connections: options.hostConnections,
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    keepAliveTimeout: 10_000,
  });
}

export function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export async function fetchOnce(client: Dispatcher, req: FetchRequest): Promise<FetchOutcome> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, { method: 'GET', headers: req.headers, dispatcher: client });
  } catch (e) {
    return { kind: 'network-error', error: describeError(e) };
  }
  const { statusCode: status, headers } = res;
  const contentType = mediaType(headers['content-type']);
  const discard = async () => {
    try {
      await res.body.dump({ limit: 64 * 1024 });
    } catch {
      /* the connection is dropped instead of reused: harmless */
    }
  };
  if (status >= 300 && status < 400 && status !== 304) {
    await discard();
    const location = headerValue(headers, 'location');
    if (location === undefined) return { kind: 'status', status, headers, contentType };
    return { kind: 'redirect', status, location, headers };
  }
  if (status === 304) {
    await discard();
    return { kind: 'not-modified', status: 304, headers };
  }
  if (status < 200 || status >= 300) {
    await discard();
    return { kind: 'status', status, headers, contentType };
  }
  if (!req.wantedTypes.includes(contentType)) {
    // Not read: an image or an archive costs the site bandwidth and us nothing useful.
    res.body.destroy();
    return { kind: 'unwanted-type', status, contentType, headers };
  }
  try {
    const { body, truncated } = await readCapped(res.body, headerValue(headers, 'content-encoding'), req.maxBodyBytes);
    return { kind: 'body', status, headers, contentType, body, truncated };
  } catch (e) {
    return { kind: 'network-error', error: describeError(e) };
  }
}

/** Reads at most `maxBytes` decoded bytes; stops reading (and drops the connection) beyond that. */
async function readCapped(raw: Readable, encoding: string | undefined, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const decoder = decompressorFor(encoding);
  const stream: Readable = decoder ? raw.pipe(decoder) : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (truncated) {
      raw.destroy();
      decoder?.destroy();
    }
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

function decompressorFor(encoding: string | undefined) {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

function describeError(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  const message = err.cause?.message ?? err.message ?? String(e);
  return code ? `${code}: ${message}` : message;
}
