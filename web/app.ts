// The gateway's express application, built by a factory so tests and the serve command give it its
// searcher and data sources. It never listens: web/server.ts does.

import express, { type Express } from 'express';
import { statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import ejs from 'ejs';
import type { SearchEngine, SearchResult } from './search/index.js';
import { assetDir } from './assets.js';
import { WEB_DEFAULTS, type WebOptions } from './defaults.js';
import { errorHandler, notFound } from './errors.js';
import { wrongMethod } from './methods.js';
import { fmt } from './format.js';
import { IndexHealth } from './index-health.js';
import { LruCache } from './lru.js';
import { oneHost, securityHeaders } from './security.js';
import { crossOrigin } from './cross-origin.js';
import { engineStats, type StatsSource } from './stats.js';
import { fetchRobotsTxt, type RobotsFetcher } from './robots/fetch.js';
import { apiRoutes } from './routes/api.js';
import { apiDocsRoutes } from './routes/api-docs.js';
import { embedRoutes } from './routes/embed.js';
import { infoRoutes } from './routes/info.js';
import { robotsRoutes } from './routes/robots.js';
import { searchRoutes } from './routes/search.js';
import { statsRoutes } from './routes/stats.js';
import { traceRoutes } from './routes/trace.js';
import type { AppContext } from './context.js';
import type { CrawlStatus } from '../shared/crawl-status.js';

export interface AppDeps {
  engine: SearchEngine;
  /** Crawl and index figures for /stats; by default the engine's index summary alone. */
  stats?: StatsSource;
  /** How /robots fetches a robots.txt named by URL; by default the robots library's fetch (shared/robots), the crawler's too. */
  fetchRobots?: RobotsFetcher;
  /** The data dir's live crawl status (shared/crawl-status.ts); by default none. */
  crawlStatus?: () => Promise<CrawlStatus | undefined>;
  /** Overrides of WEB_DEFAULTS. */
  options?: Partial<WebOptions>;
  /** Where server errors are logged (never shown to users); by default stderr. */
  log?: (message: string) => void;
}

export function createApp(deps: AppDeps): Express {
  const options: WebOptions = { ...WEB_DEFAULTS, ...deps.options };
  const ctx: AppContext = {
    engine: deps.engine,
    stats: deps.stats ?? engineStats(deps.engine),
    fetchRobots: deps.fetchRobots ?? fetchRobotsTxt,
    crawlStatus: deps.crawlStatus ?? (() => Promise.resolve(undefined)),
    options,
    cache: new LruCache<SearchResult>({
      maxEntries: options.searchCacheEntries,
      maxBytes: options.searchCacheMiB * 1024 * 1024,
      admitRepeatsAmong: options.searchCacheAdmitRepeatsAmong,
    }),
    health: new IndexHealth(deps.engine),
  };
  const log = deps.log ?? ((message: string) => process.stderr.write(`gleaner serve: ${message}\n`));

  const app = express();
  app.disable('x-powered-by');
  // Result pages are computed per request; hashing each body for an ETag costs more than it saves.
  app.set('etag', false);
  app.set('query parser', 'simple');
  // As every route group (routes/router.ts): /STATIC/ is not /static/.
  app.set('case sensitive routing', true);
  // Express passes a callback, so renderFile answers through it and returns nothing.
  app.engine('ejs', (path, data, callback) => {
    ejs.renderFile(path, data, callback);
  });
  app.set('view engine', 'ejs');
  app.set('views', assetDir('views'));
  app.set('view cache', true);
  app.locals.fmt = fmt;
  app.locals.options = options;

  app.use(securityHeaders());
  app.use(oneHost());
  app.use(crossOrigin(options.allowOrigins));
  const publicDir = assetDir('public');
  app.use('/static', express.static(publicDir, { index: false, maxAge: '1h', fallthrough: true }));
  app.use(searchRoutes(ctx));
  app.use(apiRoutes(ctx));
  app.use(apiDocsRoutes(ctx));
  app.use(embedRoutes(ctx));
  app.use(robotsRoutes(ctx));
  app.use(statsRoutes(ctx));
  app.use(traceRoutes(ctx));
  app.use(infoRoutes(ctx));
  app.use(wrongMethod((path) => path.startsWith('/static/') && isFileIn(publicDir, path.slice('/static/'.length))));
  app.use(notFound());
  app.use(errorHandler(log, ctx.health));
  return app;
}

/** Whether `path` (as the request gave it, undecoded) names a file inside `dir`; never outside it. */
function isFileIn(dir: string, path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  const full = resolve(dir, decoded);
  const inside = relative(dir, full);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || decoded.includes('\0')) return false;
  return statSync(full, { throwIfNoEntry: false })?.isFile() ?? false;
}
