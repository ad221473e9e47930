// readBody through content-coding.ts: what browsers decode, decoded; what is broken, still an error.

import { Readable } from 'node:stream';
import { brotliCompressSync, crc32, deflateRawSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gzipHeaderLength, MAX_GZIP_MEMBERS } from './content-coding.js';
import { readBody, UNDECODABLE_BODY } from './http-body.js';

const PAGE = Buffer.from(`<!doctype html><title>Coded</title><p>${Array.from({ length: 2000 }, (_, i) => `word${(i * 7919) % 10007}`).join(' ')}</p>`);
/** A body arriving in chunks of `size` bytes, as from a socket. */
const chunked = (b: Buffer, size = 97) => Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));
const read = async (body: Buffer, encoding: string, size?: number) => Buffer.from((await readBody(chunked(body, size), { encoding, maxBytes: 1 << 20 })).body).toString();

describe('Content-Encoding, decoded as browsers do', () => {
  it('decodes deflate whether zlib-wrapped (the standard) or raw (what servers send), in chunks of any size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), async (size) => {
        expect(await read(deflateSync(PAGE), 'deflate', size)).toBe(PAGE.toString());
        expect(await read(deflateRawSync(PAGE), 'deflate', size)).toBe(PAGE.toString());
      }),
      { numRuns: 30 },
    );
  });
  it('undoes codings listed in order, last first; identity and unknown codings are read as sent', async () => {
    expect(await read(brotliCompressSync(gzipSync(PAGE)), 'gzip, br')).toBe(PAGE.toString());
    expect(await read(gzipSync(gzipSync(PAGE)), 'gzip, gzip')).toBe(PAGE.toString());
    expect(await read(PAGE, 'identity')).toBe(PAGE.toString());
    expect(await read(PAGE, 'x-unknown')).toBe(PAGE.toString());
  });
  it('keeps what a stream cut short by its server decodes to, as a browser shows it', async () => {
    for (const [encoding, coded] of [['gzip', gzipSync(PAGE)], ['deflate', deflateSync(PAGE)], ['br', brotliCompressSync(PAGE)]] as const) {
      const text = await read(coded.subarray(0, Math.floor(coded.length * 0.6)), encoding);
      expect(text.length, encoding).toBeGreaterThan(100);
      expect(PAGE.toString().startsWith(text), encoding).toBe(true);
    }
  });
  it('still fails on a body that is not what its coding says, saying so (asked again, the same bytes come back)', async () => {
    await expect(read(PAGE, 'gzip')).rejects.toThrow(`${UNDECODABLE_BODY} (gzip: incorrect header check)`);
    await expect(read(Buffer.from('not brotli at all'), 'br')).rejects.toThrow(UNDECODABLE_BODY);
    await expect(read(PAGE, 'deflate')).rejects.toThrow(UNDECODABLE_BODY);
  });
  it('a connection broken under a decoder is the connection\u2019s error, not an undecodable body', async () => {
    const coded = gzipSync(PAGE);
    const raw = new Readable({ read() {} });
    raw.push(coded.subarray(0, 200));
    setTimeout(() => raw.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })), 10);
    const failure = await readBody(raw, { encoding: 'gzip', maxBytes: 1 << 20 }).then(() => undefined, (e: unknown) => e as Error);
    expect(failure?.message).toBe('read ECONNRESET');
  });
});

describe('bytes after the compressed stream, left unread as browsers and curl leave them', () => {
  const TRAILING = [Buffer.from('\r\n'), Buffer.from('\n'), Buffer.alloc(16), Buffer.from('<!-- served by a proxy that appends -->'.repeat(5))];
  it('keep the whole page of gzip, zlib deflate and raw deflate, whatever follows, in chunks of any size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), fc.constantFrom(...TRAILING), async (size, tail) => {
        expect(await read(Buffer.concat([gzipSync(PAGE), tail]), 'gzip', size)).toBe(PAGE.toString());
        // Before, the deflate wrapper waited forever for an inflater that had already ended: a hung crawl.
        expect(await read(Buffer.concat([deflateSync(PAGE), tail]), 'deflate', size)).toBe(PAGE.toString());
        expect(await read(Buffer.concat([deflateRawSync(PAGE), tail]), 'deflate', size)).toBe(PAGE.toString());
      }),
      { numRuns: 40 },
    );
  });
  it('still read every member of a gzip body made of several, each header with any of its optional fields', async () => {
    const [a, b] = [PAGE.subarray(0, 5000), PAGE.subarray(5000)];
    const plain = gzipSync(b);
    // FLG: FHCRC 2, FEXTRA 4, FNAME 8, FCOMMENT 16; the header's CRC is the low half of its CRC-32.
    const header = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16]), plain.subarray(4, 10), Buffer.from([5, 0]), Buffer.from('extra'), Buffer.from('page.html\0'), Buffer.from('a comment\0')]);
    const crc = Buffer.alloc(2);
    crc.writeUInt16LE(crc32(header) & 0xffff);
    const flagged = Buffer.concat([header, crc, plain.subarray(10)]);
    expect(gzipHeaderLength(flagged)).toBe(header.length + 2);
    expect(gunzipSync(flagged).toString()).toBe(b.toString());
    expect(await read(Buffer.concat([gzipSync(a), flagged, Buffer.from('\r\n')]), 'gzip', 61)).toBe(PAGE.toString());
    expect(await read(Buffer.concat([gzipSync(a), gzipSync(b)]), 'gzip')).toBe(PAGE.toString());
  });
  // A fresh inflater per member: 230,000 members of 22 bytes (5 MB) took 30 s and 1.2 GB to crawl.
  it('read a gzip body of 100,000 tiny members only as far as MAX_GZIP_MEMBERS members, at once', async () => {
    const member = gzipSync(Buffer.from('a '));
    const body = Buffer.concat(Array.from({ length: 100_000 }, () => member));
    const started = performance.now();
    const text = await read(body, 'gzip', 16_384);
    expect(text).toBe('a '.repeat(MAX_GZIP_MEMBERS));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
  it('tell a gzip header from what is not one, and ask for more bytes while they cannot tell', () => {
    const coded = gzipSync(PAGE);
    expect(gzipHeaderLength(coded)).toBe(10);
    expect(gzipHeaderLength(coded.subarray(0, 9))).toBe(-1);
    expect(gzipHeaderLength(Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3, 0x61]))).toBe(-1);
    expect(gzipHeaderLength(Buffer.from('<html>'))).toBe(-2);
    expect(gzipHeaderLength(Buffer.from([0x1f, 0x8b, 7]))).toBe(-2);
    expect(gzipHeaderLength(Buffer.from([0x1f, 0x8b, 8, 0x20]))).toBe(-2);
  });
  it('the request\'s abort ends a read whose body never ends, decoder or not, with the abort\'s reason', async () => {
    for (const [encoding, coded] of [['gzip', gzipSync(PAGE)], ['deflate', deflateSync(PAGE)], ['identity', PAGE]] as const) {
      const raw = new Readable({ read() {} });
      raw.push(coded.subarray(0, 100));
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('the request took longer than 3 s')), 20);
      const failure = await readBody(raw, { encoding, maxBytes: 1 << 20, signal: controller.signal }).then(() => undefined, (e: unknown) => e as Error);
      expect(failure?.message, encoding).toBe('the request took longer than 3 s');
    }
  });
});
