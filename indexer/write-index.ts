// Writes an index generation and makes it live atomically: every file goes into a fresh gen-* directory
// (flushed to disk), then CURRENT is replaced by a rename, which readers see whole or not at all.
// Older generations are removed afterwards; a reader that still has one open keeps reading it (Unix
// keeps unlinked files alive while open). The directory exists from the build's start (a draft), so
// stored.bin is written while documents are analysed and their text need not be held to the end.

import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { currentGeneration, CURRENT_FILE, encodeDocNumbers, encodeDocStrings, encodeTermTable, type EncodedLists, INDEX_FILES, indexRoot, type DocColumns, type IndexManifest, type IndexStats, type TermTable, TYPEAHEAD_FILE, encodeChunkTable, STORED_CHUNK_BYTES, STORED_DEFLATE_LEVEL, CHECKSUMMED_FILES } from '../shared/index-format/index.js';
import { isGleanerError } from '../shared/errors.js';

export interface GenerationFiles {
  manifest: Omit<IndexManifest, 'bytesOnDisk'>;
  docs: DocColumns;
  /** Per document, the hash an incremental build compares (build.ts fingerprintOf). */
  fingerprints: string[];
  terms: TermTable;
  offsets: Uint32Array;
  /** postings.bin, positions.bin and term-offsets.bin (shared/index-format term-codec.ts). */
  lists: EncodedLists;
  wordMap: Uint32Array;
  wordMapOffsets: Uint32Array;
  /** The page typeahead's file, typeahead.ndjson, as its encoded lines (indexer/typeahead-thread.ts). */
  typeahead: readonly Uint8Array[];
  stats: Omit<IndexStats, 'bytesOnDisk'>;
}

/** Bytes gathered before a streamed file's write: few system calls, little memory. */
const STREAM_CHUNK_BYTES = 4 * 2 ** 20;

/** A file written from pieces, `chunkBytes` gathered at a time: few system calls, little memory. */
export class StreamedFile {
  private chunk: Buffer;
  private used = 0;
  /** Bytes appended so far. */
  bytes = 0;

  private constructor(
    private readonly handle: FileHandle,
    chunkBytes: number,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
  }

  static async create(path: string, chunkBytes = STREAM_CHUNK_BYTES): Promise<StreamedFile> {
    return new StreamedFile(await open(path, 'w'), chunkBytes);
  }

  /** Appends pieces: strings (written as UTF-8) or bytes. */
  async append(pieces: Iterable<string | Uint8Array>): Promise<void> {
    for (const piece of pieces) {
      const bytes = typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.byteLength;
      if (this.used + bytes > this.chunk.length) await this.flush();
      // A piece larger than the chunk (a long page's body) gets a buffer of its own for its write.
      if (bytes > this.chunk.length) this.chunk = Buffer.allocUnsafe(bytes);
      if (typeof piece === 'string') this.chunk.write(piece, this.used, 'utf8');
      else this.chunk.set(piece, this.used);
      this.used += bytes;
      this.bytes += bytes;
    }
  }

  /** Writes what is gathered, flushes the file to disk and closes it; returns its size. */
  async finish(): Promise<number> {
    try {
      await this.flush();
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    return this.bytes;
  }

  /** Closes the file, written or not (a failed build). */
  async close(): Promise<void> {
    await this.handle.close().catch(() => {});
  }

  private async flush(): Promise<void> {
    if (this.used > 0) await this.handle.write(this.chunk, 0, this.used);
    this.used = 0;
  }
}

/** stored.bin written in deflated chunks of `chunkBytes` plain bytes, and its chunk table
 * (shared/index-format stored-chunks.ts); the records' offsets count the plain bytes. */
export class ChunkedFile {
  private chunk: Buffer;
  private used = 0;
  private plainBytes = 0;
  private readonly ends: number[] = [0];

  private constructor(
    private readonly file: StreamedFile,
    private readonly tablePath: string,
    private readonly chunkBytes: number,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
  }

