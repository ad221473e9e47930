// The last two handlers: 404 for any address no route took, then the one error handler. Users get a
// status and a message they can act on, as a page or as JSON under /api; stacks go to the log only.

import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { isGleanerError } from '../shared/errors.js';
import { HttpError } from './http-error.js';
import type { IndexHealth } from './index-health.js';

export function notFound(): RequestHandler {
  return (req, _res, next) => next(new HttpError(404, `there is no page at ${req.path}`));
}

interface Answer {
  status: number;
  message: string;
}

function answerFor(err: unknown): Answer {
  if (err instanceof HttpError) return { status: err.status, message: err.message };
  if (isGleanerError(err)) {
    const status = err.code === 'BAD_ARGUMENT' ? 400 : err.code === 'FETCH_FAILED' ? 502 : 503;
    return { status, message: err.message };
  }
  // Errors from express and body-parser carry a client status and say whether the message is safe.
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    if (e.type === 'entity.too.large') return { status, message: 'the request is too large' };
    return { status, message: e.expose === true ? (err as Error).message : 'the request could not be understood' };
  }
  return { status: 500, message: 'something went wrong on our side; the error was logged' };
}

/** A Gleaner error already says what went wrong and what to do (a damaged index: rebuild it), and comes
 * once a query while the cause lasts: one line. Anything else is a bug: its stack. */
function logText(err: unknown): string {
  if (isGleanerError(err)) return err.message;
  return (err instanceof Error ? err.stack : undefined) ?? String(err);
}

/** Headers that describe the representation a handler was about to send (a static file's type, its
 * validators and an hour of public caching), not the error answer that replaces it. Express's own final
 * handler drops them too; without that a 416 for a file was an HTML page labelled text/css (refused by
 * browsers under nosniff) that shared caches could keep for an hour. */
const REPRESENTATION_HEADERS = ['Content-Type', 'Content-Length', 'Content-Encoding', 'Content-Language', 'Content-Disposition', 'Content-Range', 'ETag', 'Last-Modified', 'Cache-Control'];

export function wantsJson(req: Request): boolean {
  return req.path.startsWith('/api/') || req.path === '/healthz' || req.accepts(['html', 'json']) === 'json';
}

/** Answers `err`; a damaged index file (INDEX_FORMAT) is also told to `health`, for /healthz. */
export function errorHandler(log: (message: string) => void, health?: IndexHealth): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (isGleanerError(err) && err.code === 'INDEX_FORMAT') health?.failed(err.message);
    if (res.headersSent) { next(err); return; }
    const answer = answerFor(err);
    // A 416 keeps Content-Range: it tells the client the representation's length (RFC 9110 15.5.17).
    for (const name of REPRESENTATION_HEADERS) if (!(name === 'Content-Range' && answer.status === 416)) res.removeHeader(name);
    // A 5xx raised on purpose (an HttpError: too many forms at once) is no bug; a stack for each refusal
    // would flood the log just when the server is being flooded.
    if (answer.status >= 500 && !(err instanceof HttpError)) log(`${req.method} ${req.originalUrl.slice(0, 200)}: ${logText(err)}`);
    res.status(answer.status);
    if (wantsJson(req)) {
      res.json({ error: { status: answer.status, message: answer.message } });
      return;
    }
    const locals = { title: answer.status === 404 ? 'Not found' : 'Error', status: answer.status, message: answer.message, q: '' };
    // If even the error page cannot render, answer in plain text rather than with express's default page.
    res.render('error', locals, (renderErr: Error | null, html?: string) => {
      if (renderErr) {
        log(`error page failed: ${renderErr.stack ?? renderErr.message}`);
        res.type('text/plain').send(`${answer.status}: ${answer.message}\n`);
      } else res.send(html);
    });
  };
}
