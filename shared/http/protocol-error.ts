// A response that breaks HTTP/1.1 as undici reads it: a header line without a colon, a chunk size that
// is not hex, bytes that are not HTTP at all. undici ends such a request with its HTTPParserError,
// "Response does not match the HTTP/1.1 protocol (why)". The same server sends the same bytes on every
// try, so, as browsers do, it is not asked again: a page is an error page at once, a robots.txt gives
// its host up at once (each was asked four times over 14 s before). A body shorter than its
// Content-Length is another error (it may be a connection cut short) and is still asked again. Pure.

const PROTOCOL = 'Response does not match the HTTP/1.1 protocol';
const PROTOCOL_ERROR = new RegExp(`\\b${PROTOCOL.replace(/[./]/g, '\\$&')}\\b(?: \\(([^)]*)\\))?`, 'i');

/** The interim answers undici refuses with a SocketError of its own words: the server sends them on
 * every try too. ("bad response" is a 100 Continue to a request that sent no Expect: browsers and curl
 * skip it, undici cannot.) */
const INTERIM_REFUSED: ReadonlyMap<string, string> = new Map([
  ['bad upgrade', 'a 101 Switching Protocols to a request that asked for no upgrade'],
  ['bad response', 'a 100 Continue to a request that sent no Expect'],
]);

/** An error undici raised for an answer that breaks HTTP/1.1, as the message every such error carries
 * ("Response does not match the HTTP/1.1 protocol (why)"); undefined for any other error. */
export function protocolErrorMessage(code: string | undefined, message: string): string | undefined {
  // Headers larger than the client reads (crawler/fetch.ts MAX_HEADER_BYTES) are as large on every try.
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return `${PROTOCOL} (headers larger than a browser reads)`;
  if (code !== 'UND_ERR_SOCKET') return undefined;
  const why = INTERIM_REFUSED.get(message);
  return why === undefined ? undefined : `${PROTOCOL} (${why})`;
}

/** What broke the protocol ("Invalid header token"), or undefined when `message` is another error. */
export function httpProtocolError(message: string): string | undefined {
  const m = PROTOCOL_ERROR.exec(message);
  if (!m) return undefined;
  return m[1] ?? 'not HTTP/1.1';
}
