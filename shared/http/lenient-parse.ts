// HTTP/1.x responses read the way browsers and curl read them, for the servers undici's strict parser
// refuses (lenient-request.ts is the transfer, lenient-fallback.ts decides when). What is tolerated is
// what Chromium's HttpResponseHeaders and curl tolerate, and what real servers send: lines ended by a
// bare LF, a header line without a colon (skipped), spaces before a colon or inside a name, folded
// lines, control bytes in a value, any HTTP/1.x version, both Transfer-Encoding and Content-Length (the
// chunked coding wins, RFC 9112 6.3), the same Content-Length twice, chunk lines ended by a bare LF or
// by nothing. What is still refused is what a browser refuses too: bytes that are not HTTP, differing
// Content-Lengths, a chunk size that is not hex. Pure.

/** The words every refusal carries, as undici's own (protocol-error.ts reads them). */
export const PROTOCOL_REFUSAL = 'Response does not match the HTTP/1.1 protocol';

export class LenientProtocolError extends Error {
  constructor(why: string) {
    super(`${PROTOCOL_REFUSAL} (${why})`);
    this.name = 'LenientProtocolError';
  }
}

export type ResponseHeaders = Record<string, string | string[]>;

export interface ResponseHead {
  status: number;
  /** Names lower-cased; a name given more than once has its values in order, as undici gives them. */
  headers: ResponseHeaders;
}

const LF = 0x0a;
const CR = 0x0d;

/** How many bytes of CR and LF `bytes` opens with: empty lines a server sent before its status line. */
export function leadingEmptyLines(bytes: Uint8Array): number {
  let n = 0;
  while (n < bytes.length && (bytes[n] === CR || bytes[n] === LF)) n++;
  return n;
}

const HTTP_SLASH = 'HTTP/';

/** Whether `bytes` may still open a status line: its first bytes are "HTTP/" (any case) or the start of it. */
export function opensStatusLine(bytes: Uint8Array): boolean {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HTTP_SLASH.length));
  return HTTP_SLASH.startsWith(start.toString('latin1').toUpperCase());
}

/** Where the head in `bytes` ends: the index of its last byte + 1 (after the empty line), or -1 while
 * the empty line has not come. An empty line is LF LF or LF CR LF. */
export function headEnd(bytes: Uint8Array, from = 0): number {
  for (let i = Math.max(0, from); i < bytes.length; i++) {
    if (bytes[i] !== LF) continue;
    if (bytes[i + 1] === LF) return i + 2;
    if (bytes[i + 1] === CR && bytes[i + 2] === LF) return i + 3;
  }
  return -1;
}

const STATUS_LINE = /^HTTP\/\d+(?:\.\d+)?[ \t]+(\d{3})(?:[ \t].*)?$/i;

/** Parses a head (status line and header lines, latin1 text, its empty line included or not). Throws
 * LenientProtocolError when the first line is not an HTTP status line. */
