// robots.txt bytes -> lines -> groups. One parser for the matcher and the linter: every line keeps what
// the linter needs to explain itself (typos, missing colon, leading whitespace, comments), and the rules
// are compiled once here so that matching never re-parses a pattern.
//
// Tokenizing follows what real servers send and what Google's reference parser accepts (RFC 9309
// section 2.1 plus its leniencies): a UTF-8 BOM or a prefix of one, LF / CRLF / CR line endings, `#`
// comments anywhere, case-insensitive keys, the frequent key typos, a missing colon, and lines cut at
// MAX_LINE_BYTES. Pure; never throws.

import { compilePattern, type CompiledPattern } from './pattern.js';
import { utf16ByMark, utf16ByZeros } from '../utf16.js';

/** RFC 9309 section 2.5: the parsing limit MUST be at least 500 KiB; what lies beyond is ignored. */
export const PARSE_LIMIT_BYTES = 500 * 1024;
/** Longest line kept, in bytes (Google's limit: 8 x the 2,083 bytes of the longest practical URL, minus
 * the terminator); the rest of a longer line is ignored. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

export type DirectiveKind = 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'host' | 'sitemap' | 'unknown';

export interface RobotsRule {
  type: 'allow' | 'disallow';
  /** The pattern as written (comment and surrounding whitespace removed). */
  pattern: string;
  /** 1-based line number in the file. */
  line: number;
}

/** A rule with its pattern compiled for matching (percent-encoding normalised, wildcards split). */
export interface CompiledRule extends RobotsRule {
  compiled: CompiledPattern;
}

export interface RobotsLine {
  line: number;
  /** `blank` and `comment` carry nothing; `invalid` is text without a key/value separator; `markup` is a
   * line of an HTML-looking body that holds no directive (tags, page text), ignored without a finding. */
  kind: DirectiveKind | 'blank' | 'comment' | 'invalid' | 'markup';
  /** The key as written, trimmed ('' for blank, comment and invalid lines). */
  key: string;
  /** The value, comment and surrounding whitespace removed; for `invalid`, the whole text. */
  value: string;
  /** The key was accepted as a known misspelling (`disalow`, `useragent`, ...) or with extra characters. */
  typo: boolean;
  /** Key and value were separated by whitespace instead of a colon. */
  missingColon: boolean;
  /** The line starts with a space or tab before a directive. */
  leadingWhitespace: boolean;
  /** The line holds a `#` comment: the whole line or after a directive. */
  comment: 'none' | 'line' | 'end-of-line';
  /** The line was longer than MAX_LINE_BYTES and was cut. */
  cut: boolean;
}

export interface RobotsGroup {
  /** The User-agent values as written (`*` for the global group). */
  agents: string[];
  /** Line of each User-agent value. */
  agentLines: number[];
  rules: CompiledRule[];
  /** Crawl-delay in seconds (decimals allowed), the first valid one of the group. */
  crawlDelaySeconds: number | null;
  /** The first Host line of the group. */
  host: string | null;
  /** Line of the first User-agent line. */
  line: number;
}

