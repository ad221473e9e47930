// `gleaner robots check|lint`: ask a robots.txt about URLs the way the crawler would, or check a
// robots.txt for the mistakes robots trip over. The output shape is a contract (issue 3): scripts read
// `check --json` line by line.

import { readFile } from 'node:fs/promises';
import { userAgentHeader } from '../../shared/agent.js';
import {
  checkUrl,
  describeResult,
  fetchRobots,
  groupFor,
  isValidProductToken,
  lintRobots,
  parseRobots,
  robotsFromUrl,
  type LintReport,
  type RobotsMode,
  type RobotsVerdict,
} from '../../shared/robots/index.js';
import { GleanerError } from '../../shared/errors.js';
import { parseCommandArgs, type Command } from '../command.js';
import { terminalSafe } from '../terminal-text.js';

const HELP = `Usage:
  gleaner robots check (--file PATH | --url URL) --agent TOKEN [--mode rfc9309|draft] [--json] URL...
  gleaner robots lint (PATH | URL) [--json]

check: says whether the robot TOKEN may fetch each URL, and which rule (type, pattern, line) decided.
  --file PATH     a robots.txt on disk
  --url URL       a site or its robots.txt URL; fetched with the crawler's fetch policy (a 404 allows
                  everything, a 5xx or a network error disallows everything, up to 5 redirects)
  --agent TOKEN   the robot's product token, e.g. Gleaner
  --mode MODE     rfc9309 (default: longest match wins, Allow wins ties) or draft (the 1996 draft:
                  first matching line of the first record naming the robot, then the * record)
  --json          one JSON object per URL, in argument order:
                    {"url": "...", "allowed": true, "rule": {"type", "pattern", "line"} | null}
                  then {"group": [...], "crawlDelay": n | null, "host": "..." | null, "sitemaps": [...]}

lint: statistics, errors and warnings for a robots.txt file or URL. Exits 1 when there are errors.
  --json          the whole report as one JSON object

  -h, --help      this help
`;

