// The robots.txt checker: statistics as the WebWatch survey counted them (seed 002) and the errors and
// warnings a webmaster can act on, from the common mistakes of seed 001 to RFC 9309 details. It reads the
// same parse as the matcher, so a warning never describes a file other than the one Gleaner obeys. Pure.

import { isValidProductToken, productToken } from './match.js';
import { isStrictCrawlDelay, MAX_LINE_BYTES, PARSE_LIMIT_BYTES, parseCrawlDelay, parseRobots, type ParsedRobots, type RobotsLine } from './parse.js';

export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintFinding {
  severity: LintSeverity;
  /** Stable identifier of the check, e.g. `rule-outside-group`. */
  code: string;
  /** 1-based line, or null for the whole file. */
  line: number | null;
  message: string;
}

export interface LintStats {
  sizeBytes: number;
  lines: number;
  commentLines: number;
  blankLines: number;
  groups: number;
  rules: number;
  /** Allow/Disallow rules per User-agent value (a rule of a group counts for each of its agents). */
  rulesPerAgent: Record<string, number>;
  sitemaps: number;
  lineEndings: { lf: number; crlf: number; cr: number };
}

export interface LintReport {
  stats: LintStats;
  findings: LintFinding[];
  errors: number;
  warnings: number;
}

export interface LintOptions {
  /** The Content-Type the server sent, when the file was fetched. */
  contentType?: string;
}

/** Rules naming this many files of one directory suggest disallowing the directory (seed 001, error 8). */
export const FILE_LIST_THRESHOLD = 8;

/** Fields some robots read (Yandex, old Inktomi, ...), not unknown but not part of RFC 9309 either. */
const EXTENSIONS = new Set(['request-rate', 'visit-time', 'clean-param', 'noindex', 'nofollow']);

/** What each crawler family does with the two best-known lines RFC 9309 left out (seeds 001 and 004). */
const NON_STANDARD = {
  'crawl-delay':
    'Crawl-delay is not in RFC 9309. Yahoo\'s Slurp and MSN\'s msnbot (now Bingbot) wait that many seconds between requests; Yandex read it until 2018; Googlebot ignores it (its rate is set in Search Console); Gleaner waits the larger of it and its own --delay, up to --max-crawl-delay',
  host: 'Host is not in RFC 9309: a Yandex extension naming the main mirror, a hint rather than an order (Yandex now reads redirects instead); Google, Bing and most robots ignore it; Gleaner follows it only when crawling with --use-robots-host',
} as const;

const CANONICAL_KEY: Record<string, string> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
  'crawl-delay': 'Crawl-delay',
  host: 'Host',
};

export function lintRobots(body: string | Uint8Array, options: LintOptions = {}): LintReport {
  const parsed = parseRobots(body);
  const findings: LintFinding[] = [];
  const add = (severity: LintSeverity, code: string, line: number | null, message: string) => findings.push({ severity, code, line, message });

  checkFile(parsed, options, add);
  for (const l of parsed.lines) checkLine(l, add);
  checkGroups(parsed, add);

  findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return {
    stats: statsOf(parsed),
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
  };
}

type Add = (severity: LintSeverity, code: string, line: number | null, message: string) => void;

