// One URL's journey through Gleaner, told as steps a student can follow (`gleaner trace URL`, the
// /trace page): each says what happened, which file decided it, and what would have changed it. The
// stages build their own steps (crawler/trace-fetch.ts, web/trace.ts); this is their common shape, and
// the robots.txt step, which crawler, web and CLI all tell the same way.

import { checkUrl, groupFor, parseRobots, type RobotsMode } from './robots/index.js';

export interface TraceStep {
  title: string;
  /** Repository paths of the code that decided this step. */
  decidedBy: string[];
  /** The outcome in a few words (allowed, stored, ranked 3rd...). */
  verdict: string;
  /** Label and value pairs, in order. */
  facts: [string, string][];
  /** What the step means, or what would have changed it, in plain words. */
  note?: string;
}

/** How many tokens and links a step lists before it says "and N more". */
export const TRACE_LIST_LIMIT = 12;

export function more<T>(items: readonly T[], show: (item: T) => string, limit = TRACE_LIST_LIMIT): string {
  if (items.length === 0) return '(none)';
  const shown = items.slice(0, limit).map(show).join(', ');
  return items.length > limit ? `${shown} … and ${items.length - limit} more` : shown;
}

/** The robots.txt verdict for the URL, in the crawl's mode and, when it differs, under the other one. */
export function robotsTraceStep(body: string, url: string, agent: string, mode: RobotsMode, fetched: string): TraceStep {
  const parsed = parseRobots(body);
  const verdict = checkUrl(parsed, agent, url, mode);
  const other: RobotsMode = mode === 'rfc9309' ? 'draft' : 'rfc9309';
  const otherVerdict = checkUrl(parsed, agent, url, other);
  const group = groupFor(parsed, agent, mode);
  const rule = (v: typeof verdict) => (v.rule ? `line ${v.rule.line}: ${v.rule.type} ${v.rule.pattern}` : 'no rule matched');
  const facts: [string, string][] = [
    ['robots.txt', fetched],
    ['group that applies', group.agents.length > 0 ? `User-agent: ${group.agents.join(', ')}` : `none names ${agent} or *: everything is allowed`],
    [`verdict (${mode})`, `${verdict.allowed ? 'allowed' : 'disallowed'} (${rule(verdict)})`],
  ];
  if (otherVerdict.allowed !== verdict.allowed || otherVerdict.rule?.line !== verdict.rule?.line) {
    facts.push([`under ${other === 'draft' ? 'the 1996 draft' : 'RFC 9309'}`, `${otherVerdict.allowed ? 'allowed' : 'disallowed'} (${rule(otherVerdict)})`]);
  }
  if (group.crawlDelaySeconds !== null) facts.push(['Crawl-delay', `${group.crawlDelaySeconds} s (the crawl waits this long between requests when it is more than --delay)`]);
  return {
    title: 'robots.txt',
    decidedBy: ['shared/robots/parse.ts', 'shared/robots/match.ts'],
    verdict: verdict.allowed ? 'allowed' : 'disallowed: the crawler never requests it',
    facts,
    note: verdict.reason ?? 'RFC 9309: the longest matching rule of the group wins; on a tie, allow wins.',
  };
}

/** The robots.txt step when no rules were read (an error, a 404, a 5xx) and the fetch policy decided for
 * the whole site: a group and a rule line would describe an empty file, not the decision. */
export function wholeSiteRobotsStep(fetched: string, allowed: boolean, why: string, unreachable?: string): TraceStep {
  return {
    title: 'robots.txt',
    decidedBy: ['shared/robots/parse.ts', 'shared/robots/match.ts'],
    // A host no request reaches is not one whose robots.txt forbids the page: the user is told which.
    verdict: unreachable !== undefined ? `the host cannot be reached (${unreachable}): a crawl gives the site up` : allowed ? 'allowed' : 'disallowed: the crawler never requests it',
    facts: [
      ['robots.txt', fetched],
      ['verdict', `${allowed ? 'allowed' : 'disallowed'}: the whole site, no rules read`],
    ],
    note: why,
  };
}


/** The steps as text for a terminal: numbered, each with the files that decided it. */
export function formatTrace(steps: readonly TraceStep[]): string {
  const out: string[] = [];
  steps.forEach((s, i) => {
    out.push(`${i + 1}. ${s.title}: ${s.verdict}`);
    out.push(`   decided by ${s.decidedBy.join(', ')}`);
    const width = Math.min(28, Math.max(0, ...s.facts.map(([k]) => k.length)));
    for (const [k, v] of s.facts) out.push(`   ${k.padEnd(width)}  ${v}`);
    if (s.note !== undefined) out.push(`   why: ${s.note}`);
    out.push('');
  });
  return out.join('\n');
}
