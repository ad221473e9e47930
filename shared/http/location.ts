// The Location header of a redirect as browsers read it. Pure.

/** A header field's value as undici hands it over: one string, or one per repeated field. */
type HeaderField = string | string[] | undefined;

/**
 * Where a redirect points: the Location field's bytes read as UTF-8, as browsers read them (undici gives
 * each byte as one Latin-1 character, so a raw `/ü` became a request for `/%C3%83%C2%BC`), or kept as
 * they came when they are not UTF-8; undefined when absent or when two Location fields differ (Chrome's
 * ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION: joining them made one URL of both).
 */
export function redirectLocation(field: HeaderField): string | undefined {
  const values = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const first = values[0];
  if (first === undefined || values.some((v) => v !== first)) return undefined;
  return utf8OfLatin1(first);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `s` (one character per byte) read as UTF-8 bytes; `s` itself when it is ASCII, holds a character
 * above U+00FF (not bytes), or its bytes are not UTF-8. */
function utf8OfLatin1(s: string): string {
  if (!/[\u0080-\u00ff]/.test(s) || /[^\u0000-\u00ff]/.test(s)) return s;
  try {
    return UTF8.decode(Buffer.from(s, 'latin1'));
  } catch {
    return s;
  }
}
