// Cross-origin use, for the embeddable search box only. By default every response is same-origin only
// (security.ts: Cross-Origin-Resource-Policy same-origin, no CORS headers), so another site's page can
// neither load Gleaner's script nor read its API. `allowOrigins` (serve --allow-origin) opens exactly
// two things to exactly those origins: /embed.js may be loaded as a script, and /api/* answers carry
// CORS headers for a request whose Origin is listed. Nothing else changes: pages still refuse framing.

import type { RequestHandler } from 'express';

/** Normalises an origin as browsers send it (`https://www.example.org`, no path, no trailing slash);
 * undefined for anything that is not an http(s) origin. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const u = new URL(value.trim());
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username !== '' || u.password !== '') return undefined;
    if (u.pathname !== '/' || u.search !== '' || u.hash !== '') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

/** The headers an /api/* answer gets for a request from `origin`, or none when it is not allowed. */
export function corsHeaders(origin: string | undefined, allowed: ReadonlySet<string>): Record<string, string> {
  if (origin === undefined || !allowed.has(origin)) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
}

export function crossOrigin(allowOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowOrigins);
  return (req, res, next) => {
    if (allowed.size > 0 && req.path === '/embed.js') {
      // A script tag sends no Origin; the script is public code, so any page may load it once the
      // owner has allowed some origin. The API below still answers only the allowed ones.
      res.set('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    if (allowed.size === 0 || !req.path.startsWith('/api/')) {
      next();
      return;
    }
    // Answers differ by Origin, refusals included: without Vary on a refusal too, a shared cache could
    // serve an answer made for another origin (or none) to the allowed site, lacking its CORS headers.
    res.vary('Origin');
    res.set(corsHeaders(req.get('origin'), allowed));
    if (req.method === 'OPTIONS') {
      // GET without custom headers needs no preflight; answer one anyway, briefly and without a body. A
      // GET that sends Content-Type (fetch wrappers set application/json on every request) or
      // Accept-Language with a value outside the CORS-safelisted ones is preflighted: allow those.
      res.set({ 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'Content-Type, Accept, Accept-Language', 'Access-Control-Max-Age': '600' }).status(204).end();
      return;
    }
    next();
  };
}
