// Which media type a response is, from its Content-Type header(s), the way WHATWG Fetch "extract a MIME
// type" decides it (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type): every value of every
// Content-Type header, split on commas outside quotes, parsed in order; values that do not parse (and
// `*/*`) are skipped; the last valid one wins, keeping an earlier charset while the essence stays the same.
// Browsers do this, so a server that repeats the header gets the type a browser would show. Pure.

export interface MimeType {
  /** `type/subtype`, lower-case, e.g. `text/html`. */
  essence: string;
  /** The `charset` parameter as given (not normalised), when there is one. */
  charset?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const QUOTED_STRING_CHARS = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;
const HTTP_WS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** Content-Type values remembered with what they name (a site sends a handful); past it, the memory
 * starts again. Only values up to REMEMBERED_CHARS long: a hostile server's 200 KB value is read each time. */
const REMEMBERED_VALUES = 256;
const REMEMBERED_CHARS = 200;
const remembered = new Map<string, Readonly<MimeType> | undefined>();

/** The media type a Content-Type header (one value, or the values of a repeated header) names; undefined when none is valid. */
export function extractMimeType(header: string | readonly string[] | undefined): Readonly<MimeType> | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') return mimeTypeOf(header);
  if (header.length > REMEMBERED_CHARS) return mimeTypeOf([header]);
  // Read once per value: parsed character by character, twice a response (fetch.ts, page.ts), it was a
  // measurable part of the crawl loop's thread.
  if (remembered.has(header)) return remembered.get(header);
  const mime = mimeTypeOf([header]);
  if (remembered.size >= REMEMBERED_VALUES) remembered.clear();
  remembered.set(header, mime === undefined ? undefined : Object.freeze(mime));
  return mime;
}

function mimeTypeOf(header: readonly string[]): MimeType | undefined {
  const values = splitHeaderValues(header);
  let result: MimeType | undefined;
  let essence: string | undefined;
  let charset: string | undefined;
  for (const value of values) {
    const parsed = parseMimeType(value);
    if (parsed === undefined || parsed.essence === '*/*') continue;
    if (parsed.essence !== essence) {
      essence = parsed.essence;
      charset = parsed.params.get('charset');
      result = charset === undefined ? { essence } : { essence, charset };
    } else {
      const own = parsed.params.get('charset');
      const kept = own ?? charset;
      result = kept === undefined ? { essence } : { essence, charset: kept };
    }
  }
  return result;
}

/** The essence alone (`text/html`), or '' when the header names no valid media type. */
export function mediaType(header: string | readonly string[] | undefined): string {
  return extractMimeType(header)?.essence ?? '';
}

/** One Content-Type value standing for what extractMimeType decided, for code that reads the charset from a header. */
export function contentTypeValue(header: string | readonly string[] | undefined): string | undefined {
  const mime = extractMimeType(header);
  if (mime === undefined) return undefined;
  return mime.charset === undefined ? mime.essence : `${mime.essence}; charset=${mime.charset}`;
}

/** Fetch's "getting, decoding, and splitting": the values combined, split on commas that are not inside a quoted string. */
export function splitHeaderValues(values: readonly string[]): string[] {
  const input = values.join(', ');
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      current += c;
      if (c === '\\' && i + 1 < input.length) current += input[++i]!;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
      current += c;
    } else if (c === ',') {
      out.push(current.replace(HTTP_WS, ''));
      current = '';
    } else {
      current += c;
    }
  }
  out.push(current.replace(HTTP_WS, ''));
  return out;
}

/** MIME Sniffing "parse a MIME type" (https://mimesniff.spec.whatwg.org/#parse-a-mime-type); undefined is failure. */
export function parseMimeType(raw: string): { essence: string; params: Map<string, string> } | undefined {
  const input = raw.replace(HTTP_WS, '');
  const slash = input.indexOf('/');
  if (slash <= 0) return undefined;
  const type = input.slice(0, slash);
  if (!TOKEN.test(type)) return undefined;
  const semi = input.indexOf(';', slash + 1);
  const subtype = input.slice(slash + 1, semi === -1 ? undefined : semi).replace(/[\t\n\r ]+$/, '');
  if (!TOKEN.test(subtype)) return undefined;
  const params = new Map<string, string>();
  let pos = semi === -1 ? input.length : semi;
  while (pos < input.length) {
    pos++; // past ';'
    while (pos < input.length && /[\t\n\r ]/.test(input[pos]!)) pos++;
    let name = '';
    while (pos < input.length && input[pos] !== ';' && input[pos] !== '=') name += input.charAt(pos++);
    name = name.toLowerCase();
    if (pos < input.length) {
      if (input[pos] === ';') continue;
      pos++; // past '='
    }
    if (pos >= input.length) break;
    let value = '';
    if (input[pos] === '"') {
      pos++;
      while (pos < input.length && input[pos] !== '"') {
        if (input[pos] === '\\' && pos + 1 < input.length) pos++;
        value += input.charAt(pos++);
      }
      while (pos < input.length && input[pos] !== ';') pos++;
    } else {
      while (pos < input.length && input[pos] !== ';') value += input.charAt(pos++);
      value = value.replace(/[\t\n\r ]+$/, '');
      if (value === '') continue;
    }
    if (name !== '' && TOKEN.test(name) && QUOTED_STRING_CHARS.test(value) && !params.has(name)) params.set(name, value);
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), params };
}
