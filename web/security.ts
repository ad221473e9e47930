// Response headers that make a page built from hostile crawled text safe to show. No page has an inline
// script or style: scripts and CSS come from /static, so the policy needs no nonce and allows no inline
// code at all; an injected <script> or onerror= in a result would be refused by the browser even if
// escaping ever failed.

import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "manifest-src 'self'",
].join('; ');

/** The headers of every answer, the app's and those written to the socket (client-errors.ts) alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // A result click must not tell the target site what the user searched for.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  };
}

/** A request naming two hosts is refused (RFC 9112 section 3.2: 400): which one it meant is a guess a
 * proxy in front may make differently, the ground of request smuggling. Node keeps the first. An HTTP/1.1
 * request naming none is refused too (the same section); Node's own check does that with a bare 400 that
 * lacks the headers above, so the server leaves it to this one (server.ts). HTTP/1.0 had no Host. */
export function oneHost(): RequestHandler {
  return (req, _res, next) => {
    const hosts = req.headersDistinct.host?.length ?? 0;
    if (hosts > 1) next(new HttpError(400, 'the request has more than one Host header'));
    else if (hosts === 0 && (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1)) next(new HttpError(400, 'the request has no Host header'));
    else next();
  };
}
