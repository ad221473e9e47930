// How long to wait before the next request to a host. Pure rules; the scheduler applies them.
// "Host" here is the origin (scheme, host, port), the unit robots.txt applies to.

/** The pause between two requests to one host: our delay, or the robots Crawl-delay when larger, capped. */
export function effectiveDelayMs(delayMs: number, crawlDelaySeconds: number | null, maxCrawlDelayMs: number): { delayMs: number; capped: boolean } {
  if (crawlDelaySeconds === null || !Number.isFinite(crawlDelaySeconds) || crawlDelaySeconds <= 0) return { delayMs, capped: false };
  const asked = crawlDelaySeconds * 1000;
  if (asked > maxCrawlDelayMs) return { delayMs: Math.max(delayMs, maxCrawlDelayMs), capped: true };
  return { delayMs: Math.max(delayMs, asked), capped: false };
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff: base, 2x base, 4x base ... for attempt 1, 2, 3 ..., never above max. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
