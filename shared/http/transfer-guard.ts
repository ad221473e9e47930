// The clock around one HTTP request: an AbortSignal for undici that fires at the request's deadline, when
// the final headers are late (however many informational answers came first),
// the body comes slower than the minimum rate (transfer-limits.ts decides), or when the crawl is stopped
// (Ctrl-C). undici then fails the request or destroys its body, and the reader turns that into a value.

import { deadlineReason, headersReason, RateMeter, slowReason, type TransferLimits } from './transfer-limits.js';

/** Why a guard ended its request: a limit (a network error with this reason) or the caller's stop. */
export type GuardStop = { kind: 'limit'; reason: string } | { kind: 'interrupted' };

/** What an interrupted request reports when it has to be told as an error (it is not stored as one). */
export const INTERRUPTED_REASON = 'interrupted: the crawl was stopped';

export interface TransferGuard {
  /** Pass to undici's request(): aborting it fails the request or destroys the body. */
  readonly signal: AbortSignal;
  /** Headers arrived: the minimum rate is judged once a whole window has passed from here. */
  bodyStarted(): void;
  /** Bytes as they came off the wire (before decompression). */
  received(bytes: number): void;
  /** Why the guard stopped the request, if it did. */
  stopped(): GuardStop | undefined;
  /** The same as the text a failed request reports: the limit's reason, or INTERRUPTED_REASON. */
  reason(): string | undefined;
  /** The request is over: stop the clocks and let go of the caller's signal. */
  dispose(): void;
}

/** Starts the clock of one request. `stop` is the caller's signal (the crawl's Ctrl-C). */
export function guardTransfer(limits: TransferLimits, stop?: AbortSignal, now: () => number = () => performance.now()): TransferGuard {
  const controller = new AbortController();
  const meter = new RateMeter(limits);
  let why: GuardStop | undefined;
  let rateTimer: NodeJS.Timeout | undefined;
  const end = (reason: GuardStop): void => {
    if (why !== undefined) return;
    why = reason;
    clearTimers();
    controller.abort(new Error(reason.kind === 'limit' ? reason.reason : INTERRUPTED_REASON));
  };
  const onStop = (): void => end({ kind: 'interrupted' });
  const deadline = setTimeout(() => end({ kind: 'limit', reason: deadlineReason(limits) }), limits.requestTimeoutMs);
  deadline.unref();
  const headersMs = limits.headersTimeoutMs ?? 0;
  let headersDeadline: NodeJS.Timeout | undefined;
  if (headersMs > 0 && headersMs < limits.requestTimeoutMs) {
    headersDeadline = setTimeout(() => end({ kind: 'limit', reason: headersReason(limits) }), headersMs);
    headersDeadline.unref();
  }
  const clearTimers = (): void => {
    clearTimeout(deadline);
    clearTimeout(headersDeadline);
    if (rateTimer) clearInterval(rateTimer);
    stop?.removeEventListener('abort', onStop);
  };
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop);

  return {
    signal: controller.signal,
    bodyStarted() {
      clearTimeout(headersDeadline);
      if (why !== undefined || rateTimer !== undefined || limits.minBytesPerSecond <= 0) return;
      meter.start(now());
      // A timer, not a check per chunk: a body that stops altogether sends no chunk to check on.
      const everyMs = Math.max(50, Math.min(1000, limits.minRateWindowMs / 10));
      rateTimer = setInterval(() => {
        if (meter.tooSlow(now())) end({ kind: 'limit', reason: slowReason(limits) });
      }, everyMs);
      rateTimer.unref();
    },
    received(bytes) {
      meter.add(bytes, now());
    },
    stopped: () => why,
    reason: () => (why === undefined ? undefined : why.kind === 'limit' ? why.reason : INTERRUPTED_REASON),
    dispose: clearTimers,
  };
}
