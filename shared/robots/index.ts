// robots.txt for Gleaner: parse (parse.ts), decide (match.ts, pattern.ts), lint (lint.ts), and the
// crawler's edge that fetches and caches (fetch.ts, policy.ts). This file is the only entry the rest of
// Gleaner imports.

export { parseRobots, PARSE_LIMIT_BYTES, type ParsedRobots, type RobotsRule, type RobotsGroup, type RobotsLine } from './parse.js';
export { checkUrl, groupFor, isValidProductToken, type RobotsMode, type RobotsVerdict, type GroupSummary } from './match.js';
export { lintRobots, type LintReport, type LintFinding, type LintStats, type LintSeverity, type LintOptions } from './lint.js';
export { robotsForOrigin, robotsFromUrl, fetchRobots, describeResult, type RobotsOptions, type HostRobots, type RobotsRespect } from './fetch.js';
export { ROBOTS_DEFAULTS, type RobotsOutcome, type FetchOutcome } from './policy.js';
