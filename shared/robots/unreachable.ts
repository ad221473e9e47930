// Why a robots.txt could not be had, in words a user reads on the progress line, and whether the host
// can be reached at all. RFC 9309 2.3.1.4 treats every such failure alike (disallow the site); the crawl
// does not: a server that answers 5xx or slowly may recover, so it is asked again on a schedule, while a
// host that refuses connections or has no DNS name is given up at once instead of holding the crawl. Pure.

import { httpProtocolError, isUndecodableBody } from '../http/index.js';
import type { FetchOutcome } from './policy.js';

export interface Unreachable {
  /** E.g. `HTTP 503`, `connection refused`, `no answer (timed out)`. */
  reason: string;
  /** No connection could be made (refused, no such host, no route, TLS refused) or the server does not
   * speak HTTP: asking again soon will not help. */
  cannotConnect: boolean;
}

/** Network error codes that mean the host cannot be reached, with what to tell the user. */
const NO_CONNECTION: ReadonlyArray<[RegExp, string]> = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(ENOTFOUND|EAI_NONAME|EAI_NODATA)\b/, 'host name not found (DNS)'],
  [/\bEAI_AGAIN\b/, 'DNS lookup failed'],
  [/\b(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)\b/, 'no route to the host'],
  [/\bEADDRNOTAVAIL\b/, 'address not available'],
];

/** TLS failures that come back the same on every try: a certificate this machine does not trust, or a
 * server that does not speak TLS on that port. Given up at once like a refused connection; an intranet
 * with its own certificate authority is trusted by Node's NODE_EXTRA_CA_CERTS, which the reason names. */
const CERTIFICATE = /\b(self[- ]signed certificate|unable to (get (local )?issuer|verify the first) certificate|certificate (has expired|is not yet valid|has been revoked|signature failure)|does not match certificate's altnames)/i;
const NOT_TLS = /\bwrong version number\b/i;

const TIMED_OUT = /\b(timeout|timed out|aborted|deadline|ETIMEDOUT|UND_ERR_\w*TIMEOUT)\b/i;

/** Why `result` (an outcome that policy.ts decided is `unreachable`) gave no robots.txt. */
export function whyUnreachable(result: FetchOutcome): Unreachable {
  if (result.kind === 'response') return { reason: `HTTP ${result.status}`, cannotConnect: false };
  if (result.kind === 'too-many-redirects') return { reason: `${result.hops} redirects`, cannotConnect: false };
  if (result.kind === 'unusable-redirect') return { reason: `HTTP ${result.status} to a URL that cannot be fetched`, cannotConnect: false };
  for (const [code, reason] of NO_CONNECTION) if (code.test(result.message)) return { reason, cannotConnect: true };
  const certificate = CERTIFICATE.exec(result.message);
  if (certificate) return { reason: `TLS certificate not trusted (${certificate[0]}; NODE_EXTRA_CA_CERTS=FILE trusts a private CA)`, cannotConnect: true };
  if (NOT_TLS.test(result.message)) return { reason: 'no TLS on that port (is it http://?)', cannotConnect: true };
  const broken = httpProtocolError(result.message);
  if (broken !== undefined) return { reason: `the answer is not valid HTTP/1.1 (${broken})`, cannotConnect: true };
  // A body that is not the Content-Encoding it says is the same bytes on every try too.
  if (isUndecodableBody(result.message)) return { reason: result.message, cannotConnect: true };
  if (TIMED_OUT.test(result.message)) return { reason: 'no answer (timed out)', cannotConnect: false };
  return { reason: `network error: ${result.message}`, cannotConnect: false };
}

/** The same for a failure remembered in the store (only the status is kept). */
export function whyUnreachableCached(status: number): Unreachable {
  return { reason: status === 0 ? 'no answer (an earlier try, cached)' : `HTTP ${status} (an earlier try, cached)`, cannotConnect: false };
}
