// The postings of an index generation, read a term at a time. Loading a generation used to read
// postings.bin, tfs.bin, positions.bin and position-offsets.bin whole: 290 MB and 0.9 s for 106k
// pages, most of it the kernel handing over fresh pages, before the first query; and an index larger
// than memory could not serve at all. Now only offsets.bin (4 bytes a term) is read when a generation
// opens, and a term's documents, frequencies and positions are read with one `readSync` each the
// first time a query needs them, then kept in a cache of at most `cacheMiB` (least recently used out).
// The files themselves are unchanged (index-format.ts).

import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { GleanerError } from '../errors.js';
import { FIELD_COUNT, INDEX_FILES } from './index-format.js';

/** One term's postings: its documents, ascending, and FIELD_COUNT frequencies per document. */
export interface TermList {
  readonly term: number;
  readonly docs: Uint32Array;
  readonly tfs: Uint8Array;
}

/** One term's word positions: document i of its list has bytes[offsets[i], offsets[i + 1]) (positions.ts). */
export interface TermPositions {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
}

export interface PostingListsOptions {
  /** The most the cache of read lists holds, in MiB; 0 keeps nothing (a build reading each term once). */
  cacheMiB: number;
}

export const DEFAULT_POSTING_LISTS_OPTIONS: Readonly<PostingListsOptions> = { cacheMiB: 512 };

type Entry = TermList | TermPositions;

export class PostingLists {
  private readonly fds: { postings: number; tfs: number; positions: number; positionOffsets: number };
  /** Lists under 2t, positions under 2t + 1, each with the count of reads when it was last asked for. */
  private readonly cache = new Map<number, { entry: Entry; bytes: number; lastUse: number }>();
  private cachedBytes = 0;
  private uses = 0;
  private readonly maxBytes: number;

  constructor(
    dir: string,
    /** offsets.bin: term t's postings are numbers [offsets[t], offsets[t + 1]). */
    readonly offsets: Uint32Array,
    options: PostingListsOptions = DEFAULT_POSTING_LISTS_OPTIONS,
  ) {
    this.maxBytes = options.cacheMiB * 1024 * 1024;
    const opened: number[] = [];
    try {
      for (const name of [INDEX_FILES.postings, INDEX_FILES.tfs, INDEX_FILES.positions, INDEX_FILES.positionOffsets]) opened.push(openSync(join(dir, name), 'r'));
    } catch (e) {
      for (const fd of opened) closeSync(fd);
      throw e;
    }
    const [postings, tfs, positions, positionOffsets] = opened as [number, number, number, number];
    this.fds = { postings, tfs, positions, positionOffsets };
  }

  /** Terms in the generation. */
  get terms(): number {
    return this.offsets.length - 1;
  }

  docFreq(term: number): number {
    return this.offsets[term + 1]! - this.offsets[term]!;
  }

  list(term: number): TermList {
    const hit = this.recall(2 * term) as TermList | undefined;
    if (hit !== undefined) return hit;
    const from = this.offsets[term]!;
    const n = this.offsets[term + 1]! - from;
    const docs = new Uint32Array(readRange(this.fds.postings, from * 4, n * 4));
    const tfs = new Uint8Array(readRange(this.fds.tfs, from * FIELD_COUNT, n * FIELD_COUNT));
    const list = { term, docs, tfs };
    this.keep(2 * term, list, docs.byteLength + tfs.byteLength);
    return list;
  }

  positions(term: number): TermPositions {
    const hit = this.recall(2 * term + 1) as TermPositions | undefined;
    if (hit !== undefined) return hit;
    const from = this.offsets[term]!;
    const n = this.offsets[term + 1]! - from;
    const offsets = new Uint32Array(readRange(this.fds.positionOffsets, from * 4, (n + 1) * 4));
    const start = offsets[0]!;
    for (let i = 0; i <= n; i++) offsets[i] = offsets[i]! - start;
    const bytes = new Uint8Array(readRange(this.fds.positions, start, offsets[n]!));
    const entry = { bytes, offsets };
    this.keep(2 * term + 1, entry, bytes.byteLength + offsets.byteLength);
    return entry;
  }

  close(): void {
    for (const fd of Object.values(this.fds)) closeSync(fd);
    this.cache.clear();
    this.cachedBytes = 0;
  }

  private recall(key: number): Entry | undefined {
    const kept = this.cache.get(key);
    if (kept === undefined) return undefined;
    // A counter, not a reordering of the Map: a phrase query asks for the same lists thousands of times.
    kept.lastUse = ++this.uses;
    return kept.entry;
  }

  private keep(key: number, entry: Entry, bytes: number): void {
    if (bytes > this.maxBytes) return;
    this.cache.set(key, { entry, bytes, lastUse: ++this.uses });
    this.cachedBytes += bytes;
    if (this.cachedBytes <= this.maxBytes) return;
    // Least recently used out, down to 90% of the budget, so the next few reads do not sort again.
    const byAge = [...this.cache].sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [oldest, old] of byAge) {
      if (this.cachedBytes <= 0.9 * this.maxBytes) break;
      this.cache.delete(oldest);
      this.cachedBytes -= old.bytes;
    }
  }
}

/** `length` bytes of a file from `position`, into a buffer of their own (aligned for any typed array). */
function readRange(fd: number, position: number, length: number): ArrayBuffer {
  const buffer = new ArrayBuffer(length);
  const view = new Uint8Array(buffer);
  let done = 0;
  while (done < length) {
    const got = readSync(fd, view, done, length - done, position + done);
    if (got === 0) throw new GleanerError('INDEX_FORMAT', `an index file ends ${length - done} bytes early (at byte ${position + done}): rebuild the index with \`gleaner index --full\``);
    done += got;
  }
  return buffer;
}
