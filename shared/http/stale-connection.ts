// A kept-alive connection the server closed as the next request went out on it. Servers close idle
// connections when they like, and some close after every response without saying
// `Connection: close`; undici may already have written the next request to such a connection, which
// then ends as "other side closed" with no answer (undici issues 1415 and 3492). Chromium's rule for
// this (HttpNetworkTransaction::ShouldResendRequest) is Gleaner's: a request that failed on a *reused*
// connection before any byte of its response is sent again at once on a new connection, once. Before
// this, a server that closes after every response failed every other request of a crawl at --delay 0:
// each cost a retry, and a page unlucky four times in a row was stored as an error.
//
// undici's SocketError carries a copy of its socket's counters, not the socket, so what the socket
// had read when the request went out is noted as undici sends it (its `undici:client:sendHeaders`
// diagnostics channel), keyed by the connection's addresses and ports.

import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The part of undici's SocketError this reads: its code and its socket's addresses and counters. */
interface SocketErrorShape {
  code?: unknown;
  socket?: { localAddress?: unknown; localPort?: unknown; remoteAddress?: unknown; remotePort?: unknown; bytesRead?: unknown } | null;
}

/** Whether a request that got no response (`error`) was written to a connection that had already carried
 * an answer (`bytesReadAtSend` > 0: the socket's bytes read when the request went out) and nothing of its
 * own answer came before the server closed it. Pure. */
export function closedWhenReused(error: unknown, bytesReadAtSend: number | undefined): boolean {
  if (typeof error !== 'object' || error === null || bytesReadAtSend === undefined || bytesReadAtSend <= 0) return false;
  const e = error as SocketErrorShape;
  return e.code === 'UND_ERR_SOCKET' && e.socket?.bytesRead === bytesReadAtSend;
}

/** What each connection had read when its latest request went out, for the most recent
 * `NOTED_CONNECTIONS` connections (a request's failure is read just after its socket closes, so the
 * note cannot go with the socket; the oldest goes first instead, as in an LRU). */
const bytesReadAtSend = new Map<string, number>();
const NOTED_CONNECTIONS = 4096;
let subscribed = false;

function connectionKey(s: { localAddress?: unknown; localPort?: unknown; remoteAddress?: unknown; remotePort?: unknown }): string {
  return `${String(s.localAddress)}:${String(s.localPort)}>${String(s.remoteAddress)}:${String(s.remotePort)}`;
}

/** Starts noting, for every request undici writes in this process, what its connection had read before
 * it. Idempotent. */
export function watchReusedConnections(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket === undefined) return;
    const key = connectionKey(socket);
    bytesReadAtSend.delete(key); // re-inserted last: the Map's order is the notes' age
    bytesReadAtSend.set(key, socket.bytesRead);
    if (bytesReadAtSend.size > NOTED_CONNECTIONS) bytesReadAtSend.delete(bytesReadAtSend.keys().next().value!);
  });
}

/** Whether `error` ended a request on a connection the server closed under it (closedWhenReused). */
export function failedOnClosedConnection(error: unknown): boolean {
  const socket = (error as SocketErrorShape | null)?.socket;
  if (typeof socket !== 'object' || socket === null) return false;
  return closedWhenReused(error, bytesReadAtSend.get(connectionKey(socket)));
}
