// Group commit for a shared crawl: pages that finish within a few milliseconds of each other are written
// to PostgreSQL in one statement and finished in Redis in one round trip, instead of one of each per page.
//
// Why: on the Rust docs at --delay 0 the shared path spent about 0.6 ms of PostgreSQL's CPU per page (a
// statement, its commit and the commit's fsync) and two system calls of the crawler's loop thread, each
// waking a server that took the core from the loop. Up to four pages to a write halved PostgreSQL's and
// Redis's CPU per page and cut the crawler's by a tenth (DESIGN.md "Pages committed in groups"); up to
// eight, with sixteen pages under way, cut PostgreSQL's by another sixth and Redis's by an eighth.
// Waiting costs nothing politeness needs: the host was freed when the response ended; only the page's
// place among the pages under way is held a little longer.

/** Defaults for CommitBatch. */
export interface CommitBatchOptions {
  /** Pages written together at most: a group this large is written at once. Below the crawl's
   * concurrency, so the pages waiting never hold every place and stop the fetching. */
  maxPages: number;
  /** How long the first page of a group waits for others before the group is written anyway. */
  lingerMs: number;
}

export const DEFAULT_COMMIT_BATCH_OPTIONS: Readonly<CommitBatchOptions> = { maxPages: 8, lingerMs: 15 };

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Collects items and hands them to `write` in groups; each `add` resolves when its group's write has. */
export class CommitBatch<T> {
  private waiting: Waiting<T>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly options: CommitBatchOptions = DEFAULT_COMMIT_BATCH_OPTIONS,
  ) {}

  /** Queues the item; resolves once its group is written, rejects with the group's error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length >= this.options.maxPages) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.lingerMs);
    });
  }

  /** Items queued and not yet handed to `write`. */
  get size(): number {
    return this.waiting.length;
  }

  /** Writes what is queued now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const group = this.waiting;
    if (group.length === 0) return;
    this.waiting = [];
    const written = this.write(group.map((w) => w.item)).then(
      () => {
        for (const w of group) w.resolve();
      },
      (e: unknown) => {
        for (const w of group) w.reject(e);
      },
    );
    this.writing.add(written);
    void written.finally(() => this.writing.delete(written));
  }

  /** Writes what is queued and waits for every write under way (before the crawl closes its stores). */
  async drain(): Promise<void> {
    this.flush();
    await Promise.all(this.writing);
  }
}
