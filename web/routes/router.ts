// The router every route group builds on. Express matches paths case-insensitively by default, but the
// checks made on `req.path` (CORS and JSON errors for /api/, robots.txt's `Disallow: /api/`) are
// case-sensitive: /API/search had been answered without them. One spelling per address, as RFC 3986
// treats paths.

import { Router } from 'express';

export function routeGroup(): Router {
  return Router({ caseSensitive: true });
}