  static async create(path: string, tablePath: string, chunkBytes = STORED_CHUNK_BYTES): Promise<ChunkedFile> {
    return new ChunkedFile(await StreamedFile.create(path), tablePath, chunkBytes);
  }

  /** Appends pieces: strings (written as UTF-8) or bytes. */
  async append(pieces: Iterable<string | Uint8Array>): Promise<void> {
    for (const piece of pieces) {
      // A string sure to fit (at most three bytes a UTF-16 unit) is written in place, not copied first.
      if (typeof piece === 'string' && 3 * piece.length < this.chunkBytes - this.used) {
        const n = this.chunk.write(piece, this.used, 'utf8');
        this.used += n;
        this.plainBytes += n;
        continue;
      }
      const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      for (let at = 0; at < bytes.byteLength; ) {
        const n = Math.min(bytes.byteLength - at, this.chunkBytes - this.used);
        this.chunk.set(bytes.subarray(at, at + n), this.used);
        this.used += n;
        at += n;
        if (this.used === this.chunkBytes) await this.seal();
      }
      this.plainBytes += bytes.byteLength;
    }
  }

  /** Writes the last chunk and the table, flushed to disk; returns the bytes of both files and the
   * table's CRC-32 (the manifest's checksums). */
  async finish(): Promise<{ bytes: number; tableChecksum: number }> {
    try {
      if (this.used > 0) await this.seal();
    } catch (e) {
      await this.file.close();
      throw e;
    }
    const storedBytes = await this.file.finish();
    const table = encodeChunkTable({ chunkBytes: this.chunkBytes, plainBytes: this.plainBytes, ends: Float64Array.from(this.ends) });
    return { bytes: storedBytes + (await writeDurably(this.tablePath, table)), tableChecksum: crc32(table) };
  }

  /** Closes the file, written or not (a failed build). */
  async close(): Promise<void> {
    await this.file.close();
  }

