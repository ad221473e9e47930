// How long a crawl has left, for the progress line. Two bounds, and the larger wins: the recent rate
// (pages stored over the last RATE_WINDOW_MS) against the pages still known to be wanted, and the delay
// floor (the slowest host's queue at its politeness delay, which no rate can beat). Early in a crawl the
// queue grows as links are found, so the estimate grows too; it is a forecast of the known work only.

/** Pages-per-second is taken over this much recent time, so a slow start or a stall fades out. */
export const RATE_WINDOW_MS = 30_000;

interface Sample {
  atMs: number;
  pages: number;
}

/** The recent rate of stored pages, from samples taken as the crawl goes (each progress tick). */
export class RecentRate {
  readonly #samples: Sample[] = [];

  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  /** Records `pages` (this run's count) at `atMs`; returns the pages per second over the window. */
  sample(atMs: number, pages: number): number {
    this.#samples.push({ atMs, pages });
    while (this.#samples.length > 2 && this.#samples[1]!.atMs <= atMs - this.windowMs) this.#samples.shift();
    const first = this.#samples[0]!;
    const seconds = (atMs - first.atMs) / 1000;
    return seconds > 0 ? (pages - first.pages) / seconds : 0;
  }
}

/** Seconds left for `remaining` pages at `pagesPerSecond`, or at least `floorMs`; undefined when unknown
 * (no pages stored yet and no delay to go by). */
export function secondsLeft(remaining: number, pagesPerSecond: number, floorMs = 0): number | undefined {
  if (remaining <= 0) return 0;
  const byRate = pagesPerSecond > 0 ? remaining / pagesPerSecond : undefined;
  const floor = floorMs / 1000;
  if (byRate === undefined) return floor > 0 ? floor : undefined;
  return Math.max(byRate, floor);
}
