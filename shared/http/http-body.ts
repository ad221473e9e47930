// Response bodies from undici, read or thrown away safely: the one place that touches them. undici
// answers a body destroyed before its end with an 'error' event (RequestAbortedError, also when the
// whole small body had already arrived), and an 'error' with no listener kills the process. So every
// body gets a listener before anything else is done with it, and readers turn errors into exceptions
// their callers catch, never into events nobody hears.

import { pipeline, type Readable } from 'node:stream';
import { decodersFor } from './content-coding.js';

const noop = (): void => {};
const adopted = new WeakSet<Readable>();

/** Bytes read from a body that is thrown away: enough to keep the connection for a small error page. */
export const DISCARD_LIMIT_BYTES = 64 * 1024;

/** Gives `body` an error listener (once), so destroying or aborting it can never crash the process. */
export function adoptBody<T extends Readable>(body: T): T {
  if (!adopted.has(body)) {
    adopted.add(body);
    body.on('error', noop);
  }
  return body;
}

/**
 * Throws a body away: read to its end when small (the connection can then be reused), dropped with the
 * connection when larger. Never rejects; bounded by the request's own abort signal.
 */
export async function discardBody(body: Readable & { dump(opts?: { limit?: number }): Promise<unknown> }): Promise<void> {
  adoptBody(body);
  try {
    await body.dump({ limit: DISCARD_LIMIT_BYTES });
  } catch {
    /* the connection is dropped instead of reused: harmless */
  }
}

export interface ReadBodyOptions {
  /** Content-Encoding of the body: gzip, deflate (zlib or raw) and br are undone (content-coding.ts), anything else read as is. */
  encoding?: string;
  /** Decoded bytes kept at most; reading stops (and the connection is dropped) beyond that. */
  maxBytes: number;
  /** Told of every chunk as it comes off the wire, before decoding (the transfer rate is of these). */
  onBytes?: (bytes: number) => void;
  /** The request's own (transfer-guard.ts): aborting it ends the read, decoders included. Aborting the
   * request destroys the raw body, but a body already received no longer listens, and a decoder that
   * waited on its end forever once hung a crawl past every deadline. */
  signal?: AbortSignal;
}

/** The message of a body that is not the Content-Encoding it says (plain text sent as `br`, gzip's header
 * wrong): the same bytes on every try, so, as browsers do (ERR_CONTENT_DECODING_FAILED), an error page
 * at once rather than a retry. A stream cut short is not this: decoders read it as far as it goes. */
export const UNDECODABLE_BODY = 'the body is not the Content-Encoding it says';

/** Whether an error message says the body was undecodable (UNDECODABLE_BODY). */
export function isUndecodableBody(message: string): boolean {
  return message.includes(UNDECODABLE_BODY);
}

/** An error of a decoder itself (zlib's Z_DATA_ERROR, brotli's format errors), not one that reached it
 * from the connection (an abort, a reset, the deadline). */
function isDecoderError(e: unknown): e is Error {
  const err = e as { errno?: unknown; code?: unknown };
  return e instanceof Error && typeof err.errno === 'number' && typeof err.code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(err.code);
}

/** Reads a body up to `maxBytes` decoded bytes. Rejects when the body breaks (aborted, reset, bad gzip). */
export async function readBody(raw: Readable, options: ReadBodyOptions): Promise<{ body: Uint8Array; truncated: boolean }> {
  adoptBody(raw);
  const onBytes = options.onBytes ?? noop;
  const decoders = decodersFor(options.encoding);
  const decoder = decoders.length > 0;
  let stream: Readable = raw;
  if (decoder) {
    raw.on('data', (chunk: Buffer) => onBytes(chunk.length));
    // pipeline, not pipe: an error or early end of any stream destroys them all, so a broken raw body
    // ends the read instead of leaving it waiting on a decoder that will never finish.
    for (const d of decoders) stream = pipeline(stream, adoptBody(d), noop);
  }
  let undecodable: Error | undefined;
  for (const d of decoders) d.once('error', (e) => (undecodable ??= isDecoderError(e) ? e : undefined));
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const { signal } = options;
  const stop = (): void => {
    stream.destroy(signal?.reason instanceof Error ? signal.reason : new Error('the request was aborted'));
  };
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!decoder) onBytes(chunk.length);
      if (size + chunk.length > options.maxBytes) {
        chunks.push(chunk.subarray(0, options.maxBytes - size));
        size = options.maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (e) {
    // No `cause`: the crawler's message of an error is its cause's when it has one (undici's wrappers).
    if (undecodable !== undefined) throw new Error(`${UNDECODABLE_BODY} (${options.encoding ?? ''}: ${undecodable.message})`);
    throw e;
  } finally {
    signal?.removeEventListener('abort', stop);
    // Whatever ended the loop, nothing is left half-read holding the connection.
    if (!raw.readableEnded) raw.destroy();
    for (const d of decoders) d.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
