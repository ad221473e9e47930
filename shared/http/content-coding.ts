// Content-Encoding as browsers decode it, for the messy web (http-body.ts reads through these):
// - `deflate` is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but servers have long sent raw deflate
//   under that name; browsers and curl accept both, told apart by the zlib header. Raw deflate was an
//   error here, and the page was lost.
// - A stream cut short by its server (a complete HTTP response holding half a gzip stream) shows in a
//   browser as far as it goes; here it was an error. Decoders flush what they have at the end instead of
//   failing (Node's documented way to read truncated data); a stream that is not what it claims (plain
//   text sent as gzip) is still an error.
// - Codings listed in order (`gzip, br`) are undone in reverse, as RFC 9110 8.4 says.
// - Bytes after the end of the compressed stream (a CRLF a server appends, padding, junk) are left
//   unread, as browsers and curl leave them: Node's gunzip took them for another gzip member and failed,
//   losing the page with the output of the write that met them, and its inflate stopped at the stream's
//   end in a way the old deflate wrapper waited on forever (a crawl hung on one page).

import { Transform, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createInflate, createInflateRaw } from 'node:zlib';

const TOLERANT = { finishFlush: constants.Z_SYNC_FLUSH };
const EMPTY: Buffer = Buffer.alloc(0);

/** The error of bytes that are not the coding they are sent as, shaped as zlib's own (code and errno),
 * so http-body.ts reads it as an undecodable body. */
function notTheCoding(message: string): Error {
  return Object.assign(new Error(message), { errno: constants.Z_DATA_ERROR, code: 'Z_DATA_ERROR' });
}

/** Whether two bytes open a zlib stream (RFC 1950: deflate method, header checksum). */
function isZlibHeader(b0: number, b1: number): boolean {
  return (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

/**
 * One zlib inflater fed a chunk at a time, which says where its compressed stream ended. zlib takes no
 * input past that end, so what it left of a write (`fed - bytesWritten`) is what follows the stream.
 */
class StreamInflater {
  private fed = 0;

  constructor(private readonly inner: Transform & { readonly bytesWritten: number }, into: Transform) {
    inner.on('data', (d: Buffer) => into.push(d));
    inner.on('error', (e) => into.destroy(e));
  }

  /** Writes `input`, then gives `then` the bytes of it after the stream's end (empty while it goes on). */
  write(input: Buffer, then: (rest: Buffer) => void): void {
    this.fed += input.length;
    this.inner.write(input, () => {
      const left = this.fed - this.inner.bytesWritten;
      then(left > 0 ? input.subarray(input.length - left) : EMPTY);
    });
  }

  /** Calls `then` once every output byte is pushed: at once when the stream ended, else after flushing
   * what a stream cut short holds. */
  finish(then: () => void, ended: boolean): void {
    if (this.inner.readableEnded) { then(); return; }
    this.inner.once('end', then);
    if (!ended) this.inner.end();
  }

  destroy(): void {
    this.inner.destroy();
  }
}

/** Inflates zlib-wrapped or raw deflate, whichever the first two bytes say; what follows its end is left. */
class InflateEitherWay extends Transform {
  private inner: StreamInflater | undefined;
  private head: Buffer = EMPTY;
  private ended = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.ended) { done(); return; }
    if (this.inner === undefined) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) { done(); return; }
      chunk = this.start();
    }
    this.inner!.write(chunk, (rest) => {
      if (rest.length > 0) this.ended = true;
      done();
    });
  }

  override _flush(done: TransformCallback): void {
    if (this.inner !== undefined) { this.inner.finish(() => done(), this.ended); return; }
    if (this.head.length === 0) { done(); return; }
    const head = this.start();
    this.inner!.write(head, (rest) => this.inner!.finish(() => done(), rest.length > 0));
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.inner?.destroy();
    done(error);
  }

  /** Makes the inflater the head's first bytes call for; returns the head, to be written first. */
  private start(): Buffer {
    const make = isZlibHeader(this.head[0]!, this.head[1] ?? 0) ? createInflate : createInflateRaw;
    this.inner = new StreamInflater(make(TOLERANT), this);
    const head = this.head;
    this.head = EMPTY;
    return head;
  }
}

