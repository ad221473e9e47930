// The web gateway's entry: the app factory, the server that runs it (in one process per core:
// workers.ts, worker-count.ts), the query parser, the options they share, and what `gleaner search` and
// `gleaner trace` print the same way the pages do (run-search.ts, api-answer.ts, result-view.ts,
// trace.ts). web/search/ (the searcher) has its own entry.

export { createApp, type AppDeps } from './app.js';
export { serve, listen, checkCanListen, untilInterrupted, type ServeOptions, type RunningServer } from './server.js';
export { WEB_DEFAULTS, type WebOptions, type QueryLimits } from './defaults.js';
export { normalizeOrigin } from './cross-origin.js';
export { parseQuery, formatQuery, parseSynonyms, applySynonyms, parsePromoted, promotedUrls, type SynonymRules, type PromotedRules } from './query/index.js';
export { indexStats, engineStats, type GatewayStats, type StatsSource } from './stats.js';
export { serveInWorkers, isServeWorker, restartDelayMs, DEFAULT_RESTART_BACKOFF, type RestartBackoff, type ServedUrl } from './workers.js';
export { autoWorkerCount, workerFacts, DEFAULT_WORKER_COUNT_OPTIONS, type WorkerFacts, type WorkerCountOptions } from './worker-count.js';
export { queryStep } from './trace.js';
export { runSearch, parseAsSearched, type SearchRun } from './run-search.js';
export { apiAnswer } from './api-answer.js';
export { HttpError } from './http-error.js';
export { promotedView, resultView, type ResultView } from './result-view.js';
export { count as formatCount, seconds as formatSeconds } from './format.js';
export { openSearchEngine, SORT_ORDERS, type SortOrder } from './search/index.js';
