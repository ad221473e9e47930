// An error a route raises on purpose, with the HTTP status to answer and a message meant for the user.
// The one error handler (errors.ts) turns it, and GleanerError codes, into a page or JSON.

export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}