// RFC 1952's member header: ID1 ID2 CM FLG MTIME(4) XFL OS, then the optional fields FLG names.
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const NEED_MORE = -1;
const NOT_GZIP = -2;
/** A header longer than this (an unending file name) is not read on: a gzip writer names a file, not a book. */
const MAX_HEADER_BYTES = 64 * 1024;
const TRAILER_BYTES = 8;
/**
 * Members read of one body; the rest is left unread, as junk after the stream is. Each member costs a
 * fresh inflater: a 5 MB body of 230,000 tiny members took 30 s and 1.2 GB to crawl as one page, where a
 * 5 MB gzip bomb takes a second. bgzip's 64 KB blocks or a server's member per flush come to hundreds.
 */
export const MAX_GZIP_MEMBERS = 1000;

/** The length of the gzip member header `b` opens with, NEED_MORE bytes to tell, or NOT_GZIP. */
export function gzipHeaderLength(b: Uint8Array): number {
  if (b.length >= 1 && b[0] !== 0x1f) return NOT_GZIP;
  if (b.length >= 2 && b[1] !== 0x8b) return NOT_GZIP;
  if (b.length >= 3 && b[2] !== 8) return NOT_GZIP;
  if (b.length >= 4 && (b[3]! & 0xe0) !== 0) return NOT_GZIP;
  if (b.length < 10) return NEED_MORE;
  const flags = b[3]!;
  let at = 10;
  if (flags & FEXTRA) {
    if (b.length < at + 2) return NEED_MORE;
    at += 2 + (b[at]! | (b[at + 1]! << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if ((flags & flag) === 0) continue;
    const end = at < b.length ? b.indexOf(0, at) : -1;
    if (end < 0) return NEED_MORE;
    at = end + 1;
  }
  if (flags & FHCRC) at += 2;
  return b.length >= at ? at : NEED_MORE;
}

/**
 * Undoes gzip a member at a time (RFC 1952: members may follow one another): each header read here,
 * the member's deflate data inflated raw, its 8-byte trailer skipped. Bytes after a member that do not
 * open another, or after MAX_GZIP_MEMBERS members, end the body. Neither CRC (the header's, the
 * trailer's) is checked: a stream cut short is read as far as it goes anyway, and a browser shows a
 * page whose checksum is wrong.
 */
class GunzipMembers extends Transform {
  /** Bytes received and not yet parsed or given to the member's inflater. */
  private input: Buffer = EMPTY;
  private inflater: StreamInflater | undefined;
  private trailer = 0;
  private members = 0;
  /** A member ended and no other followed: the rest is left unread. */
  private over = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.over) { done(); return; }
    this.input = this.input.length === 0 ? chunk : Buffer.concat([this.input, chunk]);
    this.advance(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.inflater === undefined) { done(); return; }
    this.inflater.finish(() => done(), false);
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.inflater?.destroy();
    done(error);
  }

  private advance(done: TransformCallback): void {
    while (!this.over && this.input.length > 0) {
      const inflater = this.inflater;
      if (inflater !== undefined) {
        const input = this.input;
        this.input = EMPTY;
        inflater.write(input, (rest) => {
          if (rest.length === 0) { done(); return; }
          // The member's deflate data ended inside `input`: its trailer follows, and maybe a member.
          this.inflater = undefined;
          this.trailer = TRAILER_BYTES;
          this.input = rest;
          inflater.finish(() => this.advance(done), true);
        });
        return;
      }
      if (this.trailer > 0) {
        const skipped = Math.min(this.trailer, this.input.length);
        this.trailer -= skipped;
        this.input = this.input.subarray(skipped);
        continue;
      }
      const header = gzipHeaderLength(this.input);
      if (header === NEED_MORE && this.input.length <= MAX_HEADER_BYTES) break;
      if (header < 0 || this.members === MAX_GZIP_MEMBERS) {
        if (this.members === 0) { done(notTheCoding('incorrect header check')); return; }
        this.over = true;
        break;
      }
      this.members++;
      this.input = this.input.subarray(header);
      this.inflater = new StreamInflater(createInflateRaw(TOLERANT), this);
    }
    if (this.over) this.input = EMPTY;
    done();
  }
}

function decoderFor(coding: string): Transform | undefined | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return new GunzipMembers();
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