  /** Deflates the gathered chunk and writes it. In this thread: on libuv's threads each chunk (16 KiB)
   * cost about as much CPU again in handing it over as in deflating it (3,662 chunks of the Rust docs'
   * stored text: 720-966 ms of CPU async, four at once, against 412-483 ms here), and while an index
   * build analyses, every core is busy. */
  private async seal(): Promise<void> {
    const deflated = deflateRawSync(this.chunk.subarray(0, this.used), { level: STORED_DEFLATE_LEVEL });
    this.used = 0;
    await this.file.append([deflated]);
    this.ends.push(this.ends[this.ends.length - 1]! + deflated.length);
  }
}

/** A file's contents: text, bytes, or pieces of either (a file larger than one string can be). */
type FileData = string | Uint8Array | readonly (string | Uint8Array)[];

/** zlib's CRC-32 of a file's contents (strings as UTF-8), as index-read.ts checks it. */
function crc32Of(data: FileData): number {
  let crc = 0;
  for (const piece of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) crc = crc32(piece, crc);
  return crc;
}

/** Writes a file and flushes it to disk; returns its size. */
async function writeDurably(path: string, data: FileData): Promise<number> {
  return (await writeStarted(path, data)).written;
}

/**
 * Opens the file and hands its first bytes to the system; then `written` is its size once all of it is
 * written and flushed to disk. Each piece goes in one write call (as long as the system takes it
 * whole), not in writeFile's 512 KiB steps, each of which waits for this thread to be free: a file
 * started before this thread goes on to other work is written meanwhile.
 */
async function writeStarted(path: string, data: FileData): Promise<{ written: Promise<number> }> {
  const handle = await open(path, 'w');
  const written = (async () => {
    try {
      let bytes = 0;
      for (const piece of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) {
        const raw = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        for (let at = 0; at < raw.byteLength; ) at += (await handle.write(raw, at, raw.byteLength - at)).bytesWritten;
        bytes += raw.byteLength;
      }
      await handle.sync();
      return bytes;
    } finally {
      await handle.close();
    }
  })();
  // Awaited by the caller; a failure before then is not an unhandled rejection.
  written.catch(() => {});
  return { written };
}

const bytesOf = (a: Uint32Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A generation being written: stored.bin while the build goes, the rest at the end. */
export interface GenerationDraft {
  /** Appends pieces of stored.bin (strings as UTF-8, or bytes), in document order. */
  appendStored(pieces: Iterable<string | Uint8Array>): Promise<void>;
  /** Writes the other files, points CURRENT at the generation and removes the others; returns its
   * directory and size. */
  commit(files: GenerationFiles): Promise<{ dir: string; bytesOnDisk: number }>;
  /** Removes the unfinished generation: the build failed, the live index stays as it was. */
  abandon(): Promise<void>;
}

/** Starts a generation in a fresh gen-* directory under `dataDir`'s index root. */
export async function startGeneration(dataDir: string, chunkBytes = STORED_CHUNK_BYTES): Promise<GenerationDraft> {
  const root = indexRoot(dataDir);
  await mkdir(root, { recursive: true });
  // What a build that was killed left behind (its stored.bin may be gigabytes) goes before this one
  // needs the room; the live generation and builds under way stay.
  const live = await liveGeneration(dataDir);
  for (const entry of await readdir(root)) {
    if (entry.startsWith('gen-') && join(root, entry) !== live && !isAlive(pidOf(entry))) await rm(join(root, entry), { recursive: true, force: true });
  }
  const name = `gen-${Date.now().toString(36)}-${process.pid}`;
  const dir = join(root, name);
  await mkdir(dir);
  const stored = await ChunkedFile.create(join(dir, INDEX_FILES.stored), join(dir, INDEX_FILES.storedChunks), chunkBytes);
  return {
    appendStored: (pieces) => stored.append(pieces),
    commit: async (files) => {
      const { bytes: storedBytes, tableChecksum } = await stored.finish();
      const bytes = storedBytes + (await writeRest(dir, files, storedBytes, { [INDEX_FILES.storedChunks]: tableChecksum }));
      const tmp = join(root, `${CURRENT_FILE}.${process.pid}.tmp`);
      await writeDurably(tmp, name + '\n');
      // A folder where the pointer belongs (a damaged index) would refuse the rename.
      if ((await stat(join(root, CURRENT_FILE)).catch(() => undefined))?.isDirectory() === true) await rm(join(root, CURRENT_FILE), { recursive: true, force: true });
      await rename(tmp, join(root, CURRENT_FILE));
      await syncDir(root);
      for (const entry of await readdir(root)) {
        if (entry === name || !(entry.startsWith('gen-') || entry.endsWith('.tmp'))) continue;
        // Another build's generation under way (its process alive) is left to it.
        if (entry.startsWith('gen-') && isAlive(pidOf(entry))) continue;
        await rm(join(root, entry), { recursive: true, force: true });
      }
      return { dir, bytesOnDisk: bytes };
    },
    abandon: async () => {
      await stored.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Removes the generation a build in process `pid` left unfinished (killed, or out of memory), if any:
 * what a process that ran the build calls once it has ended. The live generation is never removed. */
export async function discardUnfinished(dataDir: string, pid: number): Promise<void> {
  const root = indexRoot(dataDir);
  const live = await liveGeneration(dataDir);
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return; // no index dir: nothing was started
  }
  for (const entry of entries) {
    if (entry.startsWith('gen-') && pidOf(entry) === pid && join(root, entry) !== live) await rm(join(root, entry), { recursive: true, force: true });
  }
}

/** The live generation, or undefined when there is none or CURRENT names none (a damaged pointer, which
 * the build that calls this replaces: no generation is then kept for it). */
async function liveGeneration(dataDir: string): Promise<string | undefined> {
  try {
    return await currentGeneration(dataDir);
  } catch (e) {
    if (isGleanerError(e) && e.code === 'INDEX_FORMAT') return undefined;
    throw e;
  }
}

/** The process that wrote a generation (its name ends with it). */
const pidOf = (entry: string): number => Number(entry.split('-').pop());

/** Whether process `pid` runs (a generation named for it may be a build under way). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The generation's files other than stored.bin and its chunk table; returns their size. All are
 * written at once: postings.bin and positions.bin first (they need no encoding), then each of the
 * others as soon as it is encoded, while the ones before are written and flushed. One after another,
 * the commit of SciFact x20 took 1.5-1.9 s, 0.65 s of it waiting for those two (DESIGN.md "A
 * generation's files written at once"). */
async function writeRest(dir: string, files: GenerationFiles, storedBytes: number, checksums: Partial<Record<string, number>>): Promise<number> {
  const writes: Promise<number>[] = [];
  const large = await Promise.allSettled([writeStarted(join(dir, INDEX_FILES.postings), files.lists.postings), writeStarted(join(dir, INDEX_FILES.positions), files.lists.positions)]);
  for (const started of large) writes.push(started.status === 'fulfilled' ? started.value.written : Promise.reject(started.reason as Error));
  const write = (name: string, data: () => FileData): void => {
    // Encoded now, in this thread; the write and its flush go on while the next one is encoded. An
    // encoding that throws ends the commit only once the writes started before it have ended.
    let contents: FileData;
    try {
      contents = data();
    } catch (e) {
      writes.push(Promise.reject(e instanceof Error ? e : new Error(String(e))));
      return;
    }
    if (CHECKSUMMED_FILES.includes(name)) checksums[name] = crc32Of(contents);
    writes.push(writeDurably(join(dir, name), contents));
  };
  const { url, title, language, host, ...numbers } = files.docs;
  write(INDEX_FILES.docStrings, () => encodeDocStrings({ url, title, language, host }));
  write(INDEX_FILES.docNumbers, () => encodeDocNumbers(numbers));
  write(INDEX_FILES.fingerprints, () => JSON.stringify(files.fingerprints));
  write(INDEX_FILES.terms, () => encodeTermTable(files.terms));
  write(INDEX_FILES.offsets, () => bytesOf(files.offsets));
  write(INDEX_FILES.termOffsets, () => new Uint8Array(files.lists.termOffsets.buffer, files.lists.termOffsets.byteOffset, files.lists.termOffsets.byteLength));
  write(INDEX_FILES.wordMap, () => bytesOf(files.wordMap));
  write(INDEX_FILES.wordMapOffsets, () => bytesOf(files.wordMapOffsets));
  write(TYPEAHEAD_FILE, () => files.typeahead);
  let bytes = await allWritten(writes);
  const statsText = (total: number) => JSON.stringify({ ...files.stats, bytesOnDisk: total });
  const manifestText = (total: number) => JSON.stringify({ ...files.manifest, bytesOnDisk: total, checksums }, null, 2);
  // The two small files state the total including themselves (and stored.bin and its table, written before); their
  // length barely depends on it.
  const sofar = bytes + storedBytes;
  const estimate = sofar + statsText(sofar).length + manifestText(sofar).length + 16;
  bytes += await writeDurably(join(dir, INDEX_FILES.stats), statsText(estimate));
  bytes += await writeDurably(join(dir, INDEX_FILES.manifest), manifestText(estimate));
  return bytes;
}

/** The bytes of all `writes`, once every one has ended: on a failure, the first error, thrown only
 * then, so that removing the failed generation never races a file still being created in it. */
async function allWritten(writes: readonly Promise<number>[]): Promise<number> {
  const ended = await Promise.allSettled(writes);
  const failed = ended.find((e) => e.status === 'rejected');
  if (failed) throw failed.reason;
  return ended.reduce((n, e) => n + (e.status === 'fulfilled' ? e.value : 0), 0);
}

/** Makes the rename itself durable. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}

/** Total bytes of the files in a directory (one level). */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir)) total += (await stat(join(dir, entry))).size;
  return total;
}