export interface ParsedRobots {
  lines: RobotsLine[];
  /** RFC 9309 groups: a User-agent line after a rule starts a new group; blank lines do not. */
  groups: RobotsGroup[];
  /** 1996-draft records: as groups, and a blank line also ends a record. */
  records: RobotsGroup[];
  /** Allow/Disallow lines before any User-agent line (ignored by both modes). */
  orphanRules: RobotsRule[];
  /** Misspelt Allow lines (`alow`, `allw`): never matched, so a typo cannot open what a Disallow closes;
   * they still end a group, as the rule the site owner meant would have. */
  ignoredAllows: RobotsRule[];
  /** Sitemap URLs as written, in file order. */
  sitemaps: string[];
  /** The first Host value of the file. */
  host: string | null;
  /** Size of the body as received, in bytes. */
  sizeBytes: number;
  /** The body was longer than PARSE_LIMIT_BYTES: only the lines before the limit were parsed. */
  truncated: boolean;
  /** The body starts like an HTML document (a server answering every path with a page, or rules pasted
   * into a page). Its lines are still parsed with the tags removed (RFC 9309 2.2: use the parseable
   * rules); lines without a directive are `markup`. */
  looksLikeHtml: boolean;
  /** How many lines ended with each kind of line ending. */
  lineEndings: { lf: number; crlf: number; cr: number };
  /** The body started with a UTF-8 byte order mark (or a prefix of one). */
  bom: boolean;
  /** The body was UTF-16, as its byte order mark (or, without one, its zero bytes) said, and was read as such. */
  utf16?: true;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const LF = 0x0a;
const CR = 0x0d;

/** Parses a robots.txt body. An HTML page yields the rule lines it holds, if any (RFC 9309 2.2). */
export function parseRobots(body: string | Uint8Array): ParsedRobots {
  let bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // RFC 9309 asks for UTF-8, but an editor's "Unicode" is UTF-16 with its byte order mark: read as
  // UTF-8, every rule of it is lost and what its owner disallowed is crawled. The mark says which.
  // Without the mark (sent with `charset=utf-16`), every rule was lost the same way: the zero bytes
  // beside each ASCII letter say it.
  const marked = utf16ByMark(bytes);
  const utf16 = marked ?? utf16ByZeros(bytes);
  if (utf16 !== undefined) bytes = Buffer.from(new TextDecoder(utf16).decode(marked === undefined ? bytes : bytes.subarray(2)), 'utf8');
  let start = 0;
  // A BOM should never appear, but does; skip it, or the prefix of one, like Google's parser.
  while (start < UTF8_BOM.length && start < bytes.length && bytes[start] === UTF8_BOM[start]) start++;
  const bom = start > 0;

  let end = bytes.length;
  const truncated = end > PARSE_LIMIT_BYTES;
  if (truncated) {
    // Drop the line cut by the limit: half an Allow line could allow more than the site meant.
    end = PARSE_LIMIT_BYTES;
    while (end > start && bytes[end - 1] !== LF && bytes[end - 1] !== CR) end--;
  }

  const looksLikeHtml = sniffHtml(bytes.toString('utf8', start, Math.min(end, start + 1024)));
  const lines: RobotsLine[] = [];
  const lineEndings = { lf: 0, crlf: 0, cr: 0 };
  let lineStart = start;
  for (let i = start; i <= end; i++) {
    const b = i < end ? bytes[i] : undefined;
    if (b !== undefined && b !== LF && b !== CR) continue;
    const cutAt = Math.min(i, lineStart + MAX_LINE_BYTES);
    lines.push(tokenizeLine(lines.length + 1, bytes.toString('utf8', lineStart, cutAt), cutAt < i, looksLikeHtml));
    if (b === CR && i + 1 < end && bytes[i + 1] === LF) {
      lineEndings.crlf++;
      i++;
    } else if (b === CR) lineEndings.cr++;
    else if (b === LF) lineEndings.lf++;
    lineStart = i + 1;
  }
  // A final line ending leaves an empty last "line" that is not in the file.
  if (lines.length > 0 && end > start && (bytes[end - 1] === LF || bytes[end - 1] === CR)) lines.pop();
  if (end === start) lines.length = 0;

  const parsed: ParsedRobots = {
    lines,
    groups: [],
    records: [],
    orphanRules: [],
    ignoredAllows: [],
    sitemaps: [],
    host: null,
    sizeBytes: bytes.length,
    truncated,
    looksLikeHtml,
    lineEndings,
    bom,
    ...(utf16 !== undefined ? { utf16: true as const } : {}),
  };
  buildGroups(parsed);
  return parsed;
}

/** A body that starts with a tag (`<!DOCTYPE html>`, `<html>`, `<pre>`, `<!-- -->`...) is markup: no
 * robots.txt line starts with `<`. */
function sniffHtml(head: string): boolean {
  return /^\s*(<!doctype\s+html|<!--|<[a-z][a-z0-9]*[\s/>]|<\?xml[^>]*>\s*<html)/i.test(head);
}

// ASCII whitespace only: a BOM or a no-break space in the middle of a file is not whitespace, it is
// garbage that makes its line unparseable (spec BOM case 5).
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;

function trim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s.charCodeAt(a))) a++;
  while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Index of the first space or tab at or after `from`, or -1. */
function blankAt(s: string, from = 0): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return i;
  }
  return -1;
}

interface KeySpelling {
  kind: DirectiveKind;
  names: string[];
  typos: string[];
}

