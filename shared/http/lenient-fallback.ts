// When a server's answer is read a second time, leniently. undici's parser is strict where browsers,
// curl and wget are not: it refuses lines ended by a bare LF, a space before a header's colon, a folded
// header, a control byte in a value, the same Content-Length twice, Transfer-Encoding beside
// Content-Length, a 100 Continue nobody asked for. Such servers are old, embedded or home-made, common
// on intranets, and every browser shows their pages; undici offers no lenient mode. So a request undici
// refuses for the protocol's sake is asked once more over a connection read by lenient-parse.ts, within
// the same deadline, and the origin is remembered, so its next requests go straight to the lenient
// reader (one request a page, as before). When the lenient reading refuses the answer too (not HTTP,
// differing Content-Lengths, a chunk size that is not hex), its refusal, in the words undici uses, is
// the error, and that answer is, as before, not asked again (protocol-error.ts).

import { httpProtocolError } from './protocol-error.js';
import type { HttpResponse } from './lenient-request.js';

/** One GET: undici's request() or lenientRequest(), with the request's headers and guard signal. */
export type HttpTransport = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<HttpResponse>;

/** Origins remembered at most; the oldest is forgotten first. */
const REMEMBERED_ORIGINS = 10_000;
const lenientOrigins = new Set<string>();

function originOf(url: string): string {
  return new URL(url).origin;
}

/** Whether an error is undici refusing an answer for the protocol's sake, in a way a lenient reading may
 * accept: its parser's errors, a body length that does not match the (repeated) Content-Length, and the
 * interim 100 Continue it cannot skip. Not a head larger than a browser reads, which is as large to any
 * reader. */
export function refusedByStrictParser(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = e.cause?.code ?? e.code;
  const said = e.cause?.message ?? e.message;
  const message = typeof said === 'string' ? said : '';
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return false;
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return true;
  if (code === 'UND_ERR_SOCKET' && message === 'bad response') return true;
  return httpProtocolError(message) !== undefined;
}

/**
 * Runs `attempt` (a request and the reading of its answer) with the strict transport, and once more with
 * the lenient one (none through a proxy) when the strict parser refused the answer and the caller has not
 * stopped it (`stopped()`: the guard's deadline or Ctrl-C). An origin whose answers needed the lenient
 * reading goes straight to it afterwards. Errors are the last attempt's.
 */
export async function withLenientFallback<T>(url: string, strict: HttpTransport, lenient: HttpTransport | undefined, attempt: (transport: HttpTransport) => Promise<T>, stopped: () => boolean): Promise<T> {
  // Through a proxy (proxy.ts) there is no connection of our own to read leniently.
  if (lenient === undefined) return attempt(strict);
  const origin = originOf(url);
  if (lenientOrigins.has(origin)) return attempt(lenient);
  try {
    return await attempt(strict);
  } catch (strictError) {
    if (stopped() || !refusedByStrictParser(strictError)) throw strictError;
    const result = await attempt(lenient);
    remember(origin);
    return result;
  }
}

function remember(origin: string): void {
  if (lenientOrigins.size >= REMEMBERED_ORIGINS) lenientOrigins.delete(lenientOrigins.values().next().value!);
  lenientOrigins.add(origin);
}

/** Forgets the remembered origins (tests, each starting as a fresh process would). */
export function forgetLenientOrigins(): void {
  lenientOrigins.clear();
}
