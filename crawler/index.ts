// The crawler stage's entry: what the CLI, the demo and the tests use. Everything else in crawler/ is
// internal to the stage; its one output is the store (shared/store/).

export { crawl, type CrawlHooks, type CrawlProgress, type CrawlSummary } from './crawl.js';
export { describeGivenUp, describeWait, type HostGivenUp, type RobotsWait } from './robots-waits.js';
export { prepareCrawl, type PreparedCrawl } from './prepare.js';
export { storedCrawlSettings, type CrawlSettings } from './crawl-settings.js';
export { DEFAULT_CRAWL_OPTIONS, resolveCrawlOptions, type CrawlOptions, type RobotsRespect, type Scope } from './options.js';
export { DEFAULT_TRAP_OPTIONS } from './traps.js';
export { jsonLinesLogger, silentLogger, teeLogger, type Logger, type LogLevel } from '../shared/log.js';
export { checkSelector, extractWithRules, httpOriginOf, parseSitesConfig, rulesFor, type ExtractRules, type RuledExtraction } from './site-rules.js';
export { fetchOnePage, type FetchOneResult } from './fetch-one.js';
export { traceFetch, type FetchTrace } from './trace-fetch.js';
export { EXTRACTION_VERSION } from './extraction-version.js';
