// What Node's timers can wait: setTimeout takes a 32-bit signed count of milliseconds, and a longer wait
// (2,592,000,000 ms is 30 days) fires after 1 ms with only a warning. A `--recrawl-every 30d` recrawled
// without pause, and a 30-day request timeout ended every request at once. Options that become timers
// are held to this bound where they are read.

/** The longest wait a timer keeps: 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
