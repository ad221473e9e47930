// Writes an index generation and makes it live atomically: every file goes into a fresh gen-* directory
// (flushed to disk), then CURRENT is replaced by a rename, which readers see whole or not at all.
// Older generations are removed afterwards; a reader that still has one open keeps reading it (Unix
// keeps unlinked files alive while open).

import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_FILE, encodeDocNumbers, type EncodedLists, INDEX_FILES, indexRoot, type DocColumns, type IndexManifest, type IndexStats, type TermTable, TYPEAHEAD_FILE, type TypeaheadFile, encodeTypeahead } from '../shared/index-format/index.js';

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
  /** stored.bin, piece by piece; written first, so that pieces may fill in `docs`' stored offsets and
   * lengths as they are taken (build.ts storedRecords). */
  stored: Iterable<string>;
  /** The page typeahead (indexer/page-typeahead.ts). */
  typeahead: TypeaheadFile;
  stats: Omit<IndexStats, 'bytesOnDisk'>;
}

/** Bytes gathered before a streamed file's write: few system calls, little memory. */
const STREAM_CHUNK_BYTES = 4 * 2 ** 20;

/** Writes a file from pieces taken one at a time (never all held), `chunkBytes` at a time, and flushes
 * it to disk; returns its size. */
export async function writeStreamed(path: string, pieces: Iterable<string>, chunkBytes = STREAM_CHUNK_BYTES): Promise<number> {
  const handle = await open(path, 'w');
  let total = 0;
  try {
    let chunk = Buffer.allocUnsafe(chunkBytes);
    let used = 0;
    const flush = async () => {
      if (used > 0) await handle.write(chunk, 0, used);
      total += used;
      used = 0;
    };
    for (const piece of pieces) {
      const bytes = Buffer.byteLength(piece, 'utf8');
      if (used + bytes > chunk.length) await flush();
      // A piece larger than the chunk (a long page's body) gets a buffer of its own for its write.
      if (bytes > chunk.length) chunk = Buffer.allocUnsafe(bytes);
      used += chunk.write(piece, used, 'utf8');
    }
    await flush();
    await handle.sync();
  } finally {
    await handle.close();
  }
  return total;
}

/** Writes a file and flushes it to disk; `data` may be pieces (a file larger than one string can be). */
async function writeDurably(path: string, data: string | Uint8Array | readonly string[]): Promise<number> {
  const handle = await open(path, 'w');
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
    else for (const piece of data) await handle.write(piece);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (data instanceof Uint8Array) return data.byteLength;
  return data.reduce((n, piece) => n + Buffer.byteLength(piece), 0);
}

const bytesOf = (a: Uint32Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Writes the generation, points CURRENT at it and removes the others; returns its directory and size. */
export async function writeGeneration(dataDir: string, files: GenerationFiles): Promise<{ dir: string; bytesOnDisk: number }> {
  const root = indexRoot(dataDir);
  await mkdir(root, { recursive: true });
  const name = `gen-${Date.now().toString(36)}-${process.pid}`;
  const dir = join(root, name);
  await mkdir(dir);
  // stored.bin first: its pieces fill in the stored offsets that doc-numbers.bin holds.
  let bytes = await writeStreamed(join(dir, INDEX_FILES.stored), files.stored);
  const { url, title, language, host, ...numbers } = files.docs;
  bytes += await writeDurably(join(dir, INDEX_FILES.docs), JSON.stringify({ url, title, language, host }));
  bytes += await writeDurably(join(dir, INDEX_FILES.docNumbers), encodeDocNumbers(numbers));
  bytes += await writeDurably(join(dir, INDEX_FILES.fingerprints), JSON.stringify(files.fingerprints));
  bytes += await writeDurably(join(dir, INDEX_FILES.terms), JSON.stringify(files.terms));
  bytes += await writeDurably(join(dir, INDEX_FILES.offsets), bytesOf(files.offsets));
  bytes += await writeDurably(join(dir, INDEX_FILES.termOffsets), new Uint8Array(files.lists.termOffsets.buffer, files.lists.termOffsets.byteOffset, files.lists.termOffsets.byteLength));
  bytes += await writeDurably(join(dir, INDEX_FILES.postings), files.lists.postings);
  bytes += await writeDurably(join(dir, INDEX_FILES.positions), files.lists.positions);
  bytes += await writeDurably(join(dir, INDEX_FILES.wordMap), bytesOf(files.wordMap));
  bytes += await writeDurably(join(dir, INDEX_FILES.wordMapOffsets), bytesOf(files.wordMapOffsets));
  bytes += await writeDurably(join(dir, TYPEAHEAD_FILE), encodeTypeahead(files.typeahead));
  const statsText = (total: number) => JSON.stringify({ ...files.stats, bytesOnDisk: total });
  const manifestText = (total: number) => JSON.stringify({ ...files.manifest, bytesOnDisk: total }, null, 2);
  // The two small files state the total including themselves; their length barely depends on it.
  const estimate = bytes + statsText(bytes).length + manifestText(bytes).length + 16;
  bytes += await writeDurably(join(dir, INDEX_FILES.stats), statsText(estimate));
  bytes += await writeDurably(join(dir, INDEX_FILES.manifest), manifestText(estimate));

  const tmp = join(root, `${CURRENT_FILE}.${process.pid}.tmp`);
  await writeDurably(tmp, name + '\n');
  await rename(tmp, join(root, CURRENT_FILE));
  await syncDir(root);
  for (const entry of await readdir(root)) {
    if (entry !== name && (entry.startsWith('gen-') || entry.endsWith('.tmp'))) await rm(join(root, entry), { recursive: true, force: true });
  }
  return { dir, bytesOnDisk: bytes };
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