export function parseResponseHead(text: string): ResponseHead {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const statusLine = /^HTTP\/\S*[ \t]+(\d{3})/i.test(lines[0] ?? '') ? STATUS_LINE.exec(lines[0]!.trimEnd()) : null;
  if (statusLine === null) throw new LenientProtocolError('Expected HTTP/');
  const headers: ResponseHeaders = {};
  let last: string | undefined;
  const put = (name: string, value: string): void => {
    const was = headers[name];
    headers[name] = was === undefined ? value : Array.isArray(was) ? [...was, value] : [was, value];
  };
  for (const line of lines.slice(1)) {
    if (line === '') break;
    if ((line[0] === ' ' || line[0] === '\t') && last !== undefined) {
      // A folded line continues the last value (RFC 9112 5.2: replaced by a space).
      const was = headers[last]!;
      const more = line.trim();
      if (Array.isArray(was)) was[was.length - 1] = `${was[was.length - 1]} ${more}`.trim();
      else headers[last] = `${was} ${more}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // no name: skipped, as Chromium skips it
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === '') continue;
    last = name;
    put(name, line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine[1]), headers };
}

/** How the body after a head is delimited. */
export type BodyFraming = { kind: 'none' } | { kind: 'length'; bytes: number } | { kind: 'chunked' } | { kind: 'until-close' };

function values(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

/** The body's framing for a response to a GET (RFC 9112 6.3). Throws LenientProtocolError for
 * Content-Lengths that disagree or are not numbers, which no reader can resolve. */
export function bodyFraming(head: ResponseHead): BodyFraming {
  if ((head.status >= 100 && head.status < 200) || head.status === 204 || head.status === 304) return { kind: 'none' };
  const codings = values(head.headers['transfer-encoding']).map((s) => s.toLowerCase());
  if (codings.length > 0) return codings[codings.length - 1] === 'chunked' ? { kind: 'chunked' } : { kind: 'until-close' };
  const lengths = values(head.headers['content-length']);
  if (lengths.length === 0) return { kind: 'until-close' };
  if (!lengths.every((l) => /^\d{1,15}$/.test(l))) throw new LenientProtocolError('Invalid Content-Length');
  if (new Set(lengths.map(Number)).size > 1) throw new LenientProtocolError('Content-Length values differ');
  return { kind: 'length', bytes: Number(lengths[0]) };
}

/**
 * Undoes the chunked coding as bytes arrive, tolerating chunk lines ended by a bare LF and chunk data
 * not followed by a line end. `push` returns the data bytes of what came (views into it) and whether the
 * last chunk and its trailers have been read; it throws LenientProtocolError for a size that is not hex.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'after-data' | 'trailers' | 'done' = 'size';
  private line = '';
  private left = 0;
  private sawCR = false;

  /** The last chunk has come (its trailers may not have: a server closing there has sent it all). */
  get complete(): boolean {
    return this.state === 'done' || this.state === 'trailers';
  }

  push(bytes: Uint8Array): { data: Uint8Array[]; done: boolean } {
    const data: Uint8Array[] = [];
    let i = 0;
    while (i < bytes.length && this.state !== 'done') {
      if (this.state === 'data') {
        const n = Math.min(this.left, bytes.length - i);
        data.push(bytes.subarray(i, i + n));
        i += n;
        this.left -= n;
        if (this.left === 0) {
          this.state = 'after-data';
          this.sawCR = false;
        }
        continue;
      }
      if (this.state === 'after-data') {
        // CR LF, a bare LF, or nothing before the next size line.
        const b = bytes[i]!;
        if (b === CR && !this.sawCR) {
          this.sawCR = true;
          i++;
          continue;
        }
        if (b === LF) i++;
        this.state = 'size';
        continue;
      }
      // A size or trailer line, up to its LF.
      const lf = bytes.indexOf(LF, i);
      const end = lf < 0 ? bytes.length : lf;
      this.line += Buffer.from(bytes.buffer, bytes.byteOffset + i, end - i).toString('latin1');
      if (this.line.length > 8192) throw new LenientProtocolError('Chunk line too long');
      i = lf < 0 ? bytes.length : lf + 1;
      if (lf < 0) break;
      const line = this.line.replace(/\r$/, '');
      this.line = '';
      if (this.state === 'trailers') {
        if (line === '') this.state = 'done';
        continue;
      }
      const size = /^[ \t]*([0-9a-fA-F]+)[ \t]*(?:;.*)?$/.exec(line);
      if (size === null) {
        if (line.trim() === '') continue; // a stray empty line between chunks
        throw new LenientProtocolError('Invalid character in chunk size');
      }
      if (size[1]!.length > 13) throw new LenientProtocolError('Chunk size too large');
      this.left = parseInt(size[1]!, 16);
      this.state = this.left === 0 ? 'trailers' : 'data';
    }
    return { data, done: this.state === 'done' };
  }
}
