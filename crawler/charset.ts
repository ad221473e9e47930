// Bytes to text: which charset a response body is in, and the decoded text. Pure.
//
// Order (the WHATWG encoding-sniffing order, which is what browsers do and what page authors test with):
// 1. a byte order mark (UTF-8, UTF-16LE/BE): a BOM is never there by accident, so it beats the header;
// 2. the Content-Type header's `charset=` parameter;
// 3. the WHATWG prescan of the first 1,024 bytes (META_SNIFF_BYTES): `<meta charset>`,
//    `<meta http-equiv=content-type content="...; charset=...">`, an `<?xml encoding=...?>` declaration;
// 4. UTF-8.
// The prescan is encoding-sniffer's (cheerio's): a tokenizer that skips comments and reads only the
// charset of a real META, where a regular expression also took `<!-- <meta charset=...> -->` and
// `<meta name=description content="charset=koi8-r">`. It maps labels to WHATWG names (`cp1251` ->
// windows-1251, `gb2312` -> gbk, `iso-8859-1` -> windows-1252) and a META claiming UTF-16 to UTF-8.
// A charset that can be decoded by neither decoder below is skipped, and the next source is tried.
//
// Decoding is iconv-lite's: Node 20's TextDecoder('windows-1252') reads 0x80-0x9F as ISO-8859-1, so
// curly quotes, dashes and the euro sign of legacy pages became C1 control characters. TextDecoder is
// kept for the few WHATWG encodings iconv-lite lacks (iso-2022-jp, x-mac-cyrillic).
// Invalid byte sequences become U+FFFD rather than failing the page.

import { ResultType, Sniffer } from 'encoding-sniffer/sniffer';
import iconv from 'iconv-lite';

export const META_SNIFF_BYTES = 1024;

export interface Decoded {
  text: string;
  /** WHATWG name of the charset used, lower case, e.g. `utf-8`, `windows-1251`, `gbk`, `shift_jis`. */
  charset: string;
  /** Where the charset came from: `xml` is an XML declaration (or UTF-16 `<?x` without a BOM). */
  source: 'bom' | 'header' | 'meta' | 'xml' | 'default';
}

const SOURCE: Record<ResultType, Decoded['source']> = {
  [ResultType.BOM]: 'bom',
  [ResultType.PASSED]: 'header',
  [ResultType.XML_PREFIX]: 'xml',
  [ResultType.META_TAG]: 'meta',
  [ResultType.XML_ENCODING]: 'xml',
  [ResultType.DEFAULT]: 'default',
};

/** WHATWG decodes gbk with its gb18030 decoder (a superset); iconv-lite's gbk lacks the 4-byte forms. */
const ICONV_NAME: Readonly<Record<string, string>> = { gbk: 'gb18030' };

/** Whether `charset` (a WHATWG name) can be decoded here. */
function decodable(charset: string): boolean {
  if (iconv.encodingExists(ICONV_NAME[charset] ?? charset)) return true;
  try {
    new TextDecoder(charset);
    return true;
  } catch {
    return false;
  }
}

/** x-user-defined has no decoder here; the old behaviour (and the spec's for META) is windows-1252. */
const usable = (charset: string): string | undefined => {
  const c = charset.toLowerCase();
  const name = c === 'x-user-defined' ? 'windows-1252' : c;
  return decodable(name) ? name : undefined;
};

interface Sniffed {
  charset: string | undefined;
  source: Decoded['source'];
}

/** Bytes handed to the prescan at a time, so that it can stop once the answer is known. */
const SNIFF_CHUNK_BYTES = 64;

function sniff(bytes: Uint8Array, transportLabel: string | undefined): Sniffed {
  const sniffer = new Sniffer({ transportLayerEncodingLabel: transportLabel, defaultEncoding: 'utf-8', maxBytes: META_SNIFF_BYTES });
  // The sniffer reads all 1,024 bytes whatever it has found, a tenth of a page's decoding time. Only a
  // BOM (the first 3 bytes) beats a charset the header names, and nothing after the first META with a
  // charset changes the answer (the spec's prescan returns there), so it is fed until then only.
  if (sniffer.resultType === ResultType.PASSED) sniffer.write(bytes.subarray(0, 3));
  else {
    const end = Math.min(bytes.length, META_SNIFF_BYTES);
    for (let i = 0; i < end && sniffer.resultType > ResultType.META_TAG; i += SNIFF_CHUNK_BYTES) {
      sniffer.write(bytes.subarray(i, Math.min(i + SNIFF_CHUNK_BYTES, end)));
    }
  }
  return { charset: usable(sniffer.encoding), source: SOURCE[sniffer.resultType] };
}

/** The WHATWG name (lower case) for a charset label, or undefined when it is no label this decodes. */
export function normalizeCharset(label: string): string | undefined {
  const l = label.trim().replace(/^["']|["']$/g, '');
  if (l === '') return undefined;
  const sniffer = new Sniffer({ transportLayerEncodingLabel: l });
  return sniffer.resultType === ResultType.PASSED ? usable(sniffer.encoding) : undefined;
}

/** The `charset` parameter of a Content-Type header value, as given (not normalised). */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const m = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  if (m === null) return undefined;
  const value = m[2] ?? m[1] ?? '';
  return value === '' ? undefined : value;
}

/** The charset (WHATWG name) the prescan finds in a `<meta>` or XML declaration of the first META_SNIFF_BYTES bytes. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  const s = sniff(bytes, undefined);
  return s.source === 'meta' || s.source === 'xml' ? s.charset : undefined;
}

/** Decodes a response body, finding its charset from BOM, header, prescan or the UTF-8 default. */
export function decodeBody(bytes: Uint8Array, contentTypeHeader?: string): Decoded {
  const label = charsetFromContentType(contentTypeHeader);
  let found = sniff(bytes, label);
  // A header naming a charset nothing here decodes counts as no header: the page may still say.
  if (found.charset === undefined && label !== undefined) found = sniff(bytes, undefined);
  const charset = found.charset ?? 'utf-8';
  const source = found.charset === undefined ? 'default' : found.source;
  return { text: decodeAs(bytes, charset), charset, source };
}

/** Node's own WHATWG UTF-8 decoder: nearly every page is UTF-8, and it decodes one about twice as fast
 * as iconv-lite's (a crawl profile: 0.6 s of a 6,000-page crawl's parse worker went to iconv-lite). */
const UTF8 = new TextDecoder('utf-8');

/** `bytes` as text in `charset` (a decodable WHATWG name); a BOM at the start is dropped. */
function decodeAs(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return UTF8.decode(bytes);
  const name = ICONV_NAME[charset] ?? charset;
  if (iconv.encodingExists(name)) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name);
  return new TextDecoder(charset, { fatal: false }).decode(bytes);
}
