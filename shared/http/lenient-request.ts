// One GET over a connection of its own, its answer read by lenient-parse.ts: the second reading for a
// server whose answer undici's strict parser refused (lenient-fallback.ts). Connection: close, so the
// response ends where the connection does when nothing else says; the caller's signal (the transfer
// guard's deadline, minimum rate and Ctrl-C) ends it at any point, and a connect timeout bounds the
// handshake. The body is a stream with backpressure (the socket pauses while the reader is behind) and a
// `dump` as undici's has, so the readers of http-body.ts take either.

import { connect as netConnect, isIP, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { adoptBody } from './http-body.js';
import { bodyFraming, ChunkedDecoder, headEnd, leadingEmptyLines, LenientProtocolError, opensStatusLine, parseResponseHead, type BodyFraming } from './lenient-parse.js';

/** A response body as the readers take it: undici's BodyReadable or the lenient reader's. */
export type ResponseBody = Readable & { dump(opts?: { limit?: number }): Promise<unknown> };

/** An answer's status and headers, its body still to read: what undici's request() and lenientRequest()
 * both give. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: ResponseBody;
}

export interface LenientRequestOptions {
  /** Request headers; Host and Connection are the reader's own. */
  headers: Record<string, string>;
  /** Ends the request, before or after its headers came, with the signal's reason. */
  signal: AbortSignal;
  /** Time to open the connection (TCP and TLS) before the request fails. */
  connectTimeoutMs?: number;
  /** Bytes of head read before the answer is refused (Chrome's limit, as the crawler's client). */
  maxHeaderBytes?: number;
  /** Certificates (PEM) trusted for https instead of Node's bundled ones; certificates are always
   * verified, as undici verifies them. Default: Node's. */
  ca?: string;
}

export const LENIENT_REQUEST_DEFAULTS: Required<Pick<LenientRequestOptions, 'connectTimeoutMs' | 'maxHeaderBytes'>> = { connectTimeoutMs: 10_000, maxHeaderBytes: 256 * 1024 };

/** What a too-large head is called, in undici's words for it (protocol-error.ts). */
const HEADERS_TOO_LARGE = 'headers larger than a browser reads';

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'aborted'));
}

