// HTTP transfers under limits, shared by the crawler's fetches and the robots library's: the deadline and
// minimum rate (transfer-limits.ts, transfer-guard.ts) and reading or discarding a body (http-body.ts).

export * from './transfer-limits.js';
export * from './transfer-guard.js';
export * from './http-body.js';
