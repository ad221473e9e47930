// When the crawl gives up a host whose robots.txt cannot be had, and how long it waits before asking
// again until then. Pure; RobotsWaits keeps the per-host counts and the crawl loop acts on the step.
// RFC 9309 2.3.1.4: while robots.txt is unreachable the whole site is disallowed, so waiting is the only
// way to crawl it; a host that takes no connection at all is given up at once, as waiting for it would
// only hold the crawl.

import { doublingMs } from '../shared/timers.js';
import type { HostRobots } from '../shared/robots/index.js';

/** Why robots.txt could not be had (robots/unreachable.ts), as the robots entry hands it out. */
type Unreachable = NonNullable<HostRobots['unreachable']>;

export type RobotsFailureStep =
  | { giveUp: true; failures: number }
  | { giveUp: false; failures: number; attempts: number; waitMs: number };

export interface RobotsGiveUpOptions {
  /** Tries after the first failure before the host is given up. */
  robotsRetries: number;
  /** First wait, doubling per failure up to maxBackoffMs. */
  robotsBackoffMs: number;
  maxBackoffMs: number;
}

/** After the `failures`-th failure in a row (1 for the first) to get a host's robots.txt for `why`. */
export function robotsFailureStep(failures: number, why: Unreachable, options: RobotsGiveUpOptions): RobotsFailureStep {
  if (why.cannotConnect || failures > options.robotsRetries) return { giveUp: true, failures };
  return { giveUp: false, failures, attempts: options.robotsRetries + 1, waitMs: doublingMs(failures, options.robotsBackoffMs, options.maxBackoffMs) };
}
