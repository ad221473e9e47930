// The crawler's HTTP edge: one GET, no automatic redirects (the crawler follows them itself so that each
// hop is checked against scope and robots), compression accepted, timeouts for connect, headers and body,
// a deadline and a minimum rate for the whole request (transfer-guard.ts), a body size cap, and bodies of
// unwanted types never read (http-body.ts). The outcome is a value, never an exception.

import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import {
  adoptBody,
  discardBody,
  failedOnClosedConnection,
  guardTransfer,
  lenientRequest,
  protocolErrorMessage,
  proxiedBy,
  proxyFromEnv,
  readBody,
  redirectLocation,
  watchReusedConnections,
  withLenientFallback,
  type HttpTransport,
  type ProxySettings,
  type TransferGuard,
  type TransferLimits,
} from '../shared/http/index.js';
import { mediaType } from './media-type.js';
import { isUnknownType, sniffedType } from './sniff.js';

export interface FetchRequest {
  url: string;
  headers: Record<string, string>;
  maxBodyBytes: number;
  /** Media types whose bodies are read; others answer `unwanted-type` without reading. */
  wantedTypes: readonly string[];
  /** The request's deadline and minimum rate: past them it ends as a `network-error` saying which. */
  limits: TransferLimits;
  /** The caller's stop (Ctrl-C): aborts the request under way; it ends as a `network-error`. */
  signal?: AbortSignal;
  /** Time to open a connection of the lenient reader (shared/http/lenient-fallback.ts); the client's own
   * is set where it is made. Default: LENIENT_REQUEST_DEFAULTS. */
  connectTimeoutMs?: number;
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
  | {
      kind: 'network-error';
      error: string;
      /** The answer's status and media type when it failed after its headers (a body cut short, too
       * slow, or not the Content-Encoding it says): the server did answer. */
      status?: number;
      contentType?: string;
    };

export interface HttpClientOptions {
  /** Connections per origin: as many as the scheduler lets requests run at once to one host. */
  hostConnections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export { mediaType };

/** HTML, plain text, PDF and Word documents are what Gleaner indexes (crawler/documents.ts). */
export const PAGE_TYPES: readonly string[] = ['text/html', 'application/xhtml+xml', 'text/plain', 'application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'];

/** Bytes of response headers read before the answer is refused, as Chrome's limit. */
export const MAX_HEADER_BYTES = 256 * 1024;

/** The proxy each client was made with (none: undefined), for fetchOnce's choice of readers. */
const clientProxies = new WeakMap<Dispatcher, ProxySettings | undefined>();

/** Politeness is enforced by the scheduler, and the pool agrees with it: one connection per request it
 * lets run at once to an origin, each with one request at a time (no pipelining). Through the proxy the
 * environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY: shared/http/proxy.ts), as wget and curl. */
export function createHttpClient(options: HttpClientOptions): Dispatcher {
  watchReusedConnections();
  const settings = {
    connections: options.hostConnections,
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    // Chrome reads up to 256 KB of headers; Node's 16 KB default refused pages whose servers set a
    // 64 KB cookie or Content-Security-Policy ("Headers Overflow").
    maxHeaderSize: MAX_HEADER_BYTES,
    bodyTimeout: options.bodyTimeoutMs,
    keepAliveTimeout: 10_000,
  };
  const proxy = proxyFromEnv();
  const client = proxy === undefined ? new Agent(settings) : new EnvHttpProxyAgent({ ...settings, ...proxy });
  clientProxies.set(client, proxy);
  return client;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export async function fetchOnce(client: Dispatcher, req: FetchRequest): Promise<FetchOutcome> {
  const guard = guardTransfer(req.limits, req.signal);
  const strict: HttpTransport = async (url, init) => {
    const ask = () => request(url, { method: 'GET', headers: init.headers, dispatcher: client, signal: init.signal });
    // A connection the server closed as this request went out on it: asked again at once on a new one,
    // within the same deadline (stale-connection.ts).
    return ask().catch((e: unknown) => {
      if (!failedOnClosedConnection(e) || guard.reason() !== undefined) throw e;
      return ask();
    });
  };
  const lenient: HttpTransport | undefined =
    proxiedBy(req.url, clientProxies.get(client)) === undefined
      ? (url, init) => lenientRequest(url, { ...init, maxHeaderBytes: MAX_HEADER_BYTES, ...(req.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: req.connectTimeoutMs }) })
      : undefined;
  const answered: Answered = {};
  try {
    return await withLenientFallback(req.url, strict, lenient, (transport) => fetchGuarded(transport, req, guard, answered), () => guard.reason() !== undefined);
  } catch (e) {
    const error = guard.reason() ?? describeError(e);
    return answered.status === undefined ? { kind: 'network-error', error } : { kind: 'network-error', error, status: answered.status, contentType: answered.contentType ?? '' };
  } finally {
    guard.dispose();
  }
}

/** The status and media type of an answer whose headers came, for a failure after them. */
interface Answered {
  status?: number;
  contentType?: string;
}

async function fetchGuarded(transport: HttpTransport, req: FetchRequest, guard: TransferGuard, answered: Answered): Promise<FetchOutcome> {
  const res = await transport(req.url, { headers: req.headers, signal: guard.signal });
  adoptBody(res.body);
  guard.bodyStarted();
  const { statusCode: status, headers } = res;
  const contentType = mediaType(headers['content-type']);
  answered.status = status;
  answered.contentType = contentType;
  if (status >= 300 && status < 400 && status !== 304) {
    await discardBody(res.body);
    const location = redirectLocation(headers['location']);
    if (location === undefined) return { kind: 'status', status, headers, contentType };
    return { kind: 'redirect', status, location, headers };
  }
  if (status === 304) {
    await discardBody(res.body);
    return { kind: 'not-modified', status: 304, headers };
  }
  if (status < 200 || status >= 300) {
    await discardBody(res.body);
    return { kind: 'status', status, headers, contentType };
  }
  if (!isUnknownType(contentType, req.url) && !req.wantedTypes.includes(contentType)) {
    // Not read beyond a small body that came with the headers: an image or an archive costs the site
    // bandwidth and us nothing useful.
    await discardBody(res.body);
    return { kind: 'unwanted-type', status, contentType, headers };
  }
  const { body, truncated } = await readBody(res.body, {
    encoding: headerValue(headers, 'content-encoding'),
    maxBytes: req.maxBodyBytes,
    onBytes: (n) => guard.received(n),
    signal: guard.signal,
  });
  // A body with no usable type is what its first bytes say, and one that opens as an image or an
  // archive is one whatever its header says (sniff.ts).
  const sniffed = sniffedType(contentType, body, req.url);
  if (!req.wantedTypes.includes(sniffed)) return { kind: 'unwanted-type', status, contentType: sniffed, headers };
  return { kind: 'body', status, headers, contentType: sniffed, body, truncated };
}

function describeError(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  const message = err.cause?.message ?? err.message ?? String(e);
  return protocolErrorMessage(code, message) ?? (code ? `${code}: ${message}` : message);
}
