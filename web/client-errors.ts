// Answers to what never reaches the app: a request Node's parser cannot read (too long, malformed, too
// slow to arrive), a CONNECT, and an Expect Node does not meet. Node's own answers are an empty body or
// a bare close; these say what happened, carry the headers every answer of the app carries, and wait
// for any answer the connection still owes an earlier request: a bad request pipelined after a good one
// had lost the good one's 200.

import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { SECURITY_HEADERS } from './security.js';

/** What each parser error means for the user, in the answer's own status; anything else is a 400. */
const CLIENT_ERRORS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'the address or its headers are too long: shorten the search'],
  HPE_URI_TOO_LONG: [414, 'the address is too long: shorten the search'],
  // Node 20 reports the headers timeout and the request timeout alike with this code.
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request took too long to arrive: send it again'],
};

/** Methods the app answers, for a 405. */
const ALLOWED_METHODS = 'GET, HEAD, POST';

/** Responses each connection has not finished writing, in request order. */
const inFlight = new WeakMap<Duplex, Set<ServerResponse>>();
/** What to do once a connection has written every response it owes (one error answer at most). */
const whenIdle = new WeakMap<Duplex, () => void>();

function track(req: IncomingMessage, res: ServerResponse, maxPipelined: number): void {
  if (res.writableFinished) return;
  const socket = req.socket;
  let pending = inFlight.get(socket);
  if (!pending) inFlight.set(socket, (pending = new Set()));
  pending.add(res);
  // No answer can tell a client that pipelines past the cap (it is not reading them): drop it.
  if (pending.size > maxPipelined) {
    socket.destroy();
    return;
  }
  const done = () => {
    pending.delete(res);
    if (pending.size > 0) return;
    const then = whenIdle.get(socket);
    whenIdle.delete(socket);
    then?.();
  };
  res.once('finish', done);
  res.once('close', done);
}

/** The headers and body of an answer made outside the app, closing the connection: JSON for the API,
 * text elsewhere. */
function closingAnswer(status: number, message: string, json: boolean, extra: Record<string, string> = {}): { headers: Record<string, string>; body: string } {
  const body = json ? JSON.stringify({ error: { status, message } }) : `${status}: ${message}\n`;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...extra,
    'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return { headers, body };
}

/** That answer as bytes written straight to the socket. */
function rawAnswer(status: number, message: string, json: boolean, extra: Record<string, string> = {}): string {
  const { headers, body } = closingAnswer(status, message, json, extra);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`;
}

/** Whether the unreadable request was for the API, when its request line is at the start of what was read. */
function forApi(err: NodeJS.ErrnoException & { rawPacket?: unknown }): boolean {
  if (!Buffer.isBuffer(err.rawPacket)) return false;
  return /^[A-Z]+ \/api\//.test(err.rawPacket.subarray(0, 64).toString('latin1'));
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Node reports a parser that failed again on every later chunk: answer once.
  if (whenIdle.has(socket) || !socket.writable) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'the request could not be understood'];
  const answer = rawAnswer(status, message, forApi(err));
  const send = () => {
    if (socket.writable) socket.end(answer);
    else socket.destroy();
  };
  const pending = inFlight.get(socket) ?? new Set<ServerResponse>();
  // A request still arriving (a body too slow) is the one that failed: its answer is this one, so it is
  // not waited for; if the app has begun answering it anyway, bytes of ours would corrupt that answer.
  for (const res of pending) {
    if (res.req.complete) continue;
    if (res.headersSent) {
      socket.destroy();
      return;
    }
    pending.delete(res);
  }
  if (pending.size === 0) send();
  else whenIdle.set(socket, send);
}

function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  socket.end(rawAnswer(405, 'this server is no proxy: CONNECT is not answered', false, { Allow: ALLOWED_METHODS }));
}

/** An Expect other than 100-continue is a 417 (RFC 9110 10.1.1). Node answers it itself, before the app,
 * with an empty body and none of the headers every answer carries; the body it announced is not read. */
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const { headers, body } = closingAnswer(417, 'the request expects what this server does not do: send it without Expect', req.url?.startsWith('/api/') === true);
  res.writeHead(417, headers).end(body);
}

/** Installs the answers above on `server`, dropping a connection with more than `maxPipelined` requests
 * unanswered. */
export function answerUnroutable(server: Server, maxPipelined: number): void {
  // Before the app's listener, so a response it finishes at once is seen finishing.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => track(req, res, maxPipelined));
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  server.on('checkExpectation', answerExpectation);
}
