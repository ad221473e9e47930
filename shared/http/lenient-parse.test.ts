import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyFraming, ChunkedDecoder, headEnd, leadingEmptyLines, LenientProtocolError, opensStatusLine, parseResponseHead } from './lenient-parse.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('the end of a head', () => {
  it('is the empty line, however the lines end (CRLF, bare LF, or both mixed)', () => {
    expect(headEnd(bytes('HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody'))).toBe(25);
    expect(headEnd(bytes('HTTP/1.1 200 OK\nA: b\n\nbody'))).toBe(22);
    expect(headEnd(bytes('HTTP/1.1 200 OK\r\nA: b\n\r\nbody'))).toBe(24);
  });

  it('is not there while the empty line has not come', () => {
    expect(headEnd(bytes('HTTP/1.1 200 OK\r\nA: b\r\n'))).toBe(-1);
    expect(headEnd(bytes('HTTP/1.1 200 OK\r\nA: b\r\n\r'))).toBe(-1);
  });
});

describe('a head read as browsers read it', () => {
  it('takes any HTTP/1.x status line, with or without its reason', () => {
    expect(parseResponseHead('HTTP/1.1 404 Not Found\r\n').status).toBe(404);
    expect(parseResponseHead('HTTP/1.0 200\n').status).toBe(200);
    expect(parseResponseHead('http/1.2 301 Moved\n').status).toBe(301);
  });

  it('refuses what is not HTTP, in the words undici uses', () => {
    expect(() => parseResponseHead('GARBAGE\r\n')).toThrow(LenientProtocolError);
    expect(() => parseResponseHead('GARBAGE\r\n')).toThrow('Response does not match the HTTP/1.1 protocol (Expected HTTP/)');
    expect(() => parseResponseHead('HTTP/1.1 2000 OK\r\n')).toThrow('Expected HTTP/');
  });

  it('lower-cases names, trims spaces around the colon and in names, and keeps control bytes in values', () => {
    const { headers } = parseResponseHead('HTTP/1.1 200 OK\nContent-Type : text/html\nX Bad: 1\nX-A: a\x01b\n\n');
    expect(headers).toEqual({ 'content-type': 'text/html', 'x bad': '1', 'x-a': 'a\x01b' });
  });

  it('skips a line without a colon, as Chromium does, and joins a folded line to the value before it', () => {
    const { headers } = parseResponseHead('HTTP/1.1 200 OK\r\nno colon here\r\nX-A: a\r\n  b\r\n\tc\r\nLocation: /x\r\n\r\n');
    expect(headers).toEqual({ 'x-a': 'a b c', location: '/x' });
  });

  it('keeps every value of a repeated name, in order, as undici gives them', () => {
    const { headers } = parseResponseHead('HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nSet-Cookie: c=3\r\n\r\n');
    expect(headers['set-cookie']).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it('stops at the empty line', () => {
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nA: 1\r\n\r\nB: 2\r\n').headers).toEqual({ a: '1' });
  });
});

describe("a body's framing (RFC 9112 6.3)", () => {
  const framing = (head: string) => bodyFraming(parseResponseHead(head));

  it('is none for 1xx, 204 and 304, whatever the headers say', () => {
    for (const status of [100, 103, 204, 304]) expect(framing(`HTTP/1.1 ${status} X\r\nContent-Length: 5\r\n\r\n`)).toEqual({ kind: 'none' });
  });

  it('is chunked when chunked is the last coding, even beside a Content-Length', () => {
    expect(framing('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: Chunked\r\n\r\n')).toEqual({ kind: 'chunked' });
    expect(framing('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n')).toEqual({ kind: 'chunked' });
    expect(framing('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n')).toEqual({ kind: 'until-close' });
  });

  it('takes the same Content-Length given twice, or as a list, and refuses lengths that differ', () => {
    expect(framing('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n')).toEqual({ kind: 'length', bytes: 5 });
    expect(framing('HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n')).toEqual({ kind: 'length', bytes: 5 });
    expect(() => framing('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n')).toThrow('Content-Length values differ');
    expect(() => framing('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n')).toThrow('Invalid Content-Length');
  });

  it('runs until the connection closes when nothing delimits it', () => {
    expect(framing('HTTP/1.0 200 OK\r\n\r\n')).toEqual({ kind: 'until-close' });
  });
});

/** A chunked body of `parts`, each chunk line and data ended the given way ('' = not ended at all). */
function chunked(parts: string[], ends: ('\r\n' | '\n')[], afterData: ('\r\n' | '\n' | '')[]): string {
  let out = '';
  parts.forEach((p, i) => {
    out += `${p.length.toString(16)}${i % 2 === 0 ? '' : ';ext=1'}${ends[i % ends.length]}${p}${afterData[i % afterData.length]}`;
  });
  return `${out}0${ends[0]}X-Trailer: 1${ends[0]}${ends[0]}`;
}

function decodeIn(pieces: Uint8Array[]): { text: string; done: boolean } {
  const decoder = new ChunkedDecoder();
  let text = '';
  let done = false;
  for (const piece of pieces) {
    const out = decoder.push(piece);
    for (const d of out.data) text += Buffer.from(d).toString('latin1');
    done = out.done;
  }
  return { text, done };
}

describe('the chunked coding undone leniently', () => {
  it('reads chunks whose lines end in CRLF, in a bare LF, or whose data is not followed by a line end', () => {
    expect(decodeIn([bytes('5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n')])).toEqual({ text: 'hello world', done: true });
    expect(decodeIn([bytes('5\nhello\n0\n\n')])).toEqual({ text: 'hello', done: true });
    expect(decodeIn([bytes('5\r\nhello0\r\n\r\n')])).toEqual({ text: 'hello', done: true });
  });

  it('refuses a size that is not hex, in the words undici uses', () => {
    expect(() => decodeIn([bytes('zz\r\nhello\r\n0\r\n\r\n')])).toThrow('Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)');
  });

  it('is complete after the last chunk even when its trailers never come', () => {
    const decoder = new ChunkedDecoder();
    decoder.push(bytes('3\r\nabc\r\n0\r\n'));
    expect(decoder.complete).toBe(true);
  });

  it('gives the same bytes however the body is cut into arrivals', () => {
    const part = fc.string({ minLength: 1, maxLength: 40 }).map((s) => Buffer.from(s, 'utf8').toString('latin1'));
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('\r\n' as const, '\n' as const), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom('\r\n' as const, '\n' as const, '' as const), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (parts, ends, afterData, cuts) => {
          const wire = bytes(chunked(parts, ends, afterData));
          const pieces: Uint8Array[] = [];
          for (let at = 0, i = 0; at < wire.length; i++) {
            const n = cuts[i % cuts.length]!;
            pieces.push(wire.subarray(at, at + n));
            at += n;
          }
          expect(decodeIn(pieces)).toEqual({ text: parts.join(''), done: true });
        },
      ),
    );
  });
});

describe('the bytes before a status line', () => {
  it('count the empty lines a server sent first, and nothing else', () => {
    expect(leadingEmptyLines(Buffer.from('\r\n\r\nHTTP/1.1 200 OK\r\n'))).toBe(4);
    expect(leadingEmptyLines(Buffer.from('\nHTTP/1.1 200 OK'))).toBe(1);
    expect(leadingEmptyLines(Buffer.from('HTTP/1.1 200 OK'))).toBe(0);
    expect(leadingEmptyLines(Buffer.from(' \r\nHTTP/1.1'))).toBe(0);
  });
  it('may open a status line while they are "HTTP/" or its start, in any case; anything else cannot', () => {
    for (const yes of ['', 'H', 'ht', 'HTTP', 'http/', 'HTTP/1.1 200 OK', 'Http/1.0']) expect(opensStatusLine(Buffer.from(yes)), yes).toBe(true);
    for (const no of ['<', '<html>', 'HTTPS/1.1', 'ICY 200 OK', ' HTTP/1.1', 'HTTP 1.1']) expect(opensStatusLine(Buffer.from(no)), no).toBe(false);
  });
});

