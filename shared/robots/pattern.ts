// A robots.txt path pattern, compiled once and matched in linear time: no regular expressions, no
// backtracking. A pattern is literal segments separated by `*`, optionally ending in `$`
// (RFC 9309 section 2.2.3). Matching a glob made only of `*` needs no backtracking: each segment is found
// at its leftmost place after the previous one (a later place could only leave less room for the rest),
// and each search is Knuth-Morris-Pratt over a part of the path no other segment scans. So a match costs
// O(path + pattern) character steps whatever the pattern, which the property tests check on the counter.

import { normalizePercentEncoding } from '../url.js';

export interface CompiledPattern {
  /** The pattern in the form it is compared in (non-ASCII percent-encoded, unreserved escapes decoded). */
  normalized: string;
  /** Octets of the normalized pattern: the priority of the rule (RFC 9309 section 2.2.2, longest match). */
  octets: number;
  /** Literal pieces between the `*` wildcards (the first is a prefix of the path). */
  segments: string[];
  /** KMP failure table of each segment. */
  failures: Int32Array[];
  /** Ends in `$`: the last segment must end the path. */
  anchored: boolean;
}

/** Counts the character comparisons a match made, for the linear-time property. */
export interface MatchWork {
  steps: number;
}

/**
 * The form a pattern or a path is compared in (RFC 9309 section 2.2.2): octets outside ASCII are
 * percent-encoded, escapes of unreserved characters decoded (`%7E` -> `~`), other escapes upper-cased.
 */
export function normalizeForMatching(s: string): string {
   
  const ascii = /[^\x00-\x7f]/.test(s) ? s.replace(/[^\x00-\x7f]+/g, (m) => percentEncodeUtf8(m)) : s;
  return ascii.includes('%') ? normalizePercentEncoding(ascii) : ascii;
}

function percentEncodeUtf8(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

export function compilePattern(pattern: string): CompiledPattern {
  const normalized = normalizeForMatching(pattern);
  // `$` is special only as the last character; elsewhere it is a literal (Google's reading too).
  const anchored = normalized.endsWith('$');
  const body = anchored ? normalized.slice(0, -1) : normalized;
  const segments = body.split('*');
  return { normalized, octets: normalized.length, segments, failures: segments.map(failureTable), anchored };
}

function failureTable(segment: string): Int32Array {
  const f = new Int32Array(segment.length);
  let k = 0;
  for (let i = 1; i < segment.length; i++) {
    while (k > 0 && segment.charCodeAt(i) !== segment.charCodeAt(k)) k = f[k - 1]!;
    if (segment.charCodeAt(i) === segment.charCodeAt(k)) k++;
    f[i] = k;
  }
  return f;
}

/** Leftmost index >= from where `segment` occurs in `path`, or -1 (KMP: at most 2 steps per path char). */
function find(path: string, from: number, segment: string, failure: Int32Array, work: MatchWork): number {
  const m = segment.length;
  if (m === 0) return from;
  let k = 0;
  let steps = 0;
  for (let i = from; i < path.length; i++) {
    const c = path.charCodeAt(i);
    steps++;
    while (k > 0 && c !== segment.charCodeAt(k)) {
      k = failure[k - 1]!;
      steps++;
    }
    if (c === segment.charCodeAt(k)) k++;
    if (k === m) {
      work.steps += steps;
      return i - m + 1;
    }
  }
  work.steps += steps;
  return -1;
}

function startsAt(path: string, at: number, segment: string, work: MatchWork): boolean {
  if (at < 0 || at + segment.length > path.length) return false;
  for (let j = 0; j < segment.length; j++) {
    work.steps++;
    if (path.charCodeAt(at + j) !== segment.charCodeAt(j)) return false;
  }
  return true;
}

const NO_WORK: MatchWork = { steps: 0 };

/** Whether the pattern matches the (normalized) path from its start. An empty pattern matches every path. */
export function matchesPath(p: CompiledPattern, path: string, work: MatchWork = NO_WORK): boolean {
  const segs = p.segments;
  const last = segs.length - 1;
  if (!startsAt(path, 0, segs[0]!, work)) return false;
  if (last === 0) return !p.anchored || path.length === segs[0]!.length;
  let pos = segs[0]!.length;
  for (let i = 1; i < last; i++) {
    const at = find(path, pos, segs[i]!, p.failures[i]!, work);
    if (at === -1) return false;
    pos = at + segs[i]!.length;
  }
  const tail = segs[last]!;
  // Anchored: the tail must end the path, after everything matched so far.
  if (p.anchored) return path.length - tail.length >= pos && startsAt(path, path.length - tail.length, tail, work);
  return find(path, pos, tail, p.failures[last]!, work) !== -1;
}
