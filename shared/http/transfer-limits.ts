// How long one HTTP request may take and how slow its body may come, decided by pure functions over
// explicit times (transfer-guard.ts runs the clock). undici's own timeouts are idle timeouts: a server
// that drips one byte every few seconds never trips them. These bound the whole request instead.

export interface TransferLimits {
  /** The whole request, connecting, headers and body, in milliseconds. */
  requestTimeoutMs: number;
  /** Below this many bytes per second, averaged over `minRateWindowMs`, the request is abandoned; 0 never
   * (nor with a window of 0). */
  minBytesPerSecond: number;
  /** The window the rate is averaged over, and the grace period after the headers before it is judged. */
  minRateWindowMs: number;
  /** The final answer's headers, counted from the request's start; absent or 0: only undici's own
   * headers timeout, which a server restarts for ever by sending "103 Early Hints" every 50 ms. */
  headersTimeoutMs?: number;
}

/** The reason a request whose final headers did not come in time ends with. */
export function headersReason(limits: Pick<TransferLimits, 'headersTimeoutMs'>): string {
  return `no answer's headers within ${seconds(limits.headersTimeoutMs ?? 0)} s`;
}

/** The reason a request that ran past its deadline ends with (a network error, retried like one). */
export function deadlineReason(limits: Pick<TransferLimits, 'requestTimeoutMs'>): string {
  return `deadline of ${seconds(limits.requestTimeoutMs)} s exceeded`;
}

export function slowReason(limits: Pick<TransferLimits, 'minBytesPerSecond' | 'minRateWindowMs'>): string {
  return `slower than ${limits.minBytesPerSecond} bytes/s for ${seconds(limits.minRateWindowMs)} s`;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** Buckets per window: the sliding window moves in steps of a tenth of it. */
const BUCKETS = 10;

/**
 * Bytes received over a sliding window, judged like curl's --speed-limit/--speed-time: once a whole
 * window has passed since the body started, a window holding fewer than minBytesPerSecond x window
 * bytes is too slow. Times are milliseconds from any monotonic clock.
 */
export class RateMeter {
  private readonly bucketMs: number;
  private readonly counts = new Map<number, number>();
  private startedAt: number | undefined;

  constructor(private readonly limits: Pick<TransferLimits, 'minBytesPerSecond' | 'minRateWindowMs'>) {
    this.bucketMs = Math.max(1, limits.minRateWindowMs / BUCKETS);
  }

  /** The body started (headers arrived): the grace period runs from here. */
  start(nowMs: number): void {
    this.startedAt ??= nowMs;
  }

  add(bytes: number, nowMs: number): void {
    const b = Math.floor(nowMs / this.bucketMs);
    this.counts.set(b, (this.counts.get(b) ?? 0) + bytes);
  }

  /** Bytes counted over the last window ending at `nowMs`, and the milliseconds that span covers
   * (between nine and ten tenths of the window, as the oldest bucket drops out whole). */
  recent(nowMs: number): { bytes: number; spanMs: number } {
    const last = Math.floor(nowMs / this.bucketMs);
    const first = last - BUCKETS + 1;
    let bytes = 0;
    for (const [b, n] of this.counts) {
      if (b < first) this.counts.delete(b);
      else if (b <= last) bytes += n;
    }
    return { bytes, spanMs: nowMs - first * this.bucketMs };
  }

  tooSlow(nowMs: number): boolean {
    const { minBytesPerSecond, minRateWindowMs } = this.limits;
    if (minBytesPerSecond <= 0 || minRateWindowMs <= 0 || this.startedAt === undefined || nowMs - this.startedAt < minRateWindowMs) return false;
    const { bytes, spanMs } = this.recent(nowMs);
    return bytes < (minBytesPerSecond * spanMs) / 1000;
  }
}
