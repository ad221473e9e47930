// Which methods an address answers, for a 405 with its `Allow` header rather than a 404 that says the
// page does not exist. Read from the app's own routes, so no second list can drift from them. Express
// keeps its routes in `router` internals it does not type: this is the one place that reads them.

import type { Application, RequestHandler } from 'express';
import { HttpError } from './http-error.js';

interface RouteInternals {
  _methods(): string[];
}
interface LayerInternals {
  match(path: string): false | { path: string };
  route?: RouteInternals;
  handle: { stack?: LayerInternals[] };
}

function collect(stack: readonly LayerInternals[], path: string, into: Set<string>): void {
  for (const layer of stack) {
    const matched = layer.match(path);
    if (!matched) continue;
    if (layer.route) for (const method of layer.route._methods()) into.add(method);
    // A mounted router: what follows its mount path (all of it for one mounted at the root).
    else if (layer.handle.stack) collect(layer.handle.stack, path.slice(matched.path.length) || '/', into);
  }
}

/** The methods some route of `app` answers at `path` (HEAD with GET, as express answers it); none when no
 * route has the path. */
export function allowedMethods(app: Application, path: string): string[] {
  const methods = new Set<string>();
  collect((app.router as unknown as { stack: LayerInternals[] }).stack, path, methods);
  return [...methods];
}

/** A request no route took, at an address that answers other methods: 405 with `Allow`. `isFile`: whether
 * a path is a file the app serves as it is (static files answer GET and HEAD only; their middleware
 * passes other methods on, which found no route and were a 404 as if the file did not exist). */
export function wrongMethod(isFile: (path: string) => boolean = () => false): RequestHandler {
  return (req, res, next) => {
    const allowed = isFile(req.path) ? ['GET', 'HEAD'] : allowedMethods(req.app, req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) {
      next();
      return;
    }
    res.set('Allow', allowed.join(', '));
    next(new HttpError(405, `${req.method} is not answered at ${req.path}: use ${allowed.join(' or ')}`));
  };
}
