// The robots.txt checker's report, built purely from a robots.txt body and the URLs to check: each URL's
// verdict with the line that decided it, the group that applies, and the linter's findings. The route
// supplies the body (pasted, or fetched by fetch.ts) and renders the report.

import {
  checkUrl,
  groupFor,
  isValidProductToken,
  lintRobots,
  parseRobots,
  selectRules,
  type LintReport,
  type ParsedRobots,
  type RobotsMode,
  type RobotsVerdict,
} from '../../shared/robots/index.js';
import type { FetchedRobots } from './fetch.js';

export interface UrlVerdict {
  /** The line as the user typed it. */
  input: string;
  /** The absolute URL checked. */
  url: string;
  allowed: boolean;
  /** The deciding line, when a rule decided. */
  line?: number;
  lineText?: string;
  reason: string;
}

export interface RobotsReport {
  agent: string;
  /** RFC 9309 2.2.1: a product token is `[a-zA-Z_-]+`; otherwise only its valid prefix is matched. */
  agentValid: boolean;
  mode: RobotsMode;
  /** Set when the file was fetched: what came back and what it means. */
  fetched?: Omit<FetchedRobots, 'body' | 'check' | 'agents' | 'crawlDelaySeconds' | 'host' | 'sitemaps'>;
  /** The file's lines, for the listing (deciding lines are marked by number). */
  lines: string[];
  /** User-agent values of the applying group(s); [] when the agent falls under no group. */
  groupAgents: string[];
  crawlDelaySeconds: number | null;
  /** The Host line that applies, as the CLI shows it; null when there is none. */
  host: string | null;
  sitemaps: string[];
  verdicts: UrlVerdict[];
  lint: LintReport;
  /** What the checker left out (URLs over the limit, lines that are no URL). */
  notices: string[];
}

/** The URLs to check, one a line; a path is taken relative to `base`. */
export function urlList(text: string, base: string, max: number): { urls: { input: string; url: string }[]; notices: string[] } {
  const notices: string[] = [];
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length > max) notices.push(`only the first ${max} of ${lines.length} URLs were checked`);
  const urls: { input: string; url: string }[] = [];
  for (const input of lines.slice(0, max)) {
    try {
      const url = new URL(input, base);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('not http');
      urls.push({ input, url: url.href });
    } catch {
      notices.push(`"${input.slice(0, 200)}" is not a URL or a path: skipped`);
    }
  }
  return { urls, notices };
}

const splitLines = (text: string) => text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);

function verdictRow(input: { input: string; url: string }, verdict: RobotsVerdict, lines: string[]): UrlVerdict {
  const row: UrlVerdict = { input: input.input, url: input.url, allowed: verdict.allowed, reason: verdict.reason ?? (verdict.allowed ? 'allowed' : 'disallowed') };
  if (verdict.rule) {
    row.line = verdict.rule.line;
    row.lineText = lines[verdict.rule.line - 1]?.trim() ?? `${verdict.rule.type === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.pattern}`;
  }
  return row;
}

/** What checking URLs against a file's rules may cost, for the checker's budget (form.ts). */
export interface MatchCost {
  /** Rules the agent's group(s) hold: each URL is matched against each of them. */
  rules: number;
  /** Characters of the URLs checked. */
  urlChars: number;
  /** Upper bound on the matcher's character steps: it is linear, at most pattern + path steps per rule
   * and URL (shared/robots/pattern.ts), so rules x URL characters + URLs x pattern characters. */
  steps: number;
}

export function matchCost(parsed: ParsedRobots, agent: string, mode: RobotsMode, urls: readonly { url: string }[]): MatchCost {
  const set = selectRules(parsed, agent, mode);
  const rules = set.rules.length + set.fallback.length;
  let patternChars = 0;
  for (const r of set.rules) patternChars += r.compiled.octets;
  for (const r of set.fallback) patternChars += r.compiled.octets;
  const urlChars = urls.reduce((sum, u) => sum + u.url.length, 0);
  return { rules, urlChars, steps: rules * urlChars + urls.length * patternChars };
}

/** A report on a pasted robots.txt (`parsed` when the caller has parsed it already). */
export function checkPasted(
  body: string,
  agent: string,
  mode: RobotsMode,
  urls: { input: string; url: string }[],
  notices: string[],
  parsed: ParsedRobots = parseRobots(body),
): RobotsReport {
  const lines = splitLines(body);
  const group = groupFor(parsed, agent, mode);
  return {
    agent,
    agentValid: isValidProductToken(agent),
    mode,
    lines,
    groupAgents: group.agents,
    crawlDelaySeconds: group.crawlDelaySeconds,
    host: group.host,
    sitemaps: group.sitemaps,
    verdicts: urls.map((u) => verdictRow(u, checkUrl(parsed, agent, u.url, mode), lines)),
    lint: lintRobots(body),
    notices,
  };
}

/** A report on a fetched robots.txt: verdicts follow the fetch outcome (a 5xx disallows everything). */
export function checkFetched(fetched: FetchedRobots, agent: string, mode: RobotsMode, urls: { input: string; url: string }[], notices: string[]): RobotsReport {
  const { body, check, agents, crawlDelaySeconds, host, sitemaps, ...about } = fetched;
  const text = new TextDecoder().decode(body);
  const lines = text === '' ? [] : splitLines(text);
  const offSite = urls.filter((u) => new URL(u.url).origin !== new URL(fetched.url).origin);
  const extra = offSite.map((u) => `${u.input} is on another site than ${fetched.url}: its own robots.txt decides there`);
  return {
    agent,
    agentValid: isValidProductToken(agent),
    mode,
    fetched: about,
    lines,
    groupAgents: agents,
    crawlDelaySeconds,
    host,
    sitemaps,
    verdicts: urls.map((u) => verdictRow(u, check(u.url), lines)),
    lint: lintRobots(body, fetched.contentType !== undefined ? { contentType: fetched.contentType } : {}),
    notices: [...notices, ...extra],
  };
}
