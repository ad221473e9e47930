// What a body is when its Content-Type says nothing useful, after WHATWG MIME Sniffing
// (https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type), the way browsers
// decide, and what Scrapy (responsetypes) and Nutch (Tika's magic) do for a crawler: a server that sends
// an HTML page with no Content-Type (a static file server that does not know the extension, a CGI
// script that forgot the header) serves a page a browser shows, and it was skipped. The other way
// round, a body that opens with an image's or an archive's signature is not text whatever its header
// says (a download sent as text/html): indexed, its bytes became words of garbage. Pure.

const OCTET_STREAM = 'application/octet-stream';
/** Types a server sends when it does not know: the body decides. */
const UNKNOWN = new Set(['', 'unknown/unknown', 'application/unknown']);

/** Tags that open an HTML document (mimesniff 7.1), each followed by a space or `>` in the body. */
const HTML_OPENINGS = ['<!doctype html', '<html', '<head', '<script', '<iframe', '<h1', '<div', '<font', '<table', '<a', '<style', '<title', '<b', '<body', '<br', '<p'];

/** Signatures of binary formats (mimesniff 6.1, 6.2, 6.3, and executables), with the type each names. */
const SIGNATURES: readonly [string, readonly number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b, 0x08]],
  ['application/x-7z-compressed', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['application/x-xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['application/zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['application/x-rar-compressed', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['application/ogg', [0x4f, 0x67, 0x67, 0x53, 0x00]],
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
  ['application/x-elf', [0x7f, 0x45, 0x4c, 0x46]],
  ['font/woff', [0x77, 0x4f, 0x46, 0x46]],
  ['font/woff2', [0x77, 0x4f, 0x46, 0x32]],
];

/** Bytes no text holds (mimesniff's binary data bytes). */
function isBinaryByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

/** Whether any byte of `head` is a binary data byte. A loop, not `head.some(isBinaryByte)`: a callback
 * per byte of every page's first 1,445 bytes was a measurable part of the crawl loop's thread. */
function hasBinaryByte(head: Uint8Array): boolean {
  for (let i = 0; i < head.length; i++) if (isBinaryByte(head[i]!)) return true;
  return false;
}

/** How much of the body the rules read (mimesniff's resource header). */
const HEADER_BYTES = 1445;

function startsWith(body: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (body.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (body[at + i] !== bytes[i]) return false;
  return true;
}

/** The binary format the body opens with, or undefined. */
function binarySignature(body: Uint8Array): string | undefined {
  for (const [type, bytes] of SIGNATURES) if (startsWith(body, bytes)) return type;
  // RIFF....WEBP, ....ftyp (MP4 and its kin).
  if (startsWith(body, [0x52, 0x49, 0x46, 0x46]) && startsWith(body, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(body, [0x66, 0x74, 0x79, 0x70], 4)) return 'video/mp4';
  return undefined;
}

function looksLikeHtml(body: Uint8Array): boolean {
  let i = 0;
  const end = Math.min(body.length, HEADER_BYTES);
  if (startsWith(body, [0xef, 0xbb, 0xbf])) i = 3;
  while (i < end && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0c || body[i] === 0x0d)) i++;
  if (startsWith(body, [0x3c, 0x21, 0x2d, 0x2d], i)) return true; // <!--
  const head = new TextDecoder('latin1').decode(body.subarray(i, Math.min(end, i + 16))).toLowerCase();
  return HTML_OPENINGS.some((o) => head.startsWith(o) && (head[o.length] === ' ' || head[o.length] === '>'));
}

/** Last path segments that name a page or a document (or no extension at all): served as
 * application/octet-stream, such a URL is read to see what it is. */
const PAGE_LIKE_EXTENSION = /(?:^|\/)(?:[^/.]*|[^/]*\.(?:html?|xhtml|shtml|php\d?|aspx?|jspx?|cgi|pl|pdf))$/i;

/** Whether `url` (its path) looks like a page or a document rather than a download. */
function pageLikePath(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    return PAGE_LIKE_EXTENSION.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * The media type the crawl treats `body` as, given the type its header named (`declared`, an essence,
 * '' when none was valid): a binary signature wins over any declared text type; an unknown type is
 * sniffed (HTML, PDF, text, or application/octet-stream); application/octet-stream at a page-like
 * `url` (isUnknownType) is HTML or a PDF when its bytes say so; any other declared type stands.
 */
export function sniffedType(declared: string, body: Uint8Array, url?: string): string {
  const head = body.subarray(0, HEADER_BYTES);
  if (declared === OCTET_STREAM && pageLikePath(url)) {
    if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
    return !hasBinaryByte(head) && looksLikeHtml(head) ? 'text/html' : declared;
  }
  if (UNKNOWN.has(declared)) {
    if (head.length === 0) return declared; // nothing to tell by (a 204): as unknown as its header
    if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
    const binary = binarySignature(head);
    if (binary !== undefined) return binary;
    if (looksLikeHtml(head)) return 'text/html';
    if (startsWith(head, [0x3c, 0x3f, 0x78, 0x6d, 0x6c])) return 'text/xml'; // <?xml: a feed or a sitemap, not a page
    return hasBinaryByte(head) ? 'application/octet-stream' : 'text/plain';
  }
  if (!declared.startsWith('text/') && declared !== 'application/xhtml+xml') return declared;
  // A PDF sent as text (a misconfigured server, a download script): its text is in compressed streams,
  // and read as text it indexed "endobj" and "x0d". No text page opens with `%PDF-`.
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  // Otherwise a declared text type gives way only to a signature with binary bytes after it: a text
  // may well begin with the letters `GIF89a`, not with them and control bytes. And text/plain with
  // binary bytes is binary (mimesniff's check for Apache's default type, as browsers do): 100 KB of
  // random bytes sent as text/plain were indexed as mojibake.
  if (!hasBinaryByte(head)) return declared;
  const signed = binarySignature(head);
  if (signed !== undefined) return signed;
  if (declared === 'text/plain') return OCTET_STREAM;
  // A declared page whose head is full of binary bytes is a download sent as HTML (PHP's default type
  // is text/html, so a script streaming a file without its header sends one): 100 KB of random bytes
  // sent as text/html were indexed as 82,419 characters of mojibake. A stray control byte in a page is
  // not that, nor UTF-16, whose ASCII letters come with a zero byte each.
  return binaryByteCount(head) >= MIN_BINARY_BYTES_OF_DOWNLOAD && !looksLikeUtf16(head) ? OCTET_STREAM : declared;
}

/** Binary bytes in a head that make a declared page a download: random or compressed bytes hold about
 * one in eleven (130 of a 1,445-byte head), a page a stray one or two. */
const MIN_BINARY_BYTES_OF_DOWNLOAD = 16;

function binaryByteCount(head: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < head.length; i++) if (isBinaryByte(head[i]!)) n++;
  return n;
}

/** A byte order mark of UTF-16, or ASCII as UTF-16 writes it (each character a zero byte and a printable
 * one) in a quarter of the head's byte pairs or more: a page's markup, even around text in Chinese. */
function looksLikeUtf16(head: Uint8Array): boolean {
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return true;
  const ascii = (b: number) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b <= 0x7e);
  let little = 0;
  let big = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i + 1] === 0 && ascii(head[i]!)) little++;
    else if (head[i] === 0 && ascii(head[i + 1]!)) big++;
  }
  return Math.max(little, big) * 4 >= head.length / 2;
}

/** Whether a response of this declared type (at `url`) is read to decide what it is: a type that says
 * nothing, or application/octet-stream at a URL that looks like a page or a document. Servers that do
 * not know an extension send that type (IIS for a file it has no mapping for, a download script for a
 * PDF); browsers then download what they would have shown, Scrapy reads the body to tell
 * (responsetypes.from_args), and a misconfigured intranet server's pages were all skipped. A URL that
 * names a download (`.zip`, `.iso`) is not read. */
export function isUnknownType(declared: string, url?: string): boolean {
  return UNKNOWN.has(declared) || (declared === OCTET_STREAM && pageLikePath(url));
}