export function lenientRequest(url: string, options: LenientRequestOptions): Promise<HttpResponse> {
  const { connectTimeoutMs, maxHeaderBytes } = { ...LENIENT_REQUEST_DEFAULTS, ...definedOnly(options) };
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const port = Number(u.port || (secure ? 443 : 80));
  let head = `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n`;
  for (const [name, value] of Object.entries(options.headers)) {
    // undici refuses such values; written raw, a CR or LF (an ETag a server sent, read back leniently)
    // would end the line and start a header of the server's choosing.
    if (/^(host|connection)$/i.test(name) || /[\r\n\0]/.test(name + value)) continue;
    head += `${name}: ${value}\r\n`;
  }
  head += 'Connection: close\r\n\r\n';

  return new Promise<HttpResponse>((resolve, reject) => {
    const { signal } = options;
    if (signal.aborted) {
      reject(reasonOf(signal));
      return;
    }
    const socket: Socket = secure ? tlsConnect({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) ? {} : { servername: host }), ...(options.ca === undefined ? {} : { ca: options.ca }) }) : netConnect({ host, port });
    let body: Readable | undefined;
    let framing: BodyFraming = { kind: 'until-close' };
    let bytesLeft = 0;
    const chunks = new ChunkedDecoder();
    let pending: Buffer = Buffer.alloc(0);
    let over = false;

    const cleanup = (): void => {
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
    };
    const fail = (e: Error): void => {
      if (over) return;
      over = true;
      cleanup();
      socket.destroy();
      if (body !== undefined) body.destroy(e);
      else reject(e);
    };
    const finish = (): void => {
      if (over) return;
      over = true;
      cleanup();
      socket.destroy();
      body?.push(null);
    };
    const onAbort = (): void => fail(reasonOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    const connectTimer = setTimeout(() => fail(new Error(`connect timeout: no connection to ${u.host} within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    connectTimer.unref();
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      socket.write(head);
    });
    socket.on('error', (e) => fail(e));

    const deliver = (bytes: Uint8Array): void => {
      if (bytes.length > 0 && !body!.push(bytes)) socket.pause();
    };
    const feed = (bytes: Uint8Array): void => {
      if (framing.kind === 'until-close') deliver(bytes);
      else if (framing.kind === 'length') {
        const n = Math.min(bytesLeft, bytes.length);
        deliver(bytes.subarray(0, n));
        bytesLeft -= n;
        if (bytesLeft === 0) finish();
      } else if (framing.kind === 'chunked') {
        const { data, done } = chunks.push(bytes);
        for (const d of data) deliver(d);
        if (done) finish();
      }
    };

    socket.on('data', (chunk: Buffer) => {
      try {
        if (body !== undefined) {
          feed(chunk);
          return;
        }
        // Scanned from where the last arrival's scan stopped (less the two bytes an empty line can
        // straddle): a head dripped a byte at a time is read in linear time, not quadratic.
        const scanFrom = Math.max(0, pending.length - 2);
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (let from = scanFrom; ; from = 0) {
          // Empty lines before a status line are skipped, as llhttp (undici's parser) skips them.
          const blank = leadingEmptyLines(pending);
          if (blank > 0) {
            pending = pending.subarray(blank);
            from = 0;
          }
          // Bytes that cannot open a status line (an HTTP/0.9 answer, a body with no head) are refused
          // as they come, as llhttp refuses them, not taken for a connection closed early and retried.
          if (!opensStatusLine(pending)) throw new LenientProtocolError('Expected HTTP/');
          const end = headEnd(pending, from);
          if (end < 0) {
            if (pending.length > maxHeaderBytes) throw new LenientProtocolError(HEADERS_TOO_LARGE);
            return;
          }
          if (end > maxHeaderBytes) throw new LenientProtocolError(HEADERS_TOO_LARGE);
          const parsed = parseResponseHead(pending.subarray(0, end).toString('latin1'));
          pending = pending.subarray(end);
          if (parsed.status === 101) throw new LenientProtocolError('a 101 Switching Protocols to a request that asked for no upgrade');
          // 100 Continue, 102, 103 Early Hints: interim answers, skipped as browsers skip them.
          if (parsed.status < 200) continue;
          framing = bodyFraming(parsed);
          if (framing.kind === 'length') bytesLeft = framing.bytes;
          body = responseBody(socket);
          resolve({ statusCode: parsed.status, headers: parsed.headers, body: body as ResponseBody });
          if (framing.kind === 'none' || (framing.kind === 'length' && bytesLeft === 0)) finish();
          else feed(pending);
          pending = Buffer.alloc(0);
          return;
        }
      } catch (e) {
        fail(e as Error);
      }
    });
    socket.on('end', () => {
      if (body === undefined) fail(new Error('other side closed: the connection ended before a response'));
      else if (framing.kind === 'until-close' || (framing.kind === 'chunked' && chunks.complete)) finish();
      else fail(new Error(framing.kind === 'length' ? `other side closed: the body ended ${bytesLeft} bytes before its Content-Length` : 'other side closed: the body ended before its last chunk'));
    });
    socket.on('close', () => {
      if (body === undefined) fail(new Error('other side closed: the connection ended before a response'));
      else if (framing.kind === 'until-close' || (framing.kind === 'chunked' && chunks.complete)) finish();
      else fail(new Error('other side closed: the connection ended inside the body'));
    });
  });
}

function responseBody(socket: Socket): Readable {
  const body = new Readable({
    read() {
      socket.resume();
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  // The head's bytes may end the body (a bad chunk) before the caller holds it: the error is kept for the
  // reader (stream.errored), not thrown as an event nobody hears (http-body.ts).
  adoptBody(body);
  // What undici's body offers for a body thrown away: here the connection is closed anyway.
  return Object.assign(body, {
    dump: (): Promise<void> => {
      body.destroy();
      return Promise.resolve();
    },
  });
}

function definedOnly(options: LenientRequestOptions): Partial<typeof LENIENT_REQUEST_DEFAULTS> {
  const out: { connectTimeoutMs?: number; maxHeaderBytes?: number } = {};
  if (options.connectTimeoutMs !== undefined) out.connectTimeoutMs = options.connectTimeoutMs;
  if (options.maxHeaderBytes !== undefined) out.maxHeaderBytes = options.maxHeaderBytes;
  return out;
}
