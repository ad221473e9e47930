// robots.txt for Gleaner, one library the crawler, the web gateway and the CLI share: parse (parse.ts),
// decide (match.ts, pattern.ts), lint (lint.ts), the fetch policy (policy.ts), why a host is unreachable
// (unreachable.ts) and the uncached fetch (fetch.ts). The store-backed cache is the crawler's
// (crawler/robots-cache.ts). This file is the only entry the rest of Gleaner imports.

export { parseRobots, PARSE_LIMIT_BYTES, type ParsedRobots, type RobotsRule, type RobotsGroup, type RobotsLine } from './parse.js';
export { checkUrl, groupFor, isValidProductToken, type RobotsMode, type RobotsVerdict, type GroupSummary } from './match.js';
// The matcher's inner steps, for bench/robots-match.ts, which times them apart.
export { checkPath, pathParamsQuery, selectRules, type RuleSet } from './match.js';
export { compilePattern, matchesPath, type MatchWork, type CompiledPattern } from './pattern.js';
export { lintRobots, type LintReport, type LintFinding, type LintStats, type LintSeverity, type LintOptions } from './lint.js';
export { hostRobots, robotsFromUrl, fetchRobots, describeResult, type RobotsOptions, type HostRobots, type RobotsRespect } from './fetch.js';
export { ROBOTS_DEFAULTS, backoffMs, decide, decideStatus, freshnessSeconds, type RobotsOutcome, type FetchOutcome, type Decision } from './policy.js';
export { whyUnreachable, whyUnreachableCached, type Unreachable } from './unreachable.js';
