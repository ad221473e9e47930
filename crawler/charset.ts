// Bytes to text: which charset a response body is in, and the decoded text. Pure.
//
// Order (the WHATWG encoding-sniffing order, which is what browsers do and what page authors test with):
// 1. a byte order mark (UTF-8, UTF-16LE/BE): a BOM is never there by accident, so it beats the header;
// 2. the Content-Type header's `charset=` parameter;
// 3. the WHATWG prescan of the first 1,024 bytes (META_SNIFF_BYTES): `<meta charset>`,
//    `<meta http-equiv=content-type content="...; charset=...">`, an `<?xml encoding=...?>` declaration;
// 4. UTF-8, unless the bytes are not UTF-8 and a later `<meta>` names a charset (browsers change the
//    encoding when parsing meets one: LATE_META_BYTES), or they are UTF-16 without a BOM (every other
//    byte zero, as a chardet would tell; browsers show such a page as garbage, and so did we);
// 5. for bytes that are not UTF-8 and name no charset anywhere, the charset detected from them
//    (chardet: ICU's detectors), as browsers detect one (Firefox's chardetng, Chrome's CED), or
//    windows-1252, the WHATWG default for an unlabelled page (detectedCharset).
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

import chardet from 'chardet';
import { ResultType, Sniffer } from 'encoding-sniffer/sniffer';
import iconv from 'iconv-lite';
import { utf16ByZeros } from '../shared/utf16.js';

export const META_SNIFF_BYTES = 1024;
/** How far a `<meta charset>` is looked for when the first META_SNIFF_BYTES named none and the bytes
 * are not UTF-8: a head with long scripts or styles puts it past the first kilobyte. */
export const LATE_META_BYTES = 64 * 1024;

