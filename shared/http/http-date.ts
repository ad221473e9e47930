// An HTTP-date (RFC 9110 5.6.7) read strictly enough: all three of its formats open with the day's name,
// and Date.parse alone reads nearly anything ("-5" is May 2001, "garbage date 99" is 1999). Pure.

const DAY_NAME = /^(mon|tue|wed|thu|fri|sat|sun)/i;

/** The date as milliseconds since the epoch, or undefined when `text` is no HTTP-date. */
export function httpDateMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DAY_NAME.test(trimmed)) return undefined;
  // asctime's format names no zone; an HTTP-date is GMT whatever this machine's zone.
  const at = Date.parse(/\b(gmt|utc)\b/i.test(trimmed) ? trimmed : `${trimmed} GMT`);
  return Number.isNaN(at) ? undefined : at;
}
