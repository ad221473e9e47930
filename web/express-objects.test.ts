// Requests made with the app's prototypes from the start (express-objects.ts): Express finds nothing to
// change, and every request and response method still works, through listen() and through a plain
// node:http server given the same app.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressObjects } from './express-objects.js';
import { listen, type RunningServer } from './server.js';

/** An app whose one route reports its request's and response's prototypes, and uses their Express methods. */
function reportingApp(): { app: Express; seen: { requestPrototype: unknown; responsePrototype: unknown }[] } {
  const app = express();
  const seen: { requestPrototype: unknown; responsePrototype: unknown }[] = [];
  app.get('/echo', (req, res) => {
    seen.push({ requestPrototype: Object.getPrototypeOf(req), responsePrototype: Object.getPrototypeOf(res) });
    res.status(201).json({ q: req.query.q, host: req.hostname, path: req.path, sameApp: req.app === app });
  });
  return { app, seen };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('expressObjects', () => {
  it('makes listen()\'s requests and responses with the prototypes Express would give them', async () => {
    const { app, seen } = reportingApp();
    const s: RunningServer = await listen(app, '127.0.0.1', 0);
    closers.push(() => s.close());
    // What Node's server made, before Express saw it.
    const made: { request: unknown; response: unknown }[] = [];
    s.server.prependListener('request', (req, res) => made.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) }));
    for (const q of ['one', 'two']) {
      const res = await fetch(`${s.url}echo?q=${q}`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ q, host: '127.0.0.1', path: '/echo', sameApp: true });
    }
    expect(seen).toHaveLength(2);
    expect(made).toEqual(Array.from({ length: 2 }, () => ({ request: app.request, response: app.response })));
    for (const s of seen) {
      expect(s.requestPrototype).toBe(app.request);
      expect(s.responsePrototype).toBe(app.response);
    }
  });

  it('is made once per app, and a server that does not use the classes is still served every method', async () => {
    const { app, seen } = reportingApp();
    const first = expressObjects(app);
    expect(expressObjects(app)).toBe(first);
    const plain: Server = createServer(app);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => plain.close(() => resolve())));
    const res = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/echo?q=plain`);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ q: 'plain', host: '127.0.0.1', path: '/echo', sameApp: true });
    // Express set this request's prototype itself, to the one the classes' requests are made with.
    expect(seen[0]!.requestPrototype).toBe(first.IncomingMessage.prototype);
    expect(seen[0]!.responsePrototype).toBe(first.ServerResponse.prototype);
  });
});
