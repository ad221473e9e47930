// The /robots form: what it holds, read defensively from a query string or a form body, and the check
// it asks for (a pasted file, or a site's robots.txt fetched through the app's fetcher).

import { parseRobots, type RobotsMode } from '../../shared/robots/index.js';
import type { WebOptions } from '../defaults.js';
import { stringParam } from '../params.js';
import { checkFetched, checkPasted, matchCost, urlList, type MatchCost, type RobotsReport } from './check.js';
import { robotsUrlFor, type RobotsFetcher } from './fetch.js';

/** What the form holds, echoed back into it. */
export interface RobotsForm {
  source: 'paste' | 'url';
  robots: string;
  url: string;
  urls: string;
  agent: string;
  mode: RobotsMode;
}

const MAX_AGENT_CHARS = 100;
const MAX_URL_CHARS = 2048;
/** Where pasted-file paths are resolved: any host will do, only the path is matched. */
const PASTE_BASE = 'https://example.com/';

export const EMPTY_FORM: RobotsForm = {
  source: 'paste',
  robots: 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: BadBot\nDisallow: /\n',
  url: '',
  urls: '/\n/private/salaries.html\n/private/press/release.html',
  agent: 'Gleaner',
  mode: 'rfc9309',
};

export function readForm(source: Record<string, unknown>): RobotsForm {
  const mode = stringParam(source.mode);
  const agent = stringParam(source.agent).trim().slice(0, MAX_AGENT_CHARS);
  const url = stringParam(source.url).trim().slice(0, MAX_URL_CHARS);
  return {
    source: stringParam(source.source) === 'url' || (url !== '' && stringParam(source.source) !== 'paste') ? 'url' : 'paste',
    // Browsers submit a textarea with CRLF line ends whatever the pasted file had (HTML's form
    // encoding): undo that, or the linter would blame every pasted file for DOS line endings.
    robots: stringParam(source.robots).replace(/\r\n/g, '\n'),
    url,
    urls: stringParam(source.urls),
    agent: agent === '' ? EMPTY_FORM.agent : agent,
    mode: mode === 'draft' ? 'draft' : 'rfc9309',
  };
}

/** Longest link to a check the page offers: well under the 16 KiB request head Node accepts, and short
 * enough to paste into a chat or an issue. */
export const MAX_SHARE_URL_CHARS = 8000;

/** A GET link that runs the same check again, or undefined when the pasted file makes it too long. */
export function shareLink(form: RobotsForm): string | undefined {
  const params = new URLSearchParams(form.source === 'url' ? { url: form.url } : { robots: form.robots });
  params.set('urls', form.urls);
  params.set('agent', form.agent);
  params.set('mode', form.mode);
  const link = `/robots?${params.toString()}#verdicts-h`;
  return link.length <= MAX_SHARE_URL_CHARS ? link : undefined;
}

/** Cuts text to `maxBytes` of UTF-8 without splitting a character. */
function capBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  return { text: new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\ufffd$/, ''), cut: true };
}

/** What the form asks for: the report, or the reason it cannot be made and the status to answer. */
export type RobotsFormResult = { report: RobotsReport; error?: undefined } | { report?: undefined; error: string; status: 400 | 413 };

const count = (n: number) => n.toLocaleString('en-US');

/** The checker runs on the gateway's main thread, so the matching it does is bounded (maxRobotsMatchSteps):
 * over the budget, the reason in one line, with what to cut. */
function overBudget(cost: MatchCost, maxSteps: number): RobotsFormResult | undefined {
  if (cost.steps <= maxSteps) return undefined;
  return {
    status: 413,
    error: `too much to check at once: ${count(cost.rules)} rules against ${count(cost.urlChars)} characters of URLs is over the limit of ${count(maxSteps)} matching steps; check fewer or shorter URLs, or a file with fewer rules`,
  };
}

export async function runRobotsForm(form: RobotsForm, options: WebOptions, fetchRobots: RobotsFetcher): Promise<RobotsFormResult> {
  if (form.source === 'url') {
    if (!options.robotsFetch) return { status: 400, error: 'this server does not fetch robots.txt files for visitors: paste the file instead' };
    const robotsUrl = robotsUrlFor(form.url);
    if (robotsUrl === undefined) return { status: 400, error: `"${form.url}" is not an http or https address` };
    const { urls, notices } = urlList(form.urls, robotsUrl, options.maxRobotsUrls);
    const fetched = await fetchRobots(robotsUrl, form.agent, form.mode, options.robotsFetchTimeoutMs);
    // Only a file that was read has rules to match; any other outcome decides every URL at once.
    if (fetched.outcome === 'ok') {
      const refused = overBudget(matchCost(parseRobots(fetched.body), form.agent, form.mode, urls), options.maxRobotsMatchSteps);
      if (refused) return refused;
    }
    return { report: checkFetched(fetched, form.agent, form.mode, urls, notices) };
  }
  const { text, cut } = capBytes(form.robots, options.maxRobotsBytes);
  const { urls, notices } = urlList(form.urls, PASTE_BASE, options.maxRobotsUrls);
  const parsed = parseRobots(text);
  const refused = overBudget(matchCost(parsed, form.agent, form.mode, urls), options.maxRobotsMatchSteps);
  if (refused) return refused;
  if (cut) notices.unshift(`the pasted file was cut at ${options.maxRobotsBytes} bytes`);
  return { report: checkPasted(text, form.agent, form.mode, urls, notices, parsed) };
}