export interface Decoded {
  text: string;
  /** WHATWG name of the charset used, lower case, e.g. `utf-8`, `windows-1251`, `gbk`, `shift_jis`. */
  charset: string;
  /** Where the charset came from: `xml` is an XML declaration (or UTF-16 `<?x` without a BOM),
   * `detected` the bytes themselves (no charset named, and not UTF-8). */
  source: 'bom' | 'header' | 'meta' | 'xml' | 'default' | 'detected';
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
const iconvName = (charset: string): string => (Object.hasOwn(ICONV_NAME, charset) ? ICONV_NAME[charset]! : charset);

/** Whether `charset` (a WHATWG name) can be decoded here. */
function decodable(charset: string): boolean {
  if (iconv.encodingExists(iconvName(charset))) return true;
  try {
    new TextDecoder(charset);
    return true;
  } catch {
    return false;
  }
}

/** x-user-defined has no decoder here; the old behaviour (and the spec's for META) is windows-1252.
 * The sniffer's label table (whatwg-encoding 3.1) is a plain object: a page that declares
 * `charset="constructor"` or `"__proto__"` got back Object's own function, not a name, and threw. Such a
 * label is no charset. */
const usable = (charset: unknown): string | undefined => {
  if (typeof charset !== 'string') return undefined;
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
  return sniffer.resultType === ResultType.PASSED ? usable(sniffer.encoding) : decoderOnlyLabel(l);
}

/** A WHATWG label encoding-sniffer's table lacks but TextDecoder knows (`iso-2022-jp`, `csISO2022JP`,
 * `x-mac-cyrillic`): its WHATWG name. Without this, `charset=iso-2022-jp` was no charset, and the page
 * was read as UTF-8 with its escape sequences in the text. */
function decoderOnlyLabel(label: string): string | undefined {
  if (new Sniffer({ transportLayerEncodingLabel: label }).resultType === ResultType.PASSED) return undefined;
  try {
    return usable(new TextDecoder(label).encoding);
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

/** The charset (WHATWG name) the prescan finds in a `<meta>` or XML declaration of the first META_SNIFF_BYTES bytes. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  const s = sniff(bytes, undefined);
  return s.source === 'meta' || s.source === 'xml' ? s.charset : undefined;
}

/** Decodes a response body, finding its charset from BOM, header, prescan or the UTF-8 default. */
export function decodeBody(bytes: Uint8Array, contentTypeHeader?: string): Decoded {
  const label = charsetFromContentType(contentTypeHeader);
  const headerOnlyDecoder = label === undefined ? undefined : decoderOnlyLabel(label);
  let found = sniff(bytes, headerOnlyDecoder === undefined ? label : undefined);
  if (headerOnlyDecoder !== undefined && found.source !== 'bom') found = { charset: headerOnlyDecoder, source: 'header' };
  // A header naming a charset nothing here decodes counts as no header: the page may still say.
  if (found.charset === undefined && label !== undefined) found = sniff(bytes, undefined);
  const charset = found.charset ?? 'utf-8';
  const source = found.charset === undefined ? 'default' : found.source;
  if (source !== 'default') return { text: decodeAs(bytes, charset), charset, source };
  const utf16 = utf16ByZeros(bytes);
  if (utf16 !== undefined) return { text: decodeAs(bytes, utf16), charset: utf16, source: 'default' };
  const text = decodeAs(bytes, charset);
  // Not UTF-8 (a replacement character where bytes did not decode), and long enough for a <meta> to
  // come after the first kilobyte: read on, as a browser parsing the head would.
  if (bytes.length > META_SNIFF_BYTES && text.includes('\uFFFD')) {
    const late = lateMetaCharset(bytes);
    if (late !== undefined && late !== 'utf-8') return { text: decodeAs(bytes, late), charset: late, source: 'meta' };
  }
  if (text.includes('\uFFFD')) {
    const detected = detectedCharset(bytes);
    if (detected !== undefined) return { text: decodeAs(bytes, detected), charset: detected, source: 'detected' };
  }
  return { text, charset, source };
}

/** Bytes looked at to tell UTF-8 from a legacy charset. */
const UTF8_SCAN_BYTES = 64 * 1024;
/** Bytes the charset detector reads, from just before the first byte above ASCII (a long head of
 * scripts tells no charset): chardet takes about 0.4 ms a KB, 32 ms for 64 KB. */
const DETECT_BYTES = 8 * 1024;

/**
 * The charset of bytes that name none and are not UTF-8: chardet's guess (the byte and character
 * statistics of ICU's detectors; a well-kept library without dependencies), or windows-1252, the WHATWG
 * default for an unlabelled page, when it guesses nothing this decodes or fewer than MIN_DETECT_BYTES
 * bytes are not UTF-8 (too few to tell a charset by). Such a page was read as UTF-8: every accented
 * letter of a legacy Western page, every character of an unlabelled Shift_JIS or GBK page, a U+FFFD.
 * Undefined (UTF-8 it stays) when the bytes are mostly UTF-8: a UTF-8 page with a stray byte loses
 * that byte, not all its other accents to a legacy reading.
 */
function detectedCharset(bytes: Uint8Array): string | undefined {
  const { valid, invalid, firstHigh } = utf8Sequences(bytes.subarray(0, UTF8_SCAN_BYTES));
  if (valid > invalid) return undefined;
  // A few bytes tell nothing: chardet read `h\xFFi` as ISO-8859-2 with confidence 75 of 100.
  if (invalid < MIN_DETECT_BYTES) return 'windows-1252';
  const from = Math.max(0, firstHigh - 512);
  const guess = chardet.detect(bytes.subarray(from, from + DETECT_BYTES));
  const name = guess === null ? undefined : normalizeCharset(guess);
  return name === undefined || name === 'utf-8' ? 'windows-1252' : name;
}

/** Bytes that start no UTF-8 sequence below which the charset is not guessed (windows-1252). */
const MIN_DETECT_BYTES = 8;

/** Valid UTF-8 multi-byte sequences, bytes above ASCII that start none, and where the first such
 * byte of either kind is (the length when there is none). */
function utf8Sequences(bytes: Uint8Array): { valid: number; invalid: number; firstHigh: number } {
  let valid = 0;
  let invalid = 0;
  let firstHigh = bytes.length;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    if (firstHigh === bytes.length) firstHigh = i;
    const more = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
    let ok = more > 0 && i + more < bytes.length;
    for (let k = 1; ok && k <= more; k++) ok = (bytes[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid++;
      i += more + 1;
    } else {
      invalid++;
      i++;
    }
  }
  return { valid, invalid, firstHigh };
}

/** The charset of the first `<meta>` (or XML declaration) naming one in the first LATE_META_BYTES. */
function lateMetaCharset(bytes: Uint8Array): string | undefined {
  const sniffer = new Sniffer({ defaultEncoding: 'utf-8', maxBytes: LATE_META_BYTES });
  const end = Math.min(bytes.length, LATE_META_BYTES);
  for (let i = 0; i < end && sniffer.resultType > ResultType.META_TAG; i += 4096) sniffer.write(bytes.subarray(i, Math.min(i + 4096, end)));
  return sniffer.resultType === ResultType.META_TAG || sniffer.resultType === ResultType.XML_ENCODING ? usable(sniffer.encoding) : undefined;
}

/** Node's own WHATWG UTF-8 decoder: nearly every page is UTF-8, and it decodes one about twice as fast
 * as iconv-lite's (a crawl profile: 0.6 s of a 6,000-page crawl's parse worker went to iconv-lite). */
const UTF8 = new TextDecoder('utf-8');

/** `bytes` as text in `charset` (a decodable WHATWG name); a BOM at the start is dropped. */
function decodeAs(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return UTF8.decode(bytes);
  const name = iconvName(charset);
  if (iconv.encodingExists(name)) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name);
  return new TextDecoder(charset, { fatal: false }).decode(bytes);
}
