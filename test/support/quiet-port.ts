// Ports for tests that need a host to refuse connections: taken below the kernel's ephemeral range, where
// every other test server's `listen(0)` lands, so a server started by a test running beside this one can
// never take the port before the crawl connects. A port bound by `listen(0)` and closed again was reused
// that way once in CI, and the "refused" host answered with another test's site.

import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect } from 'node:net';

/** Above 10080, the last port of the Fetch standard's bad-port list, which Gleaner never asks
 * (shared/url.ts): a link to it is dropped, so a test counting hosts would count one too few. */
const LOWEST_PORT = 10_081;
const ATTEMPTS = 50;

/** A port on 127.0.0.1 that refuses connections now and that no `listen(0)` will be given. */
export async function refusingPort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = portBelowEphemeral();
    if (await refuses(port)) return port;
  }
  throw new Error('no refusing port found on 127.0.0.1 below the ephemeral range');
}

/**
 * Starts `server` on 127.0.0.1 at a port below the ephemeral range and returns the port: once the server
 * closes, connections there are refused for the rest of the test.
 */
export async function listenBelowEphemeral(server: Server): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = portBelowEphemeral();
    const started = await new Promise<boolean>((resolve, reject) => {
      // Only a port in use is tried again; any other error is the test's to see.
      const failed = (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error));
      server.once('error', failed);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', failed);
        resolve(true);
      });
    });
    if (started) return port;
  }
  throw new Error('no free port found on 127.0.0.1 below the ephemeral range');
}

function portBelowEphemeral(): number {
  const lowestEphemeral = ephemeralStart();
  return LOWEST_PORT + Math.floor(Math.random() * Math.max(1, lowestEphemeral - LOWEST_PORT));
}

/** The first port the kernel gives out for `listen(0)`; Linux's default when it cannot be read. */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (low > LOWEST_PORT) return low;
  } catch {
    // Not Linux: Linux's default below.
  }
  return 32_768;
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
