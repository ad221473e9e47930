// Which rules apply to a robot, and what they say about a URL. Pure. Two readings of the same file:
//
// - `rfc9309` (RFC 9309): the groups whose User-agent product token equals the robot's, case-insensitive,
//   merged; else the `*` groups merged. The matching rule with the most octets decides; Allow wins a tie.
// - `draft` (the 1996 draft, as Geoportal and Python's robotparser read it): the first record naming the
//   robot applies, and in it the first matching line; when none matches, the first `*` record is asked
//   (Geoportal's fall-back); when nothing matches, the URL is allowed.
//
// In both, /robots.txt itself is always allowed (RFC 9309 section 2.2.2).

import type { CompiledRule, ParsedRobots, RobotsGroup, RobotsRule } from './parse.js';
import { normalizePercentEncoding } from '../url.js';
import { matchesPath, type MatchWork } from './pattern.js';

export type RobotsMode = 'rfc9309' | 'draft';

export interface RobotsVerdict {
  allowed: boolean;
  /** The rule that decided, or null when none matched (or the URL is /robots.txt). */
  rule: RobotsRule | null;
  /** Why, in words: which rule of which group, or why no rule applied. */
  reason?: string;
}

export interface GroupSummary {
  /** User-agent values of the group(s) that apply, as written; [] when none does. */
  agents: string[];
  crawlDelaySeconds: number | null;
  host: string | null;
  sitemaps: string[];
}

/** The rules that apply to one robot, chosen once and then asked for many URLs. */
export interface RuleSet {
  mode: RobotsMode;
  agents: string[];
  /** rfc9309: the merged rules. draft: the first matching record's rules. */
  rules: CompiledRule[];
  /** draft only: the `*` record's rules, asked when no line of the specific record matches. */
  fallback: CompiledRule[];
  /** Words for the verdict: which group was chosen. */
  groupLabel: string;
}

/**
 * The product token of a User-agent value: its leading run of `[a-zA-Z_-]` (RFC 9309 section 2.2.1),
 * so `Googlebot/2.1` names `Googlebot` and `FOO BAR` names `FOO`. `AB42bot` names `AB`, as Google's
 * parser and the spec suite read it: a value that is not a valid token names its valid prefix.
 */
export function productToken(value: string): string {
  const m = /^[A-Za-z_-]+/.exec(value);
  return m ? m[0] : '';
}

/** Whether a crawler may use `agent` as its product token (RFC 9309 section 2.2.1: `[a-zA-Z_-]+`). */
export function isValidProductToken(agent: string): boolean {
  return /^[A-Za-z_-]+$/.test(agent);
}

/** `*`, or `*` followed by whitespace and anything (still the global group, as Google reads it). */
function isGlobal(value: string): boolean {
  return value === '*' || /^\*\s/.test(value);
}

function rfcAgentMatches(value: string, agent: string): boolean {
  const token = productToken(value);
  return token !== '' && token.toLowerCase() === agent.toLowerCase();
}

/** The draft: a case-insensitive substring match of the names without version, either way round
 * (the robot's name inside the record's value, or the record's value inside the robot's full name,
 * which is how Python's robotparser reads `User-agent: figtree` for `FigTree Robot libwww-perl/5.04`). */
