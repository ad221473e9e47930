// A response that breaks HTTP/1.1 as undici reads it: a header line without a colon, a chunk size that
// is not hex, bytes that are not HTTP at all. undici ends such a request with its HTTPParserError,
// "Response does not match the HTTP/1.1 protocol (why)". The same server sends the same bytes on every
// try, so, as browsers do, it is not asked again: a page is an error page at once, a robots.txt gives
// its host up at once (each was asked four times over 14 s before). A body shorter than its
// Content-Length is another error (it may be a connection cut short) and is still asked again. Pure.

const PROTOCOL_ERROR = /\bResponse does not match the HTTP\/1\.1 protocol\b(?: \(([^)]*)\))?/i;

/** What broke the protocol ("Invalid header token"), or undefined when `message` is another error. */
export function httpProtocolError(message: string): string | undefined {
  const m = PROTOCOL_ERROR.exec(message);
  if (!m) return undefined;
  return m[1] ?? 'not HTTP/1.1';
}
