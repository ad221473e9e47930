// Durations as people write them on a command line: `90s`, `30m`, `6h`, `1d` (a bare number is seconds).

import { GleanerError } from '../shared/errors.js';
import { MAX_TIMER_MS } from '../shared/timers.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `text`, or a BAD_ARGUMENT error naming `flag` for anything else, below `minMs` or
 * longer than a timer can wait (shared/timers.ts). */
export function parseDuration(flag: string, text: string, minMs = 1000): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? 's']! : NaN;
  if (!Number.isFinite(ms) || ms < minMs || ms > MAX_TIMER_MS) {
    throw new GleanerError('BAD_ARGUMENT', `${flag} needs a duration such as 90s, 30m, 6h or 1d (at least ${minMs / 1000} s, at most 24d), not "${text}"`);
  }
  return Math.round(ms);
}
