// The only place the gateway listens: opens the searcher over a data dir, builds the app, binds the
// port. `gleaner serve` and `gleaner demo` call `serve`; tests use createApp on port 0 themselves.

import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { Express } from 'express';
import { GleanerError } from '../shared/errors.js';
import { createApp } from './app.js';
import { expressObjects } from './express-objects.js';
import { answerUnroutable } from './client-errors.js';
import { CONNECTION_LIMITS, type ConnectionLimits, type WebOptions } from './defaults.js';
import { openLiveSearchEngine } from './search/index.js';
import { indexStats } from './stats.js';
import { readCrawlStatus } from '../shared/crawl-status.js';

export interface ServeOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host: string;
  web?: Partial<WebOptions>;
}

export interface RunningServer {
  /** `http://host:port/` as a browser would open it. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Why `host`:`port` cannot be listened on, as a BAD_ARGUMENT the user can fix; other errors as they are. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new GleanerError('BAD_ARGUMENT', `port ${port} on ${host} is in use: choose another with --port`, { cause: e });
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return new GleanerError('BAD_ARGUMENT', `cannot listen on ${host}: not an address of this machine`, { cause: e });
  if (e.code === 'EACCES') return new GleanerError('BAD_ARGUMENT', `not allowed to listen on port ${port}: use a port above 1023`, { cause: e });
  return e;
}

/** Throws what `listen` would for `host`:`port`, without keeping it: a command with work to do before it
 * serves (the demo crawls and indexes first) says so before that work, not after. */
export async function checkCanListen(host: string, port: number): Promise<void> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, host, port)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Binds `app`; a port in use or a host that cannot be bound is a BAD_ARGUMENT the user can fix. */
export async function listen(app: Express, host: string, port: number, limits: Partial<ConnectionLimits> = {}): Promise<RunningServer> {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, connectionsCheckingIntervalMs, sendTimeoutMs, maxPipelinedRequests } = { ...CONNECTION_LIMITS, ...limits };
  // A request whose connection was dropped while it waited its turn (too many pipelined, below) is not
  // answered: Node parses every request of a chunk already read, and each would otherwise run a search.
  // Requests made with Express's prototypes already (express-objects.ts): on Node 20 that more than
  // doubled what Express alone answers a second.
  // A missing Host is refused by the app (security.ts oneHost), with the headers of every answer.
  const server = createServer({ ...expressObjects(app), requireHostHeader: false, requestTimeout: requestTimeoutMs, headersTimeout: headersTimeoutMs, keepAliveTimeout: keepAliveTimeoutMs, connectionsCheckingInterval: connectionsCheckingIntervalMs }, (req, res) => {
    if (!req.socket.destroyed) app(req, res);
  });
  // Node's socket inactivity timeout: no byte read or written for this long, and nothing listens for
  // 'timeout', so Node destroys the socket. Node's default is none.
  server.timeout = sendTimeoutMs;
  answerUnroutable(server, maxPipelinedRequests);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, host, port)));
    server.listen(port, host);
  });
  const address = server.address() as AddressInfo;
  // A wildcard address is where the server listens, not where a browser can go: show loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const shownHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  return {
    url: `http://${shownHost}:${address.port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Opens the index in `dataDir` read-only and serves search over it. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  // Live: a `gleaner index` run while serving is picked up without a restart (web/search/live.ts).
  const log = (message: string) => process.stderr.write(`gleaner serve: ${message}\n`);
  // One line per reload, so a new index that does not load is not silent; the old one keeps answering.
  const engine = await openLiveSearchEngine(options.dataDir, {}, {
    onReload: (o) =>
      log(o.ok
        ? `now serving the index in ${o.generation}`
        : `the new index in ${o.generation} did not load; still serving the previous one, trying again in ${Math.round(o.retryInMs / 1000)} s: ${o.error instanceof Error ? o.error.message : String(o.error)}`),
  });
  const app = createApp({ engine, stats: indexStats(engine), crawlStatus: () => readCrawlStatus(options.dataDir), options: options.web ?? {}, log });
  const running = await listen(app, options.host, options.port).catch((e: unknown) => {
    engine.close();
    throw e;
  });
  return {
    ...running,
    close: async () => {
      await running.close();
      engine.close();
    },
  };
}

/** Resolves at the first Ctrl-C (SIGINT) or SIGTERM: how `serve` and `demo` wait before closing. */
const stopping = (): void => {};

export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // A second signal while the server closes (Ctrl-C pressed twice) finds the stop under way; with no
      // listener left, Node's default ended the process with 130 instead of the 0 serve promises. The
      // close is bounded (every connection is closed), so nothing is left for a second signal to end.
      process.on('SIGINT', stopping);
      process.on('SIGTERM', stopping);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
