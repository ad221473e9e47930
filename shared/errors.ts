// Errors by what the caller should do. Each has a stable `code`; the CLI prints `message` alone, so a
// message must make sense to a user who never reads the code.

export type ErrorCode =
  | 'BAD_ARGUMENT' // the user gave a flag, URL or file we cannot use: fix the input
  | 'SCHEMA_MISMATCH' // the data dir was written by another version of Gleaner
  | 'STORE_LOCKED' // another Gleaner process has the data dir open
  | 'DATA_DIR' // the data dir (or log file) is a file, read-only, full, or inside another data dir: fix the disk or the path
  | 'NOT_FOUND' // something the command needs does not exist yet (e.g. no index built)
  | 'FETCH_FAILED' // a network fetch failed (retryable)
  | 'UNREACHABLE' // no host the command needed (e.g. every crawl seed) could be reached at all
  | 'INDEX_FORMAT' // the index on disk has a format this version cannot read
  | 'INDEX_TOO_LARGE' // the pages hold more postings than one build's arrays can: index fewer pages
  | 'BUILD_FAILED'; // an index build run as a process of its own failed; the message is the line it said

export class GleanerError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  constructor(code: ErrorCode, message: string, options: { cause?: unknown; retryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GleanerError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

export function isGleanerError(e: unknown): e is GleanerError {
  return e instanceof GleanerError;
}
