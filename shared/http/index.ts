// HTTP transfers under limits, shared by the crawler's fetches and the robots library's: the deadline and
// minimum rate (transfer-limits.ts, transfer-guard.ts) reading or discarding a body (http-body.ts), and
// telling a response that breaks the protocol (protocol-error.ts), a kept-alive connection the server
// closed under a request (stale-connection.ts), where a redirect points (location.ts), and what an
// HTTP-date says (http-date.ts), and the second, lenient reading of an answer undici's parser refused
// (lenient-fallback.ts, lenient-request.ts, lenient-parse.ts), and the proxy the environment names (proxy.ts).

export * from './transfer-limits.js';
export * from './transfer-guard.js';
export * from './http-body.js';
export * from './protocol-error.js';
export * from './stale-connection.js';
export * from './location.js';
export * from './http-date.js';
export * from './lenient-parse.js';
export * from './lenient-request.js';
export * from './lenient-fallback.js';
export * from './proxy.js';
