// readBody through content-coding.ts: what browsers decode, decoded; what is broken, still an error.

import { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
