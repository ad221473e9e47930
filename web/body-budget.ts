// How many request-body bytes the gateway holds in memory at once, across every connection. A form body
// is read whole before it is answered (up to maxFormBytes, 1.6 MB), and Node takes any number of
// connections: 300 clients each sending a full body but its last byte had grown serve by 465 MB until
// the request timeout ended them, and 10,000 would have held 16 GB. Each body reserves its bytes before it
// is read and gives them back when its answer is done; a body that does not fit is refused at once.

import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';

/** Seconds a refused client is asked to wait: the request timeout frees a stalled body within 30 s. */
const RETRY_AFTER_S = 30;

/** Refuses a body announced larger than `maxBodyBytes` (413), then reserves each request's body (its
 * Content-Length, or `maxBodyBytes` when it announces none) against `budgetBytes` shared by
 * every request through this handler; past it, a 503 with Retry-After that closes the connection, so the
 * unread body is not read either. */
export function bodyBudget(budgetBytes: number, maxBodyBytes: number): RequestHandler {
  let reserved = 0;
  return (req, res, next) => {
    const announced = Number(req.get('content-length') ?? Number.NaN);
    if (announced > maxBodyBytes) {
      // Refused before it is read: the body reader waits for the whole announced body before its 413, so a
      // client that announced 100 MB and sent nothing was answered only by the request timeout, with a 408.
      res.set('Connection', 'close');
      next(new HttpError(413, 'the request is too large'));
      return;
    }
    const bytes = Number.isFinite(announced) ? announced : maxBodyBytes;
    if (bytes > 0 && reserved + bytes > budgetBytes) {
      res.set({ 'Retry-After': String(RETRY_AFTER_S), Connection: 'close' });
      next(new HttpError(503, 'too many large forms are arriving at once: send it again in half a minute'));
      return;
    }
    reserved += bytes;
    // 'close' comes once per response, answered or dropped alike.
    res.once('close', () => (reserved -= bytes));
    next();
  };
}
