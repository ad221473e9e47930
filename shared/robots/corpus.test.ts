// The conformance corpora of ../shared/robots/ (see its README): Google's reference cases and the RFC 9309
// spec suite in `rfc9309` mode, Python's robotparser cases in `draft` mode. Each case is a test named
// after the RFC section it proves; the few deliberate deviations are pinned in their own tests, prefixed
// DEVIATION with the reason, asserting Gleaner's answer (the opposite of the suite's).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkUrl, isValidProductToken, pathParamsQuery, type RobotsMode } from './match.js';
import { parseRobots } from './parse.js';
import { normalizeForMatching } from './pattern.js';
import { requireResource } from '../../test/support/resources.js';

const DIR = new URL('../../../shared/robots/', import.meta.url).pathname;
const present = requireResource('the robots.txt conformance corpora tests', DIR);

interface MatchCase {
  id: string;
  robots: string;
  robots_base64?: string;
  agent: string;
  url: string;
  allowed: boolean;
  rfc_section?: string | null;
  google_specific?: boolean;
  test_type?: 'STANDARD' | 'GOOGLE_SPECIFIC';
}

/** The cases of one corpus file; none when the corpora are absent (describe.skipIf still runs the describe bodies that call this). */
function load<T>(file: string): T[] {
  if (!present) return [];
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

const ROBOTS_TXT = 'RFC 9309 section 2.2.2 says "The /robots.txt URI is implicitly allowed"; the crawler must always be able to read it';
const UNRESERVED = 'RFC 9309 section 2.2.2 (and its example table) decodes percent-encoded unreserved characters before comparing, so /foo/bar/%62%61%7A matches /foo/bar/baz; Google compares the octets as written';
const INDEX_HTML = 'Google-only: allowing /dir/index.html also allows /dir/. RFC 9309 has no such rule and /dir/ need not serve index.html, so Gleaner obeys the Disallow';

/** Case id -> why Gleaner answers differently (README of the corpora, "where suites disagree"). */
const DEVIATIONS: Record<string, string> = {
  'stress/327748#1.6': ROBOTS_TXT,
  'stress/369883#1.6': ROBOTS_TXT,
  'stress/369883#1.10': ROBOTS_TXT,
  'stress/860237#1.10': ROBOTS_TXT,
  'ID_Encoding#6': UNRESERVED,
  'correctness/non-ascii-paths#4.1': UNRESERVED,
  'GoogleOnly_IndexHTMLisDirectory#1': INDEX_HTML,
  'correctness/index-page#1.1': INDEX_HTML,
};

function verdictOf(c: MatchCase, mode: RobotsMode): boolean {
  const body = c.robots_base64 !== undefined ? Buffer.from(c.robots_base64, 'base64') : c.robots;
  return checkUrl(parseRobots(body), c.agent, c.url, mode).allowed;
}

function nameOf(c: MatchCase): string {
  const section = c.rfc_section ? c.rfc_section.replace('RFC9309#section-', 'RFC9309 ') : 'RFC9309';
  const googleOnly = c.google_specific === true || c.test_type === 'GOOGLE_SPECIFIC';
  return `${googleOnly ? 'GoogleOnly' : section}: ${c.id} is ${c.allowed ? 'allowed' : 'disallowed'}`;
}

function suite(file: string, mode: RobotsMode): void {
  const cases = load<MatchCase>(file);
  it(`${file} is the corpus the README describes`, () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  for (const c of cases) {
    const why = DEVIATIONS[c.id];
    if (why === undefined) {
      it(nameOf(c), () => expect(verdictOf(c, mode)).toBe(c.allowed));
    } else {
      it(`DEVIATION ${c.id} (${why})`, () => expect(verdictOf(c, mode)).toBe(!c.allowed));
    }
  }
}

describe.skipIf(!present)('google-cases.jsonl in rfc9309 mode', () => suite('google-cases.jsonl', 'rfc9309'));

describe.skipIf(!present)('spec-cases.jsonl in rfc9309 mode (STANDARD and GOOGLE_SPECIFIC)', () => suite('spec-cases.jsonl', 'rfc9309'));

describe.skipIf(!present)('cpython-cases.jsonl in draft mode (1996 draft as robotparser reads it)', () => suite('cpython-cases.jsonl', 'draft'));

describe.skipIf(!present)('every deviation is a case of the corpora', () => {
  it('no deviation is listed for a case that does not exist', () => {
    const ids = new Set([...load<MatchCase>('google-cases.jsonl'), ...load<MatchCase>('spec-cases.jsonl')].map((c) => c.id));
    expect(Object.keys(DEVIATIONS).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe.skipIf(!present)('google-url-path-cases.jsonl: what part of a URL is matched, how patterns are escaped', () => {
  const cases = load<{ id: string; fn: string; input: string; expected: string }>('google-url-path-cases.jsonl');
  for (const c of cases) {
    if (c.fn === 'GetPathParamsQuery') {
      it(`RFC9309 2.2.2 path, params and query of "${c.input}" (${c.id})`, () => expect(pathParamsQuery(c.input)).toBe(c.expected));
    } else {
      it(`RFC9309 2.2.2 pattern "${c.input}" is percent-encoded as "${c.expected}" (${c.id})`, () => expect(normalizeForMatching(c.input)).toBe(c.expected));
    }
  }
});

describe.skipIf(!present)('google-agent-cases.jsonl: product tokens a crawler may use', () => {
  const cases = load<{ id: string; agent: string; valid: boolean }>('google-agent-cases.jsonl');
  for (const c of cases) {
    it(`RFC9309 2.2.1 "${c.agent}" is ${c.valid ? '' : 'not '}a valid product token (${c.id})`, () => expect(isValidProductToken(c.agent)).toBe(c.valid));
  }
});
