// What Node's timers can wait: setTimeout takes a 32-bit signed count of milliseconds, and a longer wait
// (2,592,000,000 ms is 30 days) fires after 1 ms with only a warning. A `--recrawl-every 30d` recrawled
// without pause, and a 30-day request timeout ended every request at once. Options that become timers
// are held to this bound where they are read.

/** The longest wait a timer keeps: 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The wait after the `attempt`-th failure in a row (1 for the first; less counts as 1): `firstMs`,
 * doubling at each failure up to `maxMs`, as the crawler's retries, robots.txt refetches, worker
 * restarts and index reloads all back off. Pure. */
export function doublingMs(attempt: number, firstMs: number, maxMs: number): number {
  // 2^30 times any first wait is past every maximum; a larger exponent only risks Infinity * 0.
  return Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30));
}