function checkFile(parsed: ParsedRobots, options: LintOptions, add: Add): void {
  if (parsed.sizeBytes === 0 || (parsed.lines.length === 0 && !parsed.truncated)) {
    add('warning', 'empty-file', null, 'the file is empty: every robot may fetch everything (fine if meant; a comment saying so helps)');
  }
  const type = (options.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (parsed.looksLikeHtml || type === 'text/html' || type === 'application/xhtml+xml') {
    // RFC 9309 2.2: the parseable rules of the body are used whatever surrounds them; say which case this is.
    const rules = parsed.groups.reduce((n, g) => n + g.rules.length, 0);
    const what = parsed.looksLikeHtml ? 'an HTML page' : `served as ${type}`;
    if (rules > 0) {
      add('error', 'html-with-rules', null, `this is ${what}, but ${rules} Allow/Disallow line(s) in it parse: Gleaner obeys them and ignores the markup (RFC 9309 2.2), other robots may ignore the whole file; serve the rules alone as text/plain`);
    } else {
      add('error', 'html', null, `this is ${what}, not robots.txt (a redirect to an error or home page?), and no rule line in it parses: it is read as empty, so every robot may fetch everything; serve a text/plain robots.txt or a 404`);
    }
  } else if (type !== '' && type !== 'text/plain') {
    add('warning', 'content-type', null, `served as ${type}; robots.txt should be text/plain`);
  }
  if (parsed.truncated) {
    add('error', 'too-large', null, `the file is larger than the parse limit of ${PARSE_LIMIT_BYTES} bytes (500 KiB): everything after that is ignored`);
  }
  if (parsed.lineEndings.cr > 0) {
    add('warning', 'cr-line-endings', null, `${parsed.lineEndings.cr} line(s) end with a lone CR (old Mac style): many robots read the file as one line; use LF`);
  }
  if (parsed.lineEndings.crlf > 0) {
    add('warning', 'dos-line-endings', null, `${parsed.lineEndings.crlf} line(s) end with CR LF (DOS style): valid, but some robots mishandle it; LF is safest`);
  }
  if (parsed.bom) add('info', 'bom', 1, 'the file starts with a byte order mark: most robots skip it, some read the first line as garbage');
  if (parsed.utf16) add('error', 'utf-16', 1, 'the file is UTF-16: Gleaner reads it as its byte order mark (or its zero bytes) says, but robots.txt must be UTF-8 (RFC 9309 2.3) and most robots find no rule in it; save it as UTF-8');
}

function checkLine(l: RobotsLine, add: Add): void {
  if (l.cut) add('warning', 'line-too-long', l.line, `the line is longer than ${MAX_LINE_BYTES} bytes; the rest is ignored`);
  if (l.kind === 'blank' || l.kind === 'comment' || l.kind === 'markup') return;
  if (l.leadingWhitespace) add('warning', 'leading-whitespace', l.line, 'the line starts with whitespace: some robots do not recognise the field; start lines at the first column');
  if (l.comment === 'end-of-line') add('warning', 'end-of-line-comment', l.line, 'comment at the end of a directive: valid, but some robots read it as part of the value; put comments on their own line');
  if (l.kind === 'invalid') {
    add('error', 'no-separator', l.line, `"${l.value}" is not a "field: value" line; robots ignore it`);
    return;
  }
  if (l.kind === 'unknown') {
    if (EXTENSIONS.has(l.key.toLowerCase())) add('info', 'extension-field', l.line, `"${l.key}" is an extension only some robots read; Gleaner and RFC 9309 robots ignore it`);
    else add('warning', 'unknown-field', l.line, `unknown field "${l.key}": robots ignore this line`);
    return;
  }
  const name = CANONICAL_KEY[l.kind]!;
  if (l.typo && l.kind === 'allow') {
    add('error', 'allow-typo', l.line, `"${l.key}" is not Allow: Gleaner ignores this line, so it opens nothing a Disallow closed (lenient robots may read it as Allow); spell it "Allow"`);
  } else if (l.typo) add('warning', 'key-typo', l.line, `"${l.key}" is read as ${name} by lenient robots only; spell it "${name}"`);
  if (l.missingColon) add('warning', 'missing-colon', l.line, `no colon after "${l.key}": lenient robots read it as ${name}, others ignore the line; write "${name}: ${l.value}"`);
  switch (l.kind) {
    case 'user-agent':
      checkUserAgent(l, add);
      break;
    case 'allow':
    case 'disallow':
      checkPattern(l, add);
      break;
    case 'crawl-delay':
      if (parseCrawlDelay(l.value) === null) add('error', 'crawl-delay-not-numeric', l.line, `Crawl-delay "${l.value}" is not a number of seconds; robots ignore it`);
      else if (!isStrictCrawlDelay(l.value)) {
        add('warning', 'crawl-delay-loose', l.line, `Crawl-delay "${l.value}" is read by Gleaner as ${parseCrawlDelay(l.value)} seconds, but most robots that read Crawl-delay ignore it; write "${parseCrawlDelay(l.value)}"`);
      } else add('info', 'crawl-delay-nonstandard', l.line, NON_STANDARD['crawl-delay']);
      break;
    case 'host':
      if (!isHostValue(l.value)) add('error', 'host-not-a-host', l.line, `Host "${l.value}" is not a host name (optionally with scheme and port)`);
      else add('info', 'host-nonstandard', l.line, NON_STANDARD.host);
      break;
    case 'sitemap':
      if (!isAbsoluteHttpUrl(l.value)) add('error', 'sitemap-relative', l.line, `Sitemap "${l.value}" is not an absolute http(s) URL; robots cannot resolve it`);
      break;
  }
}

function checkUserAgent(l: RobotsLine, add: Add): void {
  if (l.value === '') {
    add('error', 'user-agent-empty', l.line, 'User-agent without a value: it names no robot');
  } else if (l.value !== '*' && !isValidProductToken(l.value)) {
    const token = productToken(l.value);
    add('warning', 'user-agent-not-a-token', l.line, token === ''
      ? `"${l.value}" is not a product token ([a-zA-Z_-]); no RFC 9309 robot will recognise it`
      : `"${l.value}" is not a product token ([a-zA-Z_-]); RFC 9309 robots read it as "${token}", 1996-era robots as a substring`);
  }
}

function checkPattern(l: RobotsLine, add: Add): void {
  const v = l.value;
  if (v === '') {
    if (l.kind === 'allow') add('warning', 'empty-allow', l.line, 'Allow without a path does nothing');
    return;
  }
  if (/\s/.test(v)) {
    add('error', 'several-paths', l.line, `several paths on one line ("${v}"): robots read them as one path with spaces; write one ${CANONICAL_KEY[l.kind]} line per path`);
  }
  if (!v.startsWith('/') && !v.startsWith('*')) {
    add('error', 'path-start', l.line, `the path "${v}" does not start with "/" or "*": it matches no URL; write "/${v}"`);
  }
  const dollar = v.indexOf('$');
  if (dollar !== -1 && dollar !== v.length - 1) {
    add('warning', 'dollar-not-at-end', l.line, '"$" marks the end of a URL only as the last character; here it is matched literally');
  }
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

function isHostValue(value: string): boolean {
  const m = /^(?:https?:\/\/)?([^/:]+)(?::(\d{1,5}))?\/?$/i.exec(value);
  if (!m) return false;
  const host = m[1]!;
  return host.length <= 253 && host.split('.').every((label) => HOST_LABEL.test(label));
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function checkGroups(parsed: ParsedRobots, add: Add): void {
  for (const r of parsed.orphanRules) {
    add('error', 'rule-outside-group', r.line, `${CANONICAL_KEY[r.type]} before any User-agent line: robots ignore it; put a "User-agent: *" line above`);
  }
  const firstGroupOf = new Map<string, number>();
  for (const g of parsed.groups) {
    if (g.rules.length === 0) {
      add('warning', 'group-without-rules', g.line, `the group for ${g.agents.join(', ')} has no Allow or Disallow line: those robots may fetch everything`);
    }
    g.agents.forEach((agent, i) => {
      const key = agent.toLowerCase();
      const first = firstGroupOf.get(key);
      if (first === undefined) firstGroupOf.set(key, g.line);
      else if (first !== g.line) {
        add('warning', 'repeated-group', g.agentLines[i]!, `another group for "${agent}" (first at line ${first}): RFC 9309 robots merge them, 1996-era robots obey only the first; merge them`);
      }
    });
    checkContradictions(g.rules, add);
    checkFileLists(g.rules, add);
  }
}

function checkContradictions(rules: ParsedRobots['groups'][number]['rules'], add: Add): void {
  const seen = new Map<string, { type: string; line: number }>();
  for (const r of rules) {
    if (r.pattern === '') continue;
    const prior = seen.get(r.pattern);
    if (prior && prior.type !== r.type) {
      add('warning', 'contradiction', r.line, `"${r.pattern}" is both allowed and disallowed (line ${prior.line}): RFC 9309 robots allow it, 1996-era robots follow the first line`);
    }
    seen.set(r.pattern, { type: r.type, line: r.line });
  }
}

function checkFileLists(rules: ParsedRobots['groups'][number]['rules'], add: Add): void {
  const byDir = new Map<string, number[]>();
  for (const r of rules) {
    if (r.type !== 'disallow' || r.pattern.includes('*')) continue;
    const slash = r.pattern.lastIndexOf('/');
    if (slash <= 0 || slash === r.pattern.length - 1) continue; // a directory itself, or a file at the root
    const dir = r.pattern.slice(0, slash + 1);
    byDir.set(dir, [...(byDir.get(dir) ?? []), r.line]);
  }
  for (const [dir, lines] of byDir) {
    if (lines.length >= FILE_LIST_THRESHOLD) {
      add('info', 'long-file-list', lines[0]!, `${lines.length} files of ${dir} are listed one by one: "Disallow: ${dir}" says it in one line (and does not advertise each file)`);
    }
  }
}

function statsOf(parsed: ParsedRobots): LintStats {
  // No prototype: an agent named "constructor" or "__proto__" is counted like any other.
  const rulesPerAgent = Object.create(null) as Record<string, number>;
  for (const g of parsed.groups) for (const a of g.agents) rulesPerAgent[a] = (rulesPerAgent[a] ?? 0) + g.rules.length;
  return {
    sizeBytes: parsed.sizeBytes,
    lines: parsed.lines.length,
    commentLines: parsed.lines.filter((l) => l.comment === 'line').length,
    blankLines: parsed.lines.filter((l) => l.kind === 'blank').length,
    groups: parsed.groups.length,
    rules: parsed.groups.reduce((n, g) => n + g.rules.length, 0),
    rulesPerAgent,
    sitemaps: parsed.sitemaps.length,
    lineEndings: parsed.lineEndings,
  };
}
