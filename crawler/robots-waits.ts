// Hosts whose robots.txt could not be had: which wait for their next try and why, which were given up
// and why. The crawl asks this what to do after each failure; the progress line and the summary read it.
// RFC 9309 2.3.1.4: while robots.txt is unreachable the site is disallowed; the other hosts go on.

import type { Unreachable } from '../shared/robots/index.js';
import { FailureCounts } from './politeness.js';
import { robotsFailureStep, type RobotsFailureStep, type RobotsGiveUpOptions } from './robots-give-up.js';

export type { RobotsFailureStep } from './robots-give-up.js';

export interface RobotsWait {
  origin: string;
  reason: string;
  /** Failed tries so far, and how many are allowed before the host is given up. */
  failures: number;
  attempts: number;
  /** Date.now() of the next try. */
  retryAt: number;
}

export interface HostGivenUp {
  origin: string;
  reason: string;
  /** Tries made; 1 for a host that could not be connected to at all. */
  failures: number;
  cannotConnect: boolean;
  /** Queued URLs of the host that were dropped with it. */
  urls: number;
  /** Given up for its pages' requests failing in a row after its robots.txt was read, not for robots.txt. */
  pages?: true;
}

export class RobotsWaits {
  private readonly waiting = new Map<string, RobotsWait>();
  private readonly failures = new FailureCounts();
  private readonly gaveUp = new Map<string, HostGivenUp>();

  constructor(private readonly options: RobotsGiveUpOptions) {}

  /** One more failed try: give the host up (no connection at all, or out of tries) or ask again later.
   * A waiting host stays in the list meanwhile, in its place: waitFor or givenUp comes next. */
  failed(origin: string, why: Unreachable): RobotsFailureStep {
    return robotsFailureStep(this.failures.failed(origin), why, this.options);
  }

  /** Updated in place: the hosts stay in the order they began to wait, so the progress line (which
   * names the first) keeps naming one host until it is read or given up. Taken out and put back at
   * each failure, the host named depended on which try ended last: two failing hosts took turns. */
  waitFor(origin: string, why: Unreachable, step: { failures: number; attempts: number }, retryAt: number): void {
    this.waiting.set(origin, { origin, reason: why.reason, failures: step.failures, attempts: step.attempts, retryAt });
  }

  givenUp(origin: string, why: Unreachable, urls: number): HostGivenUp {
    this.waiting.delete(origin);
    const host: HostGivenUp = { origin, reason: why.reason, failures: Math.max(1, this.failures.count(origin)), cannotConnect: why.cannotConnect, urls };
    this.gaveUp.set(origin, host);
    return host;
  }

  /** A host whose page requests could not connect `failures` times in a row (it answered its
   * robots.txt, then went away): given up as one whose robots.txt cannot be had, so its queue and the
   * links to it found later are skipped, instead of every URL waiting out its retries. */
  givenUpForPages(origin: string, why: Unreachable, failures: number, urls: number): HostGivenUp {
    const host: HostGivenUp = { origin, reason: why.reason, failures, cannotConnect: why.cannotConnect, urls, pages: true };
    this.gaveUp.set(origin, host);
    return host;
  }

  /** The host when it was given up in this run, counting one more URL skipped with it: a link to it
   * found later is not asked for (one more robots.txt try per new URL, each up to the request deadline,
   * would hold the crawl on a dead host); a resumed crawl asks again. */
  skipAfterGiveUp(origin: string): HostGivenUp | undefined {
    const host = this.gaveUp.get(origin);
    if (host) host.urls++;
    return host;
  }

  /** robots.txt was had after all. */
  ok(origin: string): void {
    this.waiting.delete(origin);
    this.failures.forget(origin);
  }

  get waitingHosts(): RobotsWait[] {
    return [...this.waiting.values()];
  }

  get givenUpHosts(): HostGivenUp[] {
    return [...this.gaveUp.values()];
  }

  /** Every one of `origins` was given up: nothing of the crawl's seeds could be fetched. */
  allGivenUp(origins: Iterable<string>): boolean {
    let any = false;
    for (const o of origins) {
      if (!this.gaveUp.has(o)) return false;
      any = true;
    }
    return any;
  }
}

/** `http://h:1 robots.txt HTTP 503, asking again in 4 s (2 of 4)`. */
export function describeWait(w: RobotsWait, now: number): string {
  const seconds = Math.max(0, Math.ceil((w.retryAt - now) / 1000));
  return `${w.origin} robots.txt ${w.reason}, asking again in ${seconds} s (${w.failures} of ${w.attempts})`;
}

/** ` on 4 page requests in a row`, or nothing for one request. */
export function inARowSuffix(failures: number): string {
  return failures > 1 ? ` on ${String(failures)} page requests in a row` : '';
}

/** `http://h:1: robots.txt connection refused; site skipped (3 URLs)`. */
export function describeGivenUp(h: HostGivenUp): string {
  if (h.pages) return `${h.origin}: ${h.reason}${inARowSuffix(h.failures)}; ${h.cannotConnect ? 'host cannot be reached' : 'given up for this run'}, ${h.urls} URL${h.urls === 1 ? '' : 's'} skipped`;
  const tries = h.cannotConnect ? '' : ` after ${h.failures} ${h.failures === 1 ? 'try' : 'tries'}`;
  const what = h.cannotConnect ? 'host cannot be reached' : 'whole site disallowed (RFC 9309 2.3.1.4)';
  return `${h.origin}: robots.txt ${h.reason}${tries}; ${what}, ${h.urls} URL${h.urls === 1 ? '' : 's'} skipped`;
}
