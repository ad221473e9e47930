// Bytes to text: which charset a response body is in, and the decoded text. Pure.
//
// Order (the WHATWG encoding-sniffing order, which is what browsers do and what page authors test with):
// 1. a byte order mark (UTF-8, UTF-16LE/BE): a BOM is never there by accident, so it beats the header;
// 2. the Content-Type header's `charset=` parameter;
// 3. `<meta charset>` or `<meta http-equiv=content-type content="...; charset=...">` within the first
//    1,024 bytes (META_SNIFF_BYTES);
// 4. UTF-8.
// A label TextDecoder does not know is skipped and the next source is tried. Labels are normalised to the
// WHATWG name (`cp1251` -> windows-1251, `gb2312` -> gbk, `iso-8859-1` -> windows-1252). A META that
// claims UTF-16 means UTF-8 (the bytes being ASCII-readable proves it is not UTF-16), as the spec says.
// Invalid byte sequences become U+FFFD rather than failing the page.

export const META_SNIFF_BYTES = 1024;

export interface Decoded {
  text: string;
  /** WHATWG name of the charset used, e.g. `utf-8`, `windows-1251`, `gbk`, `shift_jis`. */
  charset: string;
  /** Where the charset came from. */
  source: 'bom' | 'header' | 'meta' | 'default';
}

/** The WHATWG name for a charset label, or undefined when TextDecoder does not support it. */
export function normalizeCharset(label: string): string | undefined {
  const l = label.trim().replace(/^["']|["']$/g, '');
  if (l === '') return undefined;
  if (l.toLowerCase() === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return undefined;
  }
}

/** The `charset` parameter of a Content-Type header value, as given (not normalised). */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const m = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  if (m === null) return undefined;
  const value = m[2] ?? m[1] ?? '';
  return value === '' ? undefined : value;
}

/** The charset a BOM at the start of `bytes` announces. */
export function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The charset label a `<meta>` in the first META_SNIFF_BYTES bytes declares. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  // latin1 maps every byte to one char, so ASCII markup reads right whatever the real charset is.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SNIFF_BYTES)).toString('latin1');
  const metas = head.match(/<meta\b[^>]*>/gi);
  if (metas === null) return undefined;
  for (const meta of metas) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(meta);
    if (direct?.[1] !== undefined) return direct[1];
  }
  return undefined;
}

/** Decodes a response body, finding its charset from BOM, header, META or the UTF-8 default. */
export function decodeBody(bytes: Uint8Array, contentTypeHeader?: string): Decoded {
  let charset: string | undefined;
  let source: Decoded['source'] = 'default';
  const bom = charsetFromBom(bytes);
  if (bom !== undefined) {
    charset = bom;
    source = 'bom';
  }
  if (charset === undefined) {
    const header = charsetFromContentType(contentTypeHeader);
    charset = header === undefined ? undefined : normalizeCharset(header);
    if (charset !== undefined) source = 'header';
  }
  if (charset === undefined) {
    const meta = charsetFromMeta(bytes);
    charset = meta === undefined ? undefined : normalizeCharset(meta);
    if (charset !== undefined) {
      source = 'meta';
      if (charset.startsWith('utf-16')) charset = 'utf-8';
    }
  }
  charset ??= 'utf-8';
  // The decoder removes a BOM that matches the charset; fatal: false turns bad bytes into U+FFFD.
  const text = new TextDecoder(charset, { fatal: false }).decode(bytes);
  return { text, charset, source };
}