const FLAGS = {
  file: { type: 'string' },
  url: { type: 'string' },
  agent: { type: 'string' },
  mode: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Where the command writes; tests pass their own. */
export interface RobotsCommandIo {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

const USER_AGENT_FOR_CLI = 'Gleaner';

export function createRobotsCommand(io: RobotsCommandIo): Command {
  return {
    name: 'robots',
    summary: 'check URLs against a robots.txt, or lint one',
    help: HELP,
    async run(argv: string[]): Promise<number> {
      const args = parseCommandArgs('robots', argv, FLAGS);
      const [sub, ...rest] = args.positionals;
      if (args.help || sub === undefined) {
        (args.help ? io.out : io.err).write(HELP);
        return args.help ? 0 : 2;
      }
      if (sub === 'check') return check(io, args.values, rest);
      if (sub === 'lint') return lint(io, args.values, rest);
      throw new GleanerError('BAD_ARGUMENT', `robots: unknown subcommand "${sub}": use check or lint (see \`gleaner robots --help\`)`);
    },
  };
}

export const robotsCommand: Command = createRobotsCommand({ out: process.stdout, err: process.stderr });

type Values = { file?: string; url?: string; agent?: string; mode?: string; json?: boolean };

function parseMode(raw: string | undefined): RobotsMode {
  if (raw === undefined || raw === 'rfc9309') return 'rfc9309';
  if (raw === 'draft') return 'draft';
  throw new GleanerError('BAD_ARGUMENT', `robots: --mode must be rfc9309 or draft, not "${raw}"`);
}

/** The robots.txt URL of a site URL (a URL already naming /robots.txt is kept). */
function robotsTxtUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new GleanerError('BAD_ARGUMENT', `robots: "${raw}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new GleanerError('BAD_ARGUMENT', `robots: "${raw}" is not an http(s) URL`);
  return u.pathname === '/robots.txt' ? u.href : `${u.origin}/robots.txt`;
}

async function readBody(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    // In the words --config and --synonyms use, not Node's ("ENOENT: no such file or directory, open '...'").
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message;
    throw new GleanerError('BAD_ARGUMENT', `robots: ${path}: cannot read it: ${why}`, { cause: e });
  }
}

/**
 * The URL as a crawler would request it: RFC 9309 section 2.2.2 compares percent-encoded URIs, and
 * encoding is the caller's job (the matcher leaves raw `π` alone), so a URL typed with raw characters
 * is encoded here, the way the crawler's canonical URLs are.
 */
function asRequested(url: string): string {
  try {
    const u = new URL(url, 'http://robots.invalid');
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

interface Answers {
  verdicts: RobotsVerdict[];
  group: string[];
  crawlDelay: number | null;
  host: string | null;
  sitemaps: string[];
  /** What the fetch came to, for --url. */
  fetched?: string;
}

async function check(io: RobotsCommandIo, v: Values, urls: string[]): Promise<number> {
  if ((v.file === undefined) === (v.url === undefined)) throw new GleanerError('BAD_ARGUMENT', 'robots check: give exactly one of --file PATH or --url URL');
  if (v.agent === undefined || v.agent === '') throw new GleanerError('BAD_ARGUMENT', 'robots check: --agent TOKEN is required (the robot\'s product token, e.g. Gleaner)');
  if (urls.length === 0) throw new GleanerError('BAD_ARGUMENT', 'robots check: give at least one URL to check');
  const mode = parseMode(v.mode);
  const agent = v.agent;
  if (!isValidProductToken(agent)) {
    io.err.write(`robots check: warning: "${agent}" is not a product token ([a-zA-Z_-]+); RFC 9309 groups will not match it\n`);
  }

  const answers = v.file !== undefined ? await answersFromFile(v.file, agent, mode, urls) : await answersFromUrl(robotsTxtUrl(v.url!), agent, mode, urls);
  if (v.json) {
    urls.forEach((url, i) => io.out.write(JSON.stringify({ url, allowed: answers.verdicts[i]!.allowed, rule: answers.verdicts[i]!.rule }) + '\n'));
    io.out.write(JSON.stringify({ group: answers.group, crawlDelay: answers.crawlDelay, host: answers.host, sitemaps: answers.sitemaps }) + '\n');
    return 0;
  }
  // Rules, sitemaps and Host lines are the site's text: their control characters are shown, not obeyed.
  const out = (text: string) => io.out.write(terminalSafe(text));
  if (answers.fetched) out(`${answers.fetched}\n`);
  urls.forEach((url, i) => {
    const verdict = answers.verdicts[i]!;
    out(`${verdict.allowed ? 'allowed   ' : 'disallowed'}  ${url}\n            ${verdict.reason ?? ''}\n`);
  });
  out(`group: ${answers.group.length > 0 ? answers.group.join(', ') : '(none applies)'}\n`);
  out(`crawl-delay: ${answers.crawlDelay ?? '-'}   host: ${answers.host ?? '-'}   sitemaps: ${answers.sitemaps.length > 0 ? answers.sitemaps.join(' ') : '-'}\n`);
  return 0;
}

async function answersFromFile(path: string, agent: string, mode: RobotsMode, urls: string[]): Promise<Answers> {
  const parsed = parseRobots(await readBody(path));
  const group = groupFor(parsed, agent, mode);
  return {
    verdicts: urls.map((url) => checkUrl(parsed, agent, asRequested(url), mode)),
    group: group.agents,
    crawlDelay: group.crawlDelaySeconds,
    host: group.host,
    sitemaps: group.sitemaps,
  };
}

async function answersFromUrl(robotsUrl: string, agent: string, mode: RobotsMode, urls: string[]): Promise<Answers> {
  const header = userAgentHeader(isValidProductToken(agent) ? agent : USER_AGENT_FOR_CLI);
  const { robots, result, decision } = await robotsFromUrl(robotsUrl, { agent, mode, userAgentHeader: header });
  return {
    verdicts: urls.map((url) => robots.check(asRequested(url))),
    group: robots.agents,
    crawlDelay: robots.crawlDelaySeconds,
    host: robots.host,
    sitemaps: robots.sitemaps,
    fetched: `${robotsUrl}: ${describeResult(result)}: ${decision.why}`,
  };
}

async function lint(io: RobotsCommandIo, v: Values, args: string[]): Promise<number> {
  if (args.length !== 1) throw new GleanerError('BAD_ARGUMENT', 'robots lint: give one PATH or URL');
  const target = args[0]!;
  let report: LintReport;
  let source: string;
  if (/^https?:\/\//i.test(target)) {
    const url = robotsTxtUrl(target);
    const result = await fetchRobots(url, { userAgentHeader: userAgentHeader(USER_AGENT_FOR_CLI) });
    if (result.kind !== 'response') throw new GleanerError('FETCH_FAILED', `robots lint: ${url}: ${describeResult(result)}`, { retryable: true });
    source = `${url}: ${describeResult(result)}`;
    if (result.status < 200 || result.status >= 300) {
      throw new GleanerError('FETCH_FAILED', `robots lint: ${source}: there is no robots.txt to lint`);
    }
    const contentType = result.headers['content-type'];
    report = lintRobots(result.body, contentType === undefined ? {} : { contentType });
  } else {
    source = target;
    report = lintRobots(await readBody(target));
  }
  if (v.json) io.out.write(JSON.stringify({ source, ...report }) + '\n');
  else io.out.write(terminalSafe(formatReport(source, report))); // the report quotes the file's lines
  return report.errors > 0 ? 1 : 0;
}

function formatReport(source: string, r: LintReport): string {
  const s = r.stats;
  const perAgent = Object.entries(s.rulesPerAgent).map(([a, n]) => `${a}: ${n}`).join(', ');
  const lines = [
    source,
    `${s.sizeBytes} bytes, ${s.lines} lines (${s.commentLines} comment, ${s.blankLines} blank), ${s.groups} groups, ${s.rules} rules, ${s.sitemaps} sitemaps`,
    `rules per agent: ${perAgent || '-'}`,
    ...r.findings.map((f) => `${f.line === null ? 'file' : `line ${f.line}`}: ${f.severity} [${f.code}] ${f.message}`),
    `${r.errors} error(s), ${r.warnings} warning(s)`,
  ];
  return lines.join('\n') + '\n';
}