// Typos are the ones Google's parser accepts (user agent, useragent, disalow, ...) plus a few of the same kind.
const KEYS: KeySpelling[] = [
  { kind: 'user-agent', names: ['user-agent'], typos: ['useragent', 'user agent', 'user_agent', 'user-agents'] },
  // An Allow typo is recognised only to be ignored and flagged (buildGroups); a Disallow typo is obeyed.
  { kind: 'allow', names: ['allow'], typos: ['alow', 'allw', 'alllow', 'allows'] },
  { kind: 'disallow', names: ['disallow'], typos: ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw', 'disallw', 'disalllow', 'disallows'] },
  { kind: 'sitemap', names: ['sitemap'], typos: ['site-map', 'site map', 'sitemaps'] },
  { kind: 'crawl-delay', names: ['crawl-delay'], typos: ['crawldelay', 'crawl delay', 'crawl_delay'] },
  { kind: 'host', names: ['host'], typos: [] },
];

/** What a key means: exact names first, then typos, then a known name followed by extra characters. */
export function classifyKey(key: string): { kind: DirectiveKind; typo: boolean } {
  const lower = key.toLowerCase();
  for (const k of KEYS) if (k.names.includes(lower)) return { kind: k.kind, typo: false };
  for (const k of KEYS) if (k.typos.some((t) => lower.startsWith(t))) return { kind: k.kind, typo: true };
  // Google matches keys by prefix (`user-agentx` is a User-agent line); `host` and `crawl-delay` are not
  // in its parser, so only exact spellings and typos count for them.
  for (const k of KEYS.slice(0, 4)) if (k.names.some((n) => lower.startsWith(n))) return { kind: k.kind, typo: true };
  return { kind: 'unknown', typo: false };
}

/** A tag, or the start of one that goes on past the line: removed from the lines of an HTML-looking body. */
const TAG = /<[a-zA-Z!/?][^>]*>|<[a-zA-Z!/?][^>]*$/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };
const ENTITY = /&(amp|lt|gt|quot|apos|#39|nbsp);/g;
const DIRECTIVE_KINDS: ReadonlySet<RobotsLine['kind']> = new Set(['user-agent', 'allow', 'disallow', 'crawl-delay', 'host', 'sitemap']);

function tokenizeLine(line: number, raw: string, cut: boolean, html: boolean): RobotsLine {
  if (!html) return tokenizeText(line, raw, cut);
  // Tags go, and the entities a page writes for `&` and friends in a path (`/a?x=1&amp;y=2`) are decoded.
  const result = tokenizeText(line, raw.replace(TAG, '').replace(ENTITY, (_, name: string) => ENTITIES[name]!), cut);
  // Page text and tags are not robots.txt lines: only directives count, the rest is markup.
  if (!DIRECTIVE_KINDS.has(result.kind) && (result.kind !== 'blank' || raw.trim() !== '')) {
    return { ...result, kind: 'markup', key: '', value: raw.trim(), typo: false, missingColon: false };
  }
  return result;
}

function tokenizeText(line: number, raw: string, cut: boolean): RobotsLine {
  const hash = raw.indexOf('#');
  const content = trim(hash === -1 ? raw : raw.slice(0, hash));
  const result: RobotsLine = {
    line,
    kind: 'blank',
    key: '',
    value: '',
    typo: false,
    missingColon: false,
    leadingWhitespace: false,
    comment: hash === -1 ? 'none' : 'line',
    cut,
  };
  if (content === '') {
    if (hash !== -1) result.kind = 'comment';
    return result;
  }
  if (hash !== -1) result.comment = 'end-of-line';
  result.leadingWhitespace = blankAt(raw) === 0;
  let sep = content.indexOf(':');
  if (sep === -1) {
    // People forget the colon; accept whitespace instead when the line is exactly two words.
    const ws = blankAt(content);
    if (ws === -1 || blankAt(trim(content.slice(ws))) !== -1) {
      result.kind = 'invalid';
      result.value = content;
      return result;
    }
    sep = ws;
    result.missingColon = true;
  }
  result.key = trim(content.slice(0, sep));
  result.value = trim(content.slice(sep + 1));
  const { kind, typo } = classifyKey(result.key);
  result.kind = kind;
  result.typo = typo;
  return result;
}

const CRAWL_DELAY = /^(\d+(\.\d*)?|\.\d+)$/;
// What site owners also write: a unit ("5s", "10 seconds") or a decimal comma ("1,5"). Their meaning
// is plain, and a polite robot waits as asked; most robots (Nutch, Scrapy's Protego, Python's
// robotparser) ignore such a line and ask at full speed. "1,000" is not read (a thousand, or one?).
// The checker flags every such value.
const CRAWL_DELAY_LOOSE = /^(\d+(\.\d*|,\d{1,2})?|[.,]\d+)\s*(s|secs?|seconds?)?\.?$/i;
// A number in exponent notation ("1e3", "1E9") is a number too: read, so the crawl's cap applies with
// its warning, not ignored (a robot that ignores it asks at full speed a site asking for a pause).
const CRAWL_DELAY_EXPONENT = /^(\d+(\.\d*)?|\.\d+)e[+-]?\d{1,3}$/i;

/** Crawl-delay in seconds: a non-negative decimal number, one in exponent notation, or one with a unit
 * of seconds or a decimal comma (CRAWL_DELAY_LOOSE); null for anything else. */
export function parseCrawlDelay(value: string): number | null {
  if (CRAWL_DELAY.test(value)) return Number(value);
  if (CRAWL_DELAY_EXPONENT.test(value)) return Number(value);
  const loose = CRAWL_DELAY_LOOSE.exec(value);
  return loose ? Number(loose[1]!.replace(',', '.')) : null;
}

/** True when `value` is a Crawl-delay every robot that reads the field reads: digits and a point. */
export function isStrictCrawlDelay(value: string): boolean {
  return CRAWL_DELAY.test(value);
}

/**
 * Collects groups from the lines one at a time. RFC 9309 groups and draft records are built by the same
 * collector; they differ only in that a blank line ends a record.
 */
class GroupCollector {
  private current: RobotsGroup | null = null;
  private hasRules = false;
  constructor(private readonly into: RobotsGroup[]) {}

  /** The group being filled, or null before the first User-agent line (or after a record's end). */
  get open(): RobotsGroup | null {
    return this.current;
  }

  agent(line: number, value: string): void {
    // A User-agent line after a rule starts a new group; consecutive ones share a group.
    if (this.current === null || this.hasRules) {
      this.current = { agents: [], agentLines: [], rules: [], crawlDelaySeconds: null, host: null, line };
      this.into.push(this.current);
      this.hasRules = false;
    }
    this.current.agents.push(value);
    this.current.agentLines.push(line);
  }

  rule(rule: CompiledRule): boolean {
    if (this.current === null) return false;
    this.current.rules.push(rule);
    this.hasRules = true;
    return true;
  }

  /** A rule line that is not obeyed (a misspelt Allow) still ends the group's User-agent lines. */
  ignoredRule(): void {
    if (this.current !== null) this.hasRules = true;
  }

  end(): void {
    this.current = null;
    this.hasRules = false;
  }
}

/** Fills groups (RFC 9309) and records (1996 draft) from the lines in one pass. */
function buildGroups(parsed: ParsedRobots): void {
  const rfc = new GroupCollector(parsed.groups);
  const draft = new GroupCollector(parsed.records);
  const both = [rfc, draft];
  for (const l of parsed.lines) {
    switch (l.kind) {
      case 'user-agent':
        for (const c of both) c.agent(l.line, l.value);
        break;
      case 'allow':
      case 'disallow': {
        if (l.kind === 'allow' && l.typo) {
          // Erring toward the site owner: a misspelt Allow must not open what a Disallow closed.
          parsed.ignoredAllows.push({ type: 'allow', pattern: l.value, line: l.line });
          for (const c of both) c.ignoredRule();
          break;
        }
        const rule: CompiledRule = { type: l.kind, pattern: l.value, line: l.line, compiled: compilePattern(l.value) };
        if (!rfc.rule(rule)) parsed.orphanRules.push({ type: rule.type, pattern: rule.pattern, line: rule.line });
        draft.rule(rule);
        break;
      }
      case 'crawl-delay': {
        // Crawl-delay is not a rule: it does not end an RFC group (Google keeps the group open for it).
        const seconds = parseCrawlDelay(l.value);
        for (const g of both.map((c) => c.open)) if (g && g.crawlDelaySeconds === null) g.crawlDelaySeconds = seconds;
        break;
      }
      case 'host':
        if (l.value === '') break;
        for (const g of both.map((c) => c.open)) if (g && g.host === null) g.host = l.value;
        parsed.host ??= l.value;
        break;
      case 'sitemap':
        if (l.value !== '') parsed.sitemaps.push(l.value);
        break;
      case 'blank':
        // The draft: a record ends at a blank line; what follows until the next User-agent is outside.
        draft.end();
        break;
      default:
        break;
    }
  }
}
