// UTF-16 told from a body's bytes, for pages (crawler/charset.ts) and robots.txt (shared/robots): an
// editor's "Unicode" or a server's `charset=utf-16` is UTF-16, with or without a byte order mark, and
// read as UTF-8 or an 8-bit charset every letter of it is lost.

export type Utf16Order = 'utf-16le' | 'utf-16be';

/** The UTF-16 byte order a body's byte order mark names, or undefined. */
export function utf16ByMark(bytes: Uint8Array): Utf16Order | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Bytes looked at to tell UTF-16 without a mark. */
const UTF16_PROBE_BYTES = 512;

/** `utf-16le` or `utf-16be` when, in the first bytes, nearly every other byte is zero and the others
 * are not (markup, rules and Latin text in UTF-16); undefined otherwise. No text in an 8-bit charset or
 * UTF-8 has a zero byte at every other place. */
export function utf16ByZeros(bytes: Uint8Array): Utf16Order | undefined {
  const n = Math.min(bytes.length, UTF16_PROBE_BYTES) & ~1;
  if (n < 16) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros >= 0.7 * pairs && evenZeros <= 0.05 * pairs) return 'utf-16le';
  if (evenZeros >= 0.7 * pairs && oddZeros <= 0.05 * pairs) return 'utf-16be';
  return undefined;
}
