import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIELD_COUNT } from './index-format.js';
import { decodeDocNumbers, encodeDocNumbers } from './doc-numbers.js';
import type { DocNumbers } from './index-format.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });

const columns = fc.integer({ min: 0, max: 40 }).chain((n) =>
  fc.record({
    inbound: fc.array(u32, { minLength: n, maxLength: n }),
    inboundHosts: fc.array(u32, { minLength: n, maxLength: n }),
    contentInbound: fc.option(fc.array(u32, { minLength: n, maxLength: n }), { nil: undefined }),
    fieldLength: fc.array(u32, { minLength: n * FIELD_COUNT, maxLength: n * FIELD_COUNT }),
    // Past 4 GiB: stored.bin of a million pages is larger.
    storedOffset: fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: n, maxLength: n }),
    storedLength: fc.array(u32, { minLength: n, maxLength: n }),
    storedHeaderLength: fc.array(u32, { minLength: n, maxLength: n }),
    storedBodyLength: fc.array(u32, { minLength: n, maxLength: n }),
    bodyFrequency: fc.array(u32, { minLength: n, maxLength: n }),
    hub: fc.array(fc.float({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
    listing: fc.array(fc.float({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
    // A page's date, NaN for none (toEqual holds NaN equal to NaN).
    date: fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: -(2 ** 41), max: 2 ** 45 })), { minLength: n, maxLength: n }),
  }),
);

/** The columns as plain arrays, as fast-check makes them. */
type Plain = { [K in Exclude<keyof DocNumbers, 'contentInbound'>]: number[] } & { contentInbound: number[] | undefined };

const typed = (c: Plain): DocNumbers => ({
  inbound: Uint32Array.from(c.inbound),
  inboundHosts: Uint32Array.from(c.inboundHosts),
  ...(c.contentInbound ? { contentInbound: Uint32Array.from(c.contentInbound) } : {}),
  fieldLength: Uint32Array.from(c.fieldLength),
  storedOffset: Float64Array.from(c.storedOffset),
  storedLength: Uint32Array.from(c.storedLength),
  storedHeaderLength: Uint32Array.from(c.storedHeaderLength),
  storedBodyLength: Uint32Array.from(c.storedBodyLength),
  bodyFrequency: Uint32Array.from(c.bodyFrequency),
  hub: Float32Array.from(c.hub),
  listing: Float32Array.from(c.listing),
  date: Float64Array.from(c.date),
});

describe('doc-numbers.bin', () => {
  it('decodes what was encoded, from any byte offset, with contentInbound only when it was written', () => {
    fc.assert(
      fc.property(columns, fc.integer({ min: 0, max: 7 }), (c, shift) => {
        const want = typed(c);
        const bytes = encodeDocNumbers(want);
        // As a file read into a pooled buffer may start anywhere in it.
        const shifted = new Uint8Array(bytes.byteLength + shift);
        shifted.set(bytes, shift);
        const got = decodeDocNumbers(shifted.subarray(shift));
        expect(got).toEqual(want);
        expect('contentInbound' in got).toBe(c.contentInbound !== undefined);
      }),
    );
  });

  it('refuses a file whose length does not fit its count', () => {
    const bytes = encodeDocNumbers(typed({ inbound: [1], inboundHosts: [1], contentInbound: undefined, fieldLength: [1, 2, 3, 4, 5], storedOffset: [0], storedLength: [9], storedHeaderLength: [3], storedBodyLength: [4], bodyFrequency: [4], hub: [0], listing: [0], date: [NaN] }));
    expect(() => decodeDocNumbers(bytes.subarray(0, bytes.byteLength - 4))).toThrow(/not the \d+ of 1 documents/);
  });
});
