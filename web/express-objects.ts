// Requests and responses made with the app's Express prototypes from the start.
//
// Express gives each request its methods (req.query, res.json) by changing its prototype:
// `Object.setPrototypeOf(req, app.request)` and the same for `res`, once a request. In Node 20's V8 an
// object whose prototype changes after it was made takes a shape Node's HTTP code never saw, and the
// reads after that are slow: a hello-world Express app answered 5,250 requests/s on this machine
// where plain Node answered 33,000, and a plain Node server that only set the prototypes 13,400
// (`wrk -t1 -c4`; Node 24 pays far less). Node's HTTP server constructs its requests and responses
// from classes we may give it: made from classes whose prototypes are the app's, Express's
// setPrototypeOf finds the prototype already in place, which V8 does nothing for. The hello-world then
// answered 12,300 requests/s, and `serve` on the Rust docs about a fifth more (DESIGN.md "Express's
// prototypes set once").

import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

export interface ExpressObjects {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const made = new WeakMap<Express, ExpressObjects>();

/**
 * The classes for `http.createServer({ IncomingMessage, ServerResponse })` whose instances already
 * have `app`'s request and response prototypes. Points `app.request` and `app.response` at their
 * prototypes, which inherit everything the app's had (so a request made elsewhere, by a server that
 * did not use these classes, still gets every method). Once per app.
 */
export function expressObjects(app: Express): ExpressObjects {
  const known = made.get(app);
  if (known !== undefined) return known;
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  // Set once, at start, on the classes' own prototypes: no request ever changes shape.
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  app.request = Request.prototype as unknown as Express['request'];
  app.response = Response.prototype as unknown as Express['response'];
  const objects = { IncomingMessage: Request, ServerResponse: Response } as ExpressObjects;
  made.set(app, objects);
  return objects;
}