function draftAgentMatches(value: string, agent: string): boolean {
  const v = value.split('/')[0]!.trim().toLowerCase();
  const a = agent.split('/')[0]!.trim().toLowerCase();
  return v !== '' && v !== '*' && a !== '' && (v.includes(a) || a.includes(v));
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

// A parsed file is immutable, so the choice per robot and mode is kept with it: checkUrl on the same
// file for many URLs chooses once.
const chosen = new WeakMap<ParsedRobots, Map<string, RuleSet>>();

/** Chooses the rules that apply to `agent`. */
export function selectRules(robots: ParsedRobots, agent: string, mode: RobotsMode): RuleSet {
  let perAgent = chosen.get(robots);
  if (!perAgent) chosen.set(robots, (perAgent = new Map<string, RuleSet>()));
  const key = `${mode}\n${agent}`;
  let set = perAgent.get(key);
  if (!set) perAgent.set(key, (set = chooseRules(robots, agent, mode)));
  return set;
}

function chooseRules(robots: ParsedRobots, agent: string, mode: RobotsMode): RuleSet {
  const groups = applyingGroups(robots, agent, mode);
  const agents = dedupe((mode === 'draft' ? groups.slice(0, 1) : groups).flatMap((g) => g.agents));
  const groupLabel = agents.length === 0 ? `no ${mode === 'draft' ? 'record' : 'group'} for ${agent}` : `the ${mode === 'draft' ? 'record' : 'group'} for ${agents.join(', ')}`;
  if (mode === 'draft') return { mode, agents, rules: groups[0]?.rules ?? [], fallback: groups[1]?.rules ?? [], groupLabel };
  return { mode, agents, rules: groups.flatMap((g) => g.rules), fallback: [], groupLabel };
}

/**
 * The part of a URL rules are matched against: path, params and query, without the fragment
 * (Google's GetPathParamsQuery, which also accepts URLs without a scheme). Always starts with `/`.
 */
export function pathParamsQuery(url: string): string {
  const searchStart = url.startsWith('//') ? 2 : 0;
  const earlyPath = indexOfAny(url, '/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  // `://` after the path has started is part of the path or query, not a scheme.
  if (protocolEnd === -1 || (earlyPath !== -1 && earlyPath < protocolEnd)) protocolEnd = searchStart;
  else protocolEnd += 3;
  const pathStart = indexOfAny(url, '/?;', protocolEnd);
  if (pathStart === -1) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash !== -1 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path.startsWith('/') ? path : '/' + path;
}

function indexOfAny(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i;
  return -1;
}

function publicRule(r: CompiledRule): RobotsRule {
  return { type: r.type, pattern: r.pattern, line: r.line };
}

function describe(r: CompiledRule): string {
  return `${r.type === 'allow' ? 'Allow' : 'Disallow'}: ${r.pattern} (line ${r.line})`;
}

export const ROBOTS_TXT_VERDICT: RobotsVerdict = {
  allowed: true,
  rule: null,
  reason: '/robots.txt is always allowed (RFC 9309 section 2.2.2)',
};

/** Whether a (normalized) path is robots.txt itself, which is always allowed. */
export function isRobotsTxt(path: string): boolean {
  return path === '/robots.txt';
}

/** The verdict of a rule set on a path from `pathParamsQuery`. */
export function checkPath(set: RuleSet, rawPath: string, work?: MatchWork): RobotsVerdict {
  // Escapes are normalised as in the patterns; raw non-ASCII is left alone: percent-encoding a URL is
  // the caller's job (the crawler's canonical URLs are encoded), and the suites expect a raw `ツ` in a
  // URL not to match a `ツ` rule, which is compared as `%E3%83%84`.
  const path = rawPath.includes('%') ? normalizePercentEncoding(rawPath) : rawPath;
  if (isRobotsTxt(path)) return ROBOTS_TXT_VERDICT;
  if (set.mode === 'draft') {
    const first = firstMatch(set.rules, path, work);
    const hit = first ?? firstMatch(set.fallback, path, work);
    if (!hit) return { allowed: true, rule: null, reason: `no line of ${set.groupLabel} matches` };
    const where = first ? set.groupLabel : 'the * record (fall-back)';
    return { allowed: hit.type === 'allow', rule: publicRule(hit), reason: `first matching line of ${where}: ${describe(hit)}` };
  }
  let best: CompiledRule | null = null;
  for (const r of set.rules) {
    // An empty pattern matches nothing in RFC 9309 (`Disallow:` means "no restriction").
    if (r.compiled.octets === 0) continue;
    if (best !== null && (r.compiled.octets < best.compiled.octets || (r.compiled.octets === best.compiled.octets && best.type === 'allow'))) continue;
    if (matchesPath(r.compiled, path, work)) best = r;
  }
  if (!best) return { allowed: true, rule: null, reason: `no rule of ${set.groupLabel} matches` };
  return { allowed: best.type === 'allow', rule: publicRule(best), reason: `longest match in ${set.groupLabel}: ${describe(best)}` };
}

function firstMatch(rules: CompiledRule[], path: string, work?: MatchWork): CompiledRule | null {
  for (const r of rules) {
    // The draft: an empty Disallow means "no restriction", so it matches as an allow-everything line.
    if (r.compiled.octets === 0) {
      if (r.type === 'disallow') return { ...r, type: 'allow' };
      continue;
    }
    if (matchesPath(r.compiled, path, work)) return r;
  }
  return null;
}

/** Whether `agent` may fetch `url` according to `robots`, and the rule that decided. */
export function checkUrl(robots: ParsedRobots, agent: string, url: string, mode: RobotsMode): RobotsVerdict {
  return checkPath(selectRules(robots, agent, mode), pathParamsQuery(url));
}

/** The group(s) that apply to `agent`, with their Crawl-delay and Host, and the file's sitemaps. */
export function groupFor(robots: ParsedRobots, agent: string, mode: RobotsMode): GroupSummary {
  const applying = applyingGroups(robots, agent, mode);
  const first = <T>(pick: (g: RobotsGroup) => T | null): T | null => {
    for (const g of applying) {
      const v = pick(g);
      if (v !== null) return v;
    }
    return null;
  };
  return {
    agents: selectRules(robots, agent, mode).agents,
    crawlDelaySeconds: first((g) => g.crawlDelaySeconds),
    host: first((g) => g.host) ?? robots.host,
    sitemaps: [...robots.sitemaps],
  };
}

/** The groups whose rules apply, in the order their settings are looked up (draft: the record, then `*`). */
function applyingGroups(robots: ParsedRobots, agent: string, mode: RobotsMode): RobotsGroup[] {
  if (mode === 'draft') {
    const specific = robots.records.find((r) => r.agents.some((v) => draftAgentMatches(v, agent)));
    const global = robots.records.find((r) => r.agents.some(isGlobal));
    return [...new Set([specific, global])].filter((g): g is RobotsGroup => g !== undefined);
  }
  const specific = robots.groups.filter((g) => g.agents.some((v) => rfcAgentMatches(v, agent)));
  return specific.length > 0 ? specific : robots.groups.filter((g) => g.agents.some(isGlobal));
}
