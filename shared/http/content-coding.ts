// Content-Encoding as browsers decode it, for the messy web (http-body.ts reads through these):
// - `deflate` is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but servers have long sent raw deflate
//   under that name; browsers and curl accept both, told apart by the zlib header. Raw deflate was an
//   error here, and the page was lost.
// - A stream cut short by its server (a complete HTTP response holding half a gzip stream) shows in a
//   browser as far as it goes; here it was an error. Decoders flush what they have at the end instead of
//   failing (Node's documented way to read truncated data); a stream that is not what it claims (plain
//   text sent as gzip) is still an error.
// - Codings listed in order (`gzip, br`) are undone in reverse, as RFC 9110 8.4 says.

import { Transform, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

const TOLERANT = { finishFlush: constants.Z_SYNC_FLUSH };

/** Whether two bytes open a zlib stream (RFC 1950: deflate method, header checksum). */
function isZlibHeader(b0: number, b1: number): boolean {
  return (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

/** Inflates zlib-wrapped or raw deflate, whichever the first two bytes say. */
class InflateEitherWay extends Transform {
  private inner: Transform | undefined;
  private head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.inner) {
      this.inner.write(chunk, () => done());
      return;
    }
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 2) { done(); return; }
    this.start();
    this.inner!.write(this.head, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner) {
      if (this.head.length === 0) { done(); return; }
      this.start();
      this.inner!.write(this.head);
    }
    this.inner!.once('end', () => done());
    this.inner!.end();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.inner?.destroy();
    done(error);
  }

  private start(): void {
    const inner = isZlibHeader(this.head[0]!, this.head[1] ?? 0) ? createInflate(TOLERANT) : createInflateRaw(TOLERANT);
    inner.on('data', (d: Buffer) => this.push(d));
    inner.on('error', (e) => this.destroy(e));
    this.inner = inner;
  }
}

function decoderFor(coding: string): Transform | undefined | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(TOLERANT);
    case 'deflate':
      return new InflateEitherWay();
    case 'br':
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    case 'identity':
    case '':
      return undefined;
    default:
      return null; // unknown: the body is read as sent
  }
}

/**
 * The decoders that undo a Content-Encoding value, outermost first (the order to pipe them in); empty
 * when there is nothing to undo or a coding is unknown (the body is then read as sent).
 */
export function decodersFor(encoding: string | undefined): Transform[] {
  const codings = (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).reverse();
  const decoders: Transform[] = [];
  for (const coding of codings) {
    const d = decoderFor(coding);
    if (d === null) {
      for (const made of decoders) made.destroy();
      return [];
    }
    if (d) decoders.push(d);
  }
  return decoders;
}
