// The block summaries of template detection (templates.ts blockShapesOf) made on another thread while
// the build's own reads the store. Reading the store is the build's first phase, and it ran on one
// core of two: on the Rust docs x5 (105,935 pages) about 20 s, of which the block summaries 7.7 s and
// handing their pages' text and block facts to another thread 1.0 s (DESIGN.md "The block summaries on
// another thread"). One worker serves the whole read, and answers each batch packed, a few typed
// arrays, transferred. When the compiled worker script is not there (tests running the TypeScript
// sources), or the worker fails, this thread makes them: same function, same summaries.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { blockShapesOf, type BlockShapes, type ShapedPage } from './templates.js';

/** The block shapes of a batch of pages, packed: page i's blocks are prints and shapes [ends[i - 1]
 * (0 for the first), ends[i]) when blocked[i] is 1; a page stored before blocks were kept has none. */
export interface PackedShapes {
  prints: Float64Array;
  shapes: Uint8Array;
  ends: Uint32Array;
  blocked: Uint8Array;
}

/** The block shapes of `pages`, packed. Pure: what the worker runs, and this thread when it cannot. */
export function packedShapesOf(pages: readonly ShapedPage[]): PackedShapes {
  const each = pages.map(blockShapesOf);
  const total = each.reduce((n, s) => n + (s?.shape.length ?? 0), 0);
  const prints = new Float64Array(total);
  const shapes = new Uint8Array(total);
  const ends = new Uint32Array(pages.length);
  const blocked = new Uint8Array(pages.length);
  let at = 0;
  each.forEach((s, i) => {
    if (s !== undefined) {
      prints.set(s.prints, at);
      shapes.set(s.shape, at);
      at += s.shape.length;
      blocked[i] = 1;
    }
    ends[i] = at;
  });
  return { prints, shapes, ends, blocked };
}

/** Page i's shapes of a packed batch (views, no copy); undefined for a page without blocks. */
export function shapesAt(packed: PackedShapes, i: number): BlockShapes | undefined {
  if (packed.blocked[i] !== 1) return undefined;
  const start = i === 0 ? 0 : packed.ends[i - 1]!;
  const end = packed.ends[i]!;
  return { prints: packed.prints.subarray(start, end), shape: packed.shapes.subarray(start, end) };
}

/** Whether a worker's answer is a packed batch of `pages` pages. */
function isPackedFor(pages: number): (answer: unknown) => answer is PackedShapes {
  return (answer: unknown): answer is PackedShapes =>
    typeof answer === 'object' &&
    answer !== null &&
    'prints' in answer &&
    answer.prints instanceof Float64Array &&
    'shapes' in answer &&
    answer.shapes instanceof Uint8Array &&
    'ends' in answer &&
    answer.ends instanceof Uint32Array &&
    answer.ends.length === pages &&
    'blocked' in answer &&
    answer.blocked instanceof Uint8Array &&
    answer.blocked.length === pages;
}

/** One worker thread that makes packedShapesOf of batch after batch, answered in order. One for the
 * whole read: a worker started per batch never had its code optimised (a batch of 2,048 Rust pages took
 * 535-607 ms there, 163-172 here). Once it fails (cannot start, throws, exits, answers something else),
 * every batch not answered is made in this thread. */
export class ShapeWorker {
  private readonly worker: Worker | undefined;
  private readonly waiting: { pages: readonly ShapedPage[]; resolve: (p: PackedShapes) => void; reject: (e: unknown) => void }[] = [];
  private failed = false;

  constructor(workerScript: URL = new URL('./block-worker.js', import.meta.url)) {
    if (!existsSync(workerScript)) {
      this.failed = true;
      return;
    }
    this.worker = new Worker(workerScript);
    this.worker.on('message', (answer: unknown) => {
      const job = this.waiting[0];
      if (job === undefined) return;
      if (!isPackedFor(job.pages.length)(answer)) {
        this.fail();
        return;
      }
      this.waiting.shift();
      job.resolve(answer);
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /** packedShapesOf(pages), from the worker or, once it has failed, from this thread. */
  shapes(pages: readonly ShapedPage[]): Promise<PackedShapes> {
    if (this.failed) return new Promise((resolve) => resolve(packedShapesOf(pages)));
    return new Promise((resolve, reject) => {
      this.waiting.push({ pages, resolve, reject });
      this.worker!.postMessage(pages);
    });
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.worker?.terminate();
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    void this.worker?.terminate();
    for (const job of this.waiting.splice(0)) {
      try {
        job.resolve(packedShapesOf(job.pages));
      } catch (e) {
        job.reject(e);
      }
    }
  }
}

/** Defaults of BlockShapeQueue. */
export const BLOCK_QUEUE_DEFAULTS = {
  /** Pages the worker is given at once (about 2.5 MB of the Rust docs' text): few messages, and the
   * worker at work soon after the read starts. */
  batchPages: 512,
  /** Batches handed out and not yet answered before the reader waits for the oldest: the text they
   * hold is the memory this costs. */
  inFlight: 2,
};

/**
 * Gathers pages (each with what to call with its shapes) into batches, each made on a worker thread
 * (or, with `threads` false, at once in this thread); `done` is called for the pages of each batch in
 * the order they were added, batch after batch. `finish` waits for every batch.
 */
export class BlockShapeQueue<T> {
  private pages: ShapedPage[] = [];
  private owners: T[] = [];
  private readonly pending: Promise<void>[] = [];
  private readonly worker: ShapeWorker | undefined;

  constructor(
    threads: boolean,
    private readonly done: (owner: T, shapes: BlockShapes | undefined) => void,
    private readonly options = BLOCK_QUEUE_DEFAULTS,
    workerScript?: URL,
  ) {
    this.worker = threads ? new ShapeWorker(workerScript) : undefined;
  }

  /** Adds a page; waits when `inFlight` batches are out and this one fills another. */
  async add(owner: T, page: ShapedPage): Promise<void> {
    if (this.worker === undefined) {
      this.done(owner, blockShapesOf(page));
      return;
    }
    // Only what blockShapesOf reads goes to the worker.
    const { text, blockEnds, linkBlocks, sections, description, headings } = page;
    this.pages.push({ text, blockEnds, linkBlocks, sections, description, headings });
    this.owners.push(owner);
    if (this.pages.length < this.options.batchPages) return;
    this.send();
    if (this.pending.length > this.options.inFlight) await this.pending.shift();
  }

  /** Waits for every batch; each page's `done` has been called when it resolves. */
  async finish(): Promise<void> {
    try {
      if (this.pages.length > 0) this.send();
      for (const p of this.pending.splice(0)) await p;
    } finally {
      await this.close();
    }
  }

  /** Ends the worker, whatever is left unanswered (a read that failed): a live worker would keep the
   * process from exiting. */
  async close(): Promise<void> {
    await this.worker?.close();
  }

  private send(): void {
    const owners = this.owners;
    const answered = this.worker!.shapes(this.pages);
    const previous = this.pending.at(-1) ?? Promise.resolve();
    // In order: a batch's pages are given their shapes after the batch before's.
    const given = previous.then(async () => {
      const packed = await answered;
      owners.forEach((owner, i) => this.done(owner, shapesAt(packed, i)));
    });
    // Awaited in turn (add, finish); a failure before its turn is not an unhandled rejection.
    answered.catch(() => {});
    given.catch(() => {});
    this.pending.push(given);
    this.pages = [];
    this.owners = [];
  }
}
